// page-budget.test.mjs — what a reader downloads before the first plan is on screen, measured in Chromium
// against the budgets of tools/size-report.mjs: a blog page on another origin with one script tag and two
// <fusion-playground> elements of small graphs, the ?embed iframe, and the full page. Each file the browser
// fetched from the site up to the first drawn plan is counted at its gzip size (what a compressing static host
// transfers; the test server sends files as they are). Also: nothing lazy loads early — no ELK for small
// graphs, no JSON editor, compare view or ONNX importer in an embed, no Cytoscape (the element draws small
// graphs as SVG) and no link codec in the element before its first drawing — the page's JSON editor does load after
// its first plan, and a host that serves the WebAssembly with another MIME type still gets a plan. The element,
// the light ?embed and the page load the plan-only WebAssembly module (fusion_plan) for their first plan and never
// the full one before it (the page's planner worker imports it when a request needs it: a sweep, a kernel's code, a
// numerics evaluation: page-code.test.mjs, page-dims.test.mjs). ?embed downloads neither the page's code (main)
// nor Cytoscape.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { BUDGETS, chunkName } from '../../tools/size-report.mjs';
import { launchChromium } from './chromium.mjs';
import { closePage, root } from './page-helpers.mjs';
import { startStaticServer } from './static-server.mjs';

const budget = (name) => BUDGETS.find((b) => b.name === name || b.entry === name).budget;
const EMBED = '?embed of a small graph';
// Not loaded by the element before its first drawing, for small graphs.
const ELEMENT_LAZY = ['cytoscape', 'graph-view', 'url-state'];
const LAZY = ['elk', 'codemirror', 'json-editor', 'compare-view', 'import-file', 'import-worker', 'onnx-protobuf'];
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

let site; // dist/, as the playground's host (it lets other origins load the element)
let blog; // another origin: a blog post with two elements
let browser;
before(async () => {
  site = await startStaticServer(process.env.FUSION_SITE_DIR ?? root('dist'), { cors: true });
  const dir = mkdtempSync(join(tmpdir(), 'fusion-blog-'));
  const chain = (n) =>
    JSON.stringify({
      ops: [
        { name: 'x', kind: 'input', shape: [1024, 768], dtype: 'f32' },
        ...Array.from({ length: n }, (_, k) => ({
          name: `op${k}`,
          kind: ['relu', 'exp', 'matmul', 'neg'][k % 4],
          inputs: [k ? `op${k - 1}` : 'x', ...(k % 4 === 2 ? ['x'] : [])],
          shape: [1024, 768],
          dtype: 'f32',
        })),
      ],
    });
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8"><title>A post</title>
<script type="module" src="${site.url}fusion-playground.js"></script></head>
<body><h1>Fusing a small MLP</h1><p>Text before.</p>
<fusion-playground id="a"><script type="application/json">${chain(10)}</script></fusion-playground>
<p>Text between.</p>
<fusion-playground id="b"><script type="application/json">${chain(40)}</script></fusion-playground>
</body></html>`,
  );
  blog = await startStaticServer(dir);
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await blog?.close();
  await site?.close();
});

// In the page, before its scripts: the wall-clock time (ms since the epoch) at which the first plan was drawn —
// body[data-plan-shown] for the page, every <fusion-playground>'s data-plan-shown for a blog post —
// recorded by a MutationObserver as the attribute changes (so before anything loaded after it starts).
function watchFirstDraw() {
  const drawn = () => {
    const els = [...document.querySelectorAll('fusion-playground')];
    if (els.length) return els.every((e) => Number(e.dataset.planShown) >= 1);
    return Number(document.body?.dataset.planShown) >= 1;
  };
  new MutationObserver((_, observer) => {
    if (!drawn()) return;
    window.firstDrawnAt = performance.timeOrigin + performance.now();
    observer.disconnect();
  }).observe(document, { attributes: true, attributeFilter: ['data-plan-shown'], subtree: true });
}

// Opens url and records every response from the site (the page's and its workers'): {files: [{name, raw,
// gzip}] of the requests started before the first plan was drawn, all(): every one so far}.
async function transferredUntilDrawn(url, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(watchFirstDraw);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  const seen = [];
  page.on('requestfinished', (request) => {
    if (!request.url().startsWith(site.url)) return;
    const name = chunkName(new URL(request.url()).pathname) || 'index.html';
    const timing = request.timing();
    const at = timing.startTime;
    const end = at + timing.responseEnd; // responseEnd counts from startTime
    const sized = request
      .response()
      .then((r) => r?.body())
      .then((body) => ({ name, at, end, raw: body.length, gzip: gzipSync(body, { level: 9 }).length }))
      .catch(() => ({ name, at, end, raw: 0, gzip: 0 }));
    seen.push(sized);
  });
  await page.goto(url);
  await page.waitForFunction(() => window.firstDrawnAt > 0, null, { timeout: 60_000 });
  const until = await page.evaluate(() => window.firstDrawnAt);
  await page.waitForTimeout(200); // requests started before the draw have finished by now on localhost
  const all = () => Promise.all(seen);
  const files = (await all()).filter((f) => f.at < until);
  return { page, files, all, problems, total: files.reduce((s, f) => s + f.gzip, 0) };
}

const table = (files) => files.map((f) => `${f.name} ${kib(f.gzip)}`).join(', ');

test(
  'a blog post on another origin with two small elements stays within the element budget',
  { timeout: 90_000 },
  async () => {
    const run = await transferredUntilDrawn(blog.url);
    const shown = await run.page.evaluate(() =>
      [...document.querySelectorAll('fusion-playground')].map((e) => ({
        kernels: e.shadowRoot.querySelector('[data-value="kernels"]').textContent,
        error: e.shadowRoot.querySelector('.message').hidden
          ? null
          : e.shadowRoot.querySelector('.message').textContent,
      })),
    );
    assert.deepEqual(
      shown.map((s) => s.error),
      [null, null],
      'both elements planned',
    );
    assert.deepEqual(run.problems, []);
    const names = run.files.map((f) => f.name);
    assert.ok(names.includes('fusion_plan'), "the plan-only module's binary is fetched");
    assert.equal(names.filter((n) => n === 'fusion_plan').length, 1, 'once, for both elements');
    assert.ok(!names.includes('fusion_core'), `the full module is not loaded: ${table(run.files)}`);
    for (const lazy of [...LAZY, ...ELEMENT_LAZY])
      assert.ok(!names.includes(lazy), `${lazy} is not loaded: ${table(run.files)}`);
    assert.deepEqual(
      await run.page.evaluate(() =>
        [...document.querySelectorAll('fusion-playground')].map((e) => [
          e.shadowRoot.querySelectorAll('svg [data-op]').length,
          e.shadowRoot.querySelectorAll('canvas').length,
        ]),
      ),
      [
        [11, 0],
        [41, 0],
      ],
      'both drawn as SVG, one box per op',
    );
    console.log(`element ×2 on another origin: ${kib(run.total)} — ${table(run.files)}`);
    assert.ok(
      run.total <= budget('fusion-playground.js'),
      `${kib(run.total)} > ${kib(budget('fusion-playground.js'))}`,
    );
    await closePage(run.page);
  },
);

test('?embed of a small graph loads no editor, compare view, importer or ELK', { timeout: 90_000 }, async () => {
  const run = await transferredUntilDrawn(`${site.url}?embed#example=transformer-mlp`, { width: 700, height: 480 });
  await run.page.waitForTimeout(3500); // past the page's editor fallback delay: still nothing lazy
  const all = await run.all();
  const names = all.map((f) => f.name);
  for (const lazy of [...LAZY, ...ELEMENT_LAZY, 'main', 'planner-client', 'selection-panel'])
    assert.ok(!names.includes(lazy), `${lazy} is not loaded: ${table(all)}`);
  assert.ok(names.includes('fusion_plan') && !names.includes('fusion_core'), `the plan-only module: ${table(all)}`);
  const drawn = await run.page.evaluate(() => ({
    boxes: document.querySelectorAll('#graph svg [data-op]').length,
    canvases: document.querySelectorAll('#graph canvas').length,
  }));
  assert.deepEqual(drawn, { boxes: 11, canvases: 0 }, 'drawn as SVG');
  assert.deepEqual(run.problems, []);
  console.log(`?embed: ${kib(run.total)} — ${table(run.files)}`);
  assert.ok(run.total <= budget(EMBED), `${kib(run.total)} > ${kib(budget(EMBED))}`);
  await closePage(run.page);
});

