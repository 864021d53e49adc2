// page-helpers.mjs — shared steps of the page-*.test.mjs browser tests (not a test file itself).
//
// openSite() serves dist/ (built by `npm run build`; FUSION_SITE_DIR names another build folder) and launches
// Debian's Chromium via the harness in chromium.mjs/static-server.mjs; openPage() opens a path and collects page
// errors, closePage() ends a test's use of it; waitForPlan() waits until the graph view has drawn a plan
// (body[data-plan-shown] counts draws); shownNumbers() reads the numbers on screen; shot() writes a screenshot
// artifact to build/screenshots/; cutOffCells() lists group-table cells cut off.
//
// Pages are lent, not made afresh: on the 2-core CI machine a new browser context and its renderer cost about as
// much CPU as the page's own start (together about 4.6 CPU-s an open against 2.3 for a navigation of a page that
// is there), and the suite opens pages a few hundred times. Each site keeps one page; openPage() takes it when it
// is free, resets what a test may have changed (its document, the origin's storage, viewport, colour scheme,
// permissions, the mouse) and navigates it to the path, so each test still starts from a fresh document.
// closePage() gives it back. A page that is not given back (a test that failed before its end) is never lent
// again, and a test that needs a second page while the first is out gets a context of its own.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';
import { BLANK_PATH, startStaticServer } from './static-server.mjs';

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
    lendable: null, // the page openPage() lends out, when it is not out
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}

export async function openPage(site, path = '', { width = 1440, height = 900 } = {}) {
  const lent = site.lendable && !site.lendable.isClosed() ? site.lendable : null;
  site.lendable = null;
  const page = lent ? await reset(lent, site, { width, height }) : await newPage(site, { width, height });
  await page.goto(site.server.url + path);
  return page;
}

// Ends a test's use of a page: one from openPage() goes back to be lent again when the site has none to lend; any
// other page's context is closed.
export async function closePage(page) {
  if (page.site && !page.site.lendable && !page.isClosed()) page.site.lendable = page;
  else await page.context().close();
}

async function newPage(site, viewport) {
  const context = await site.browser.newContext({ viewport });
  const page = await context.newPage();
  page.site = site;
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && page.problems.push(`console: ${m.text()}`));
  return page;
}

// What a test may have left on a lent page, undone: the server's blank page of the origin ends the old document,
// its timers and its workers, then the origin's storage is cleared (drafts, the theme choice).
async function reset(page, site, viewport) {
  await page.goto(new URL(BLANK_PATH, site.server.url).href);
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await page.context().clearPermissions();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(viewport);
  await page.mouse.move(0, 0);
  page.problems = [];
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
