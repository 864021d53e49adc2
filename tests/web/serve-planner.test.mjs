// serve-planner.test.mjs — the planner worker's body (web/src/planner/serve-planner.js) in Node, with the real
// modules: a worker given loadFull plans with the plan-only module until a request needs the full one (a kernel's
// code), then loads it once and answers everything with it; a full module that fails to load leaves the plan-only
// answer; a worker without loadFull never loads it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, test } from 'node:test';
import { loadFusion } from '../../wasm/fusion.mjs';
import { loadFusionPlan } from '../../wasm/fusion-plan.mjs';
import { servePlanner } from '../../web/src/planner/serve-planner.js';

const BIAS_RELU = readFileSync(new URL('../../examples/bias-relu.json', import.meta.url), 'utf8');
let posted = [];
beforeEach(() => {
  posted = [];
  globalThis.self = {};
  globalThis.postMessage = (message) => posted.push(message);
});
afterEach(() => {
  delete globalThis.self;
  delete globalThis.postMessage;
});

// Sends one request to the worker body and answers its reply.
async function ask(data) {
  const before = posted.length;
  await globalThis.self.onmessage({ data });
  return posted.slice(before).find((m) => m.type === 'plan' && m.id === data.id);
}

test('the plan-only module plans; the first request it lacks loads the full module, which then answers all', async () => {
  let loads = 0;
  servePlanner(loadFusionPlan(), () => {
    loads += 1;
    return loadFusion();
  });
  const plan = await ask({ id: 1, text: BIAS_RELU, options: {} });
  assert.equal(JSON.parse(plan.resultText).ok, true, 'a plan, not an error value');
  assert.equal(JSON.parse(plan.resultText).kernels_fused, (await loadFusion()).plan(BIAS_RELU).kernels_fused);
  assert.equal(loads, 0, 'a plan needs only the plan-only module');
  const code = await ask({ id: 2, options: {}, code: { dialect: 'c' } });
  assert.equal(code.result.ok, true, JSON.stringify(code.result.error));
  assert.equal(loads, 1, 'the kernel code loaded the full module');
  const again = await ask({ id: 3, options: { strategy: 'xla' } });
  assert.deepEqual(again.counts, { loads: 1, reused: 1 }, "the full module's cache answers from now on");
  await ask({ id: 4, options: {}, code: { dialect: 'triton' } });
  assert.equal(loads, 1, 'loaded once');
});

test('a full module that fails to load leaves the plan-only answer, and a later request tries again', async () => {
  let loads = 0;
  servePlanner(loadFusionPlan(), () => {
    loads += 1;
    return Promise.reject(new Error('offline'));
  });
  const code = await ask({ id: 1, text: BIAS_RELU, options: {}, code: { dialect: 'c' } });
  assert.equal(code.result.ok, false);
  assert.equal(code.result.error.code, 'not_in_module');
  await ask({ id: 2, options: {}, code: { dialect: 'c' } });
  assert.equal(loads, 2);
});

test('without loadFull the plan-only worker answers not_in_module as its module does', async () => {
  servePlanner(loadFusionPlan());
  const sweep = await ask({ id: 1, text: BIAS_RELU, options: {}, sweep: { name: 'N', from: 1, to: 4 } });
  assert.equal(sweep.result.error.code, 'not_in_module');
});