test(
  'the full page draws its first plan within the page budget, then loads the JSON editor',
  { timeout: 90_000 },
  async () => {
    const run = await transferredUntilDrawn(site.url, { width: 1440, height: 900 });
    for (const lazy of LAZY) assert.ok(!run.files.some((f) => f.name === lazy), `${lazy} not before the first plan`);
    assert.ok(
      run.files.some((f) => f.name === 'fusion_plan'),
      `the page plans with the plan-only module: ${table(run.files)}`,
    );
    // The full module (the size chart's sweep needs it) is fetched only after the first plan is drawn: the page
    // holds the sweep back until then (watch-sweep.js's after), so the draw never waits on its download.
    assert.ok(
      !run.files.some((f) => f.name === 'fusion_core'),
      `the full module is not fetched before the first draw: ${table(run.files)}`,
    );
    console.log(`page: ${kib(run.total)} — ${table(run.files)}`);
    assert.ok(run.total <= budget('page'), `${kib(run.total)} > ${kib(budget('page'))}`);
    await run.page.locator('[data-testid="json-editor"] .cm-editor').waitFor({ timeout: 30_000 });
    assert.ok(
      (await run.all()).some((f) => f.name === 'codemirror'),
      'the editor came after the first plan',
    );
    assert.deepEqual(run.problems, []);
    await closePage(run.page);
  },
);

test(
  'a host that serves the .wasm as application/octet-stream still gets a plan, from one download',
  { timeout: 90_000 },
  async () => {
    const plain = await startStaticServer(process.env.FUSION_SITE_DIR ?? root('dist'), {
      types: { '.wasm': 'application/octet-stream' },
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const wasm = [];
    page.on('response', (r) => r.url().endsWith('.wasm') && wasm.push(r.headers()['content-type']));
    await page.goto(`${plain.url}#example=diamond`);
    await page.waitForFunction(() => Number(document.body.dataset.planShown) >= 1, null, { timeout: 60_000 });
    assert.deepEqual(wasm, ['application/octet-stream']);
    assert.match(await page.getByTestId('kernels').textContent(), /→/);
    assert.deepEqual(problems, []);
    await context.close();
    await plain.close();
  },
);
