// page-timing.test.mjs — how long a person waits: load → first plan drawn, and edit → updated plan drawn, for
// the transformer example and a generated 1,000-op graph (100 stacked MLP blocks); the numbers appear before
// the layout finishes (loadToNumbers). Writes the timings to
// build/screenshots/timings.json and prints them; fails only past generous bounds (a frozen page).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { encodeState, DEFAULT_OPTIONS } from '../../web/src/url-state.js';
import { formatGraph } from '../../web/src/graph-text.js';
import { openSite, openPage, waitForPlan, shot, root } from './page-helpers.mjs';

let site;
const results = {};
before(async () => { site = await openSite(); });
after(async () => {
  await site?.close();
  mkdirSync(root('build/screenshots'), { recursive: true });
  writeFileSync(root('build/screenshots/timings.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log('timings (ms):', JSON.stringify(results));
});

// n stacked transformer MLP blocks, 10 ops each (4 weights, 2 matmuls, 2 bias adds, GELU, residual).
function mlpStack(blocks) {
  const ops = [{ name: 'x0', kind: 'input', shape: [512, 256], dtype: 'f16' }];
  for (let b = 0; b < blocks; b++) {
    const x = b === 0 ? 'x0' : `res${b - 1}`;
    ops.push({ name: `w1_${b}`, kind: 'input', shape: [256, 1024], dtype: 'f16' }, { name: `b1_${b}`, kind: 'input', shape: [1024], dtype: 'f16' },
      { name: `w2_${b}`, kind: 'input', shape: [1024, 256], dtype: 'f16' }, { name: `b2_${b}`, kind: 'input', shape: [256], dtype: 'f16' },
      { name: `fc1_${b}`, kind: 'matmul', inputs: [x, `w1_${b}`], shape: [512, 1024], dtype: 'f16' },
      { name: `bias1_${b}`, kind: 'add', inputs: [`fc1_${b}`, `b1_${b}`], shape: [512, 1024], dtype: 'f16' },
      { name: `act_${b}`, kind: 'gelu', inputs: [`bias1_${b}`], shape: [512, 1024], dtype: 'f16' },
      { name: `fc2_${b}`, kind: 'matmul', inputs: [`act_${b}`, `w2_${b}`], shape: [512, 256], dtype: 'f16' },
      { name: `bias2_${b}`, kind: 'add', inputs: [`fc2_${b}`, `b2_${b}`], shape: [512, 256], dtype: 'f16' },
      { name: `res${b}`, kind: 'add', inputs: [`bias2_${b}`, x], shape: [512, 256], dtype: 'f16' });
  }
  return { ops: ops.slice(0, 1000) };
}

// Opens a link, then makes one edit (replaces editLine[0] by editLine[1]) and measures both waits.
async function measure(name, path, editLine) {
  const page = await openPage(site, path);
  const n = await waitForPlan(page, 1, 100_000);
  const { firstNumbersMs, firstPlanShownMs } = await page.evaluate(() => window.fusionPlayground.timings);
  await page.evaluate((f) => {
    const { store } = window.fusionPlayground;
    store.dispatch({ type: 'set-text', text: store.getState().text.replace(f[0], f[1]) });
  }, editLine);
  assert.notEqual(await page.evaluate(() => window.fusionPlayground.store.getState().lastEvent), 'restore', 'the edit changed the text');
  await waitForPlan(page, n + 1, 100_000);
  const edit = await page.evaluate(() => window.fusionPlayground.timings.lastEditToPlanMs);
  results[name] = { ops: await page.evaluate(() => window.fusionPlayground.store.getState().graph.ops.length),
    loadToNumbers: Math.round(firstNumbersMs), loadToFirstPlan: Math.round(firstPlanShownMs), editToPlan: Math.round(edit) };
  return page;
}

test('the transformer example: first plan and an edit are quick', { timeout: 60_000 }, async () => {
  const page = await measure('transformer-mlp', '#example=transformer-mlp', ['"residual"', '"out"']);
  assert.ok(results['transformer-mlp'].loadToFirstPlan < 10_000);
  assert.ok(results['transformer-mlp'].editToPlan < 5_000);
  await page.context().close();
});

test('a generated 1,000-op graph plans and lays out without freezing the page', { timeout: 240_000 }, async () => {
  const text = formatGraph(mlpStack(100));
  const page = await measure('mlp-stack-1000', `#${encodeState({ example: null, text, options: DEFAULT_OPTIONS })}`, ['"name": "x0", "kind": "input", "shape": [512, 256], "dtype": "f16"', '"name": "x0", "kind": "input", "shape": [512, 256], "dtype": "f32"']);
  assert.equal(results['mlp-stack-1000'].ops, 1000);
  assert.ok(results['mlp-stack-1000'].loadToNumbers < 10_000, 'the numbers do not wait for the layout');
  assert.ok(results['mlp-stack-1000'].loadToFirstPlan < 90_000);
  assert.ok(results['mlp-stack-1000'].editToPlan < 90_000);
  await shot(page, 'graph-1000-ops');
  await page.context().close();
});
