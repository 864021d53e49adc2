// bench/page-timing.mjs — `node bench/page-timing.mjs [--sizes 2000,5000,10000] [--generators transformer,adversarial]`:
// how long the page takes from dropping a model to showing its plan, in headless Chromium.
//
// Opens the built site (dist/, or FUSION_SITE_DIR) once per model, drops the file on the graph and reads the
// page's own timings (file-open.js: drop → numbers on screen, drop → graph drawn), the longest main-thread task
// during the load (a PerformanceObserver of long tasks) and, for the biggest model, how long one keystroke in
// the JSON box takes to reach the screen. Models: the gallery's ONNX files (examples/models/*.onnx) and the
// benchmark generators' graphs written as ONNX (bench/onnx-from-graph.mjs) at each size. Prints one table and
// writes it to build/page-timing.json. A benchmark, not a test: nothing here fails on a slow machine (the
// machine's load average is printed beside the numbers, since they scale with it).
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { openSite, openPage, waitForPlan, root } from '../tests/browser/page-helpers.mjs';
import { dropFile } from '../tests/browser/import-helpers.mjs';
import { graphToOnnx } from './onnx-from-graph.mjs';

const args = process.argv.slice(2);
const pick = (flag, fallback) => {
  const at = args.indexOf(flag);
  return (at >= 0 ? args[at + 1] : fallback).split(',');
};
const sizes = pick('--sizes', '2000,5000,10000').map(Number);
const generators = pick('--generators', 'transformer,adversarial');

// The models: gallery files first, then generated ones, smallest first.
function models() {
  const dir = root('examples/models');
  const gallery = readdirSync(dir).filter((f) => f.endsWith('.onnx')).sort()
    .map((f) => ({ name: f, bytes: readFileSync(`${dir}/${f}`) }));
  const generated = generators.flatMap((g) => sizes.map((n) => {
    const text = execFileSync(root('build/native/bench/fusion-generate'), [g, String(n)], { maxBuffer: 1 << 28 }).toString();
    return { name: `${g}-${n}.onnx`, bytes: graphToOnnx(JSON.parse(text)) };
  }));
  return [...gallery, ...generated];
}

// Watches long tasks on the page from now on.
const watchTasks = (page) => page.evaluate(() => {
  window.benchTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.benchTasks.push(e.duration); }).observe({ type: 'longtask' });
});

// One keystroke at the end of the JSON box's first line: key down → the store has the new text → next frame.
async function keystrokeMs(page) {
  await page.locator('.cm-line').first().click();
  await page.keyboard.press('End');
  await page.evaluate(() => {
    window.keyLag = new Promise((done) => document.addEventListener('keydown', () => {
      const t0 = performance.now();
      const stop = window.fusionPlayground.store.subscribe(() => {
        stop();
        requestAnimationFrame(() => done(performance.now() - t0));
      });
    }, { once: true, capture: true }));
  });
  await page.keyboard.type(' ');
  return page.evaluate(() => window.keyLag);
}

async function measure(site, model, last) {
  const page = await openPage(site, '#example=diamond');
  const n = await waitForPlan(page);
  await watchTasks(page);
  await dropFile(page, '#graph', model.name, model.bytes);
  await waitForPlan(page, n + 1, 300_000);
  const run = await page.evaluate(() => window.fusionPlayground.imports.last);
  const layout = await page.evaluate(() => window.fusionPlayground.timings.lastLayout);
  const longest = await page.evaluate(() => Math.max(0, ...window.benchTasks));
  const row = { model: model.name, kib: Math.round(model.bytes.length / 1024), ops: run.ops, importMs: Math.round(run.importMs),
    numbersMs: Math.round(run.toNumbersMs), drawnMs: Math.round(run.toDrawnMs), drawnNodes: layout.nodes, layout: layout.engine,
    longestTaskMs: Math.round(longest) };
  if (last) row.keystrokeMs = Math.round(await keystrokeMs(page));
  await page.context().close();
  return row;
}

const site = await openSite();
const rows = [];
try {
  const list = models();
  for (const [k, model] of list.entries()) {
    rows.push(await measure(site, model, k === list.length - 1));
    console.error(`${model.name}: drawn ${rows.at(-1).drawnMs} ms`);
  }
} finally {
  await site.close();
}
const load = `load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`;
console.log(`drop → plan in the page (${load}); times in ms from the drop`);
console.table(rows);
mkdirSync(root('build'), { recursive: true });
writeFileSync(root('build/page-timing.json'), `${JSON.stringify({ load, rows }, null, 2)}\n`);
