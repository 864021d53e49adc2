// page-worker.test.mjs — the planner runs in a Web Worker: planning a 20,000-op graph (over a second of
// WASM work) leaves the page's main thread free, and the answer equals the native CLI's.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { openSite, openPage, waitForPlan, root } from './page-helpers.mjs';

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

// A chain of n blocks (weight, matmul, gelu, residual add): 4n + 1 ops.
function chain(n) {
  const ops = [{ name: 'x0', kind: 'input', shape: [512, 256], dtype: 'f16' }];
  for (let b = 0; b < n; b++) {
    const x = b === 0 ? 'x0' : `r${b - 1}`;
    ops.push({ name: `w${b}`, kind: 'input', shape: [256, 256], dtype: 'f16' },
      { name: `m${b}`, kind: 'matmul', inputs: [x, `w${b}`], shape: [512, 256], dtype: 'f16' },
      { name: `g${b}`, kind: 'gelu', inputs: [`m${b}`], shape: [512, 256], dtype: 'f16' },
      { name: `r${b}`, kind: 'add', inputs: [`g${b}`, x], shape: [512, 256], dtype: 'f16' });
  }
  return JSON.stringify({ ops });
}

test('a 20,000-op plan runs in the worker while the main thread keeps ticking', { timeout: 90_000 }, async () => {
  const page = await openPage(site, '#example=diamond');
  await waitForPlan(page);
  assert.equal(await page.evaluate(() => window.fusionPlayground.planner.where), 'worker');
  const text = chain(5000);
  const run = await page.evaluate(async (t) => {
    const { planner } = window.fusionPlayground;
    let last = performance.now();
    let worst = 0;
    const tick = setInterval(() => { const now = performance.now(); worst = Math.max(worst, now - last); last = now; }, 10);
    const t0 = performance.now();
    const result = await planner.plan(t, { broadcast: true, resident_sources: false });
    const ms = performance.now() - t0;
    clearInterval(tick);
    return { ok: result.ok, bytes_fused: result.bytes_fused, kernels: result.kernels_fused, ms, worst };
  }, text);
  const cli = JSON.parse(spawnSync(root('build/native/cli/fusion-plan'), ['-'], { input: text, maxBuffer: 1 << 28 }).stdout);
  assert.deepEqual([run.ok, run.bytes_fused, run.kernels], [true, cli.bytes_fused, cli.kernels_fused]);
  assert.ok(run.ms > 300, `the plan took ${run.ms.toFixed(0)} ms, long enough to show a frozen page`);
  assert.ok(run.worst < 150, `the main thread was blocked for ${run.worst.toFixed(0)} ms while planning`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
