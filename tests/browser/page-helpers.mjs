// page-helpers.mjs — shared steps of the page-*.test.mjs browser tests (not a test file itself).
//
// openSite() serves dist/ (built by `npm run build`; FUSION_SITE_DIR names another build folder) and launches
// Debian's Chromium via the harness in chromium.mjs/static-server.mjs; openPage() opens a path and collects page errors; waitForPlan() waits
// until the graph view has drawn a plan (body[data-plan-shown] counts draws); shownNumbers() reads the
// numbers on screen; shot() writes a screenshot artifact to build/screenshots/; cutOffCells() lists group-table cells cut off.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';
import { startStaticServer } from './static-server.mjs';

export const root = (path) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

// The built site: dist/, or FUSION_SITE_DIR (a build of one's own while others rebuild dist/).
const siteDir = () => process.env.FUSION_SITE_DIR ?? root('dist');

export async function openSite() {
  assert.ok(existsSync(`${siteDir()}/index.html`), `no ${siteDir()}/index.html: run \`npm run build\` first`);
  const server = await startStaticServer(siteDir());
  const browser = await launchChromium();
  return {
    server,
    browser,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}

export async function openPage(site, path = '', { width = 1440, height = 900 } = {}) {
  const context = await site.browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && page.problems.push(`console: ${m.text()}`));
  await page.goto(site.server.url + path);
  return page;
}

// Waits until the view has drawn at least `count` plans; returns the count.
export async function waitForPlan(page, count = 1, timeout = 30_000) {
  await page.waitForFunction((n) => Number(document.body.dataset.planShown ?? 0) >= n, count, { timeout });
  return Number(await page.evaluate(() => document.body.dataset.planShown));
}

export async function shownNumbers(page) {
  const text = async (id) => (await page.getByTestId(id).textContent()).trim();
  return {
    bytes_unfused: Number((await text('bytes-unfused-exact')).replace(/\D/g, '')),
    bytes_fused: Number((await text('bytes-fused-exact')).replace(/\D/g, '')),
    speedup: await text('speedup'),
    kernels: await text('kernels'),
  };
}

// The current JSON box text, as the state owner holds it.
export const editorText = (page) => page.evaluate(() => window.fusionPlayground.store.getState().text);

export async function shot(page, name) {
  mkdirSync(root('build/screenshots'), { recursive: true });
  await page.screenshot({ path: root(`build/screenshots/${name}.png`) });
}

// The texts of the group table's cells that are cut off: past its pane's right edge, or wider than their box.
export function cutOffCells(page) {
  return page.evaluate(() => {
    const table = document.querySelector('[data-testid="groups-table"]');
    const right = table.parentElement.getBoundingClientRect().right;
    return [...table.querySelectorAll('th, td')]
      .filter((c) => c.getBoundingClientRect().right > right + 0.5 || c.scrollWidth > c.clientWidth + 1)
      .map((c) => c.textContent);
  });
}
