// plan-module.test.mjs — the plan-only WASM module (wasm/fusion-plan.mjs, the element's): it plans exactly as the
// full module does, is smaller, and answers the functions it leaves out with an error value, never an abort.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { test } from 'node:test';

import { loadFusion } from '../../wasm/fusion.mjs';
import { loadFusionPlan, loadedFusionPlan } from '../../wasm/fusion-plan.mjs';

const EXAMPLES = new URL('../../examples/', import.meta.url);
const examples = readdirSync(EXAMPLES)
  .filter((name) => name.endsWith('.json'))
  .map((name) => [name, readFileSync(new URL(name, EXAMPLES), 'utf8')]);
const BIAS_RELU = readFileSync(new URL('bias-relu.json', EXAMPLES), 'utf8');
const OPTION_SETS = [
  undefined,
  { broadcast: false },
  { strategy: 'xla', hardware: 'a100' },
  { strategy: 'inductor', resident_sources: true },
  { strategy: 'tvm', search: 'greedy' },
  { numerics: { evaluate: false } },
]; // (plan search is not in the plan-only module: see the not_in_module test below)

test('the plan-only module loads once, apart from the full one, with the same version and catalog', async () => {
  const [full, light] = await Promise.all([loadFusion(), loadFusionPlan()]);
  assert.notEqual(light, full, 'a separate instance');
  assert.equal(await loadFusionPlan(), light, 'a second load returns the same module');
  assert.equal(loadedFusionPlan(), light);
  assert.equal(light.version(), full.version());
  assert.deepEqual(light.catalog(), full.catalog());
});

test('it plans every example under several options byte for byte as the full module does', async () => {
  const [full, light] = await Promise.all([loadFusion(), loadFusionPlan()]);
  for (const [name, text] of examples) {
    for (const options of OPTION_SETS) {
      const expected = full.planText(text, options);
      assert.equal(light.planText(text, options), expected, `${name} ${JSON.stringify(options)}`);
      const loaded = light.loadGraph(text);
      assert.equal(loaded.ok, true, name);
      assert.equal(loaded.planText(options), expected, `${name} loaded`);
      loaded.release();
    }
  }
  // a failure too: the same error value
  assert.equal(light.planText('{"ops": [{"kind": "relu"}]}'), full.planText('{"ops": [{"kind": "relu"}]}'));
  assert.equal(light.planText(BIAS_RELU, '{"strategy": "nope"}'), full.planText(BIAS_RELU, '{"strategy": "nope"}'));
});

test('validate, verify and sweep answer not_in_module as values, and planning still works afterwards', async () => {
  const light = await loadFusionPlan();
  const plan = light.plan(BIAS_RELU);
  const spec = { dim: 'n', from: 1, to: 4 };
  const loaded = light.loadGraph(BIAS_RELU);
  const answers = {
    validate: light.validate(BIAS_RELU),
    verify: light.verify(BIAS_RELU, {}, plan),
    sweep: light.sweep(BIAS_RELU, {}, spec),
    'loaded sweep': loaded.sweep({}, spec),
    validateText: JSON.parse(light.validateText(BIAS_RELU)),
    verifyText: JSON.parse(light.verifyText(BIAS_RELU, {}, plan)),
    sweepText: JSON.parse(light.sweepText(BIAS_RELU, {}, spec)),
  };
  for (const [what, answer] of Object.entries(answers)) {
    assert.equal(answer.ok, false, what);
    assert.equal(answer.error.code, 'not_in_module', what);
    assert.match(answer.error.message, /not in the WASM module fusion_plan.*wasm\/fusion\.mjs/, what);
    assert.deepEqual(answer.errors, [answer.error], what);
  }
  assert.equal(loaded.plan().ok, true, 'the loaded graph still plans');
  loaded.release();
  assert.equal(light.plan(BIAS_RELU).ok, true, 'no restart: the module was never called');
});

test('an evaluation of numerics answers not_in_module at /numerics (the evaluator is left out); notes alone plan', async () => {
  const [full, light] = await Promise.all([loadFusion(), loadFusionPlan()]);
  const loaded = light.loadGraph(BIAS_RELU);
  for (const numerics of [true, {}, { evaluate: true, seed: 3 }]) {
    for (const answer of [light.plan(BIAS_RELU, { numerics }), loaded.plan({ numerics })]) {
      assert.equal(answer.ok, false, JSON.stringify(numerics));
      assert.equal(answer.error.code, 'not_in_module');
      assert.equal(answer.error.path, '/numerics');
      assert.match(answer.error.message, /reference evaluator .* fusion_plan/);
    }
  }
  const notesOnly = { numerics: { evaluate: false } };
  const text = light.planText(BIAS_RELU, notesOnly);
  assert.equal(text, full.planText(BIAS_RELU, notesOnly));
  assert.equal(JSON.parse(text).numerics.evaluated, false);
  assert.equal(full.plan(BIAS_RELU, { numerics: true }).numerics.evaluated, true, 'the full module evaluates');
  // A wrongly typed field is the planner's invalid_options, as in the full module.
  const typo = { numerics: { evaluate: 'yes' } };
  assert.equal(light.plan(BIAS_RELU, typo).error.code, 'invalid_options');
  assert.equal(light.plan(BIAS_RELU, typo).error.path, full.plan(BIAS_RELU, typo).error.path);
  // Options that are not JSON keep the planner's own error.
  assert.equal(
    light.plan(BIAS_RELU, '{"numerics": tru').error.code,
    full.plan(BIAS_RELU, '{"numerics": tru').error.code,
  );
});

test('a plan search answers not_in_module at /search (search is left out); greedy plans as the full module', async () => {
  const [full, light] = await Promise.all([loadFusion(), loadFusionPlan()]);
  const loaded = light.loadGraph(BIAS_RELU);
  for (const options of [
    { search: 'optimal' },
    { search: { mode: 'optimal', budget_nodes: 10 } },
    { strategy: 'tvm', search: 'optimal' },
    { strategy: 'inductor', search: { mode: 'optimal' } },
  ]) {
    for (const answer of [light.plan(BIAS_RELU, options), loaded.plan(options)]) {
      assert.equal(answer.ok, false, JSON.stringify(options));
      assert.equal(answer.error.code, 'not_in_module');
      assert.equal(answer.error.path, '/search');
      assert.match(answer.error.message, /plan search is not in the WASM module fusion_plan.*wasm\/fusion\.mjs/);
    }
    assert.equal(full.plan(BIAS_RELU, options).search.mode, 'optimal', 'the full module searches');
  }
  loaded.release();
});

test('the plan-only binary is smaller than the full one (the verifier and sweep are not linked in)', () => {
  const size = (name) => statSync(new URL(`../../wasm/generated/${name}`, import.meta.url)).size;
  const full = size('fusion_core.wasm');
  const light = size('fusion_plan.wasm');
  assert.ok(light < full * 0.95, `fusion_plan.wasm ${light} bytes, fusion_core.wasm ${full} bytes`);
});
