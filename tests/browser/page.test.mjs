// page.test.mjs — in headless Chromium, the built site (dist/) loads the WASM module and shows the plan of
// the default example.
//
// Coordination with the page (stable selectors): [data-testid="bytes-fused-exact"] shows the fused byte
// total with digit-group separators ("25 165 824 B"), [data-testid="bytes-fused"] the rounded total,
// [data-testid="status"] the planner status (it starts as "Loading the planner…"). The expected total is
// computed here with the same module in Node from examples/<DEFAULT_EXAMPLE>.json under default options.
// A screenshot goes to build/screenshots/default-example.png for people to look at.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadFusion } from '../../wasm/fusion.mjs';
import { DEFAULT_EXAMPLE } from '../../web/src/gallery/gallery.js';
import { launchChromium } from './chromium.mjs';
import { startStaticServer } from './static-server.mjs';

const root = (path) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const siteDir = process.env.FUSION_SITE_DIR ?? root('dist'); // as page-helpers.mjs: a build of one's own, or dist/

let server;
let browser;

before(async () => {
  assert.ok(existsSync(`${siteDir}/index.html`), `no ${siteDir}/index.html: run \`npm run build\` first`);
  server = await startStaticServer(siteDir);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('the page loads the module and shows the plan of the default example', { timeout: 60_000 }, async () => {
  const fusion = await loadFusion();
  const graph = readFileSync(root(`examples/${DEFAULT_EXAMPLE}.json`), 'utf8');
  const expected = fusion.plan(graph, { broadcast: true, resident_sources: false });
  assert.equal(expected.ok, true);

  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
  await page.goto(server.url);

  const exact = page.getByTestId('bytes-fused-exact');
  const shown = () => /\d/.test(document.querySelector('[data-testid="bytes-fused-exact"]')?.textContent ?? '');
  await page.waitForFunction(shown, null, { timeout: 30_000 });
  assert.equal(Number((await exact.textContent()).replace(/\D/g, '')), expected.bytes_fused);
  assert.match(await page.getByTestId('bytes-fused').textContent(), /\d/);
  const status = await page.getByTestId('status').textContent();
  assert.doesNotMatch(status, /Loading|load_failed/i, `status: ${status}`);

  mkdirSync(root('build/screenshots'), { recursive: true });
  await page.screenshot({ path: root('build/screenshots/default-example.png'), fullPage: true });
  assert.deepEqual(problems, []);
});
