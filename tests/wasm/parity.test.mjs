// parity.test.mjs — the WASM planner and the native CLI print the same plan, byte for byte.
//
// Inputs: every examples/*.json under each option set, and 240 seeded random graphs (random-graph.mjs),
// each under one of the four broadcast x resident_sources option sets. Each WASM plan is also checked by
// the independent verifier, so a shared bug in planner and bindings would still surface.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { loadFusion } from '../../wasm/fusion.mjs';
import { runCli } from './native-cli.mjs';
import { randomGraph } from './random-graph.mjs';

const EXAMPLES = new URL('../../examples/', import.meta.url);
const OPTION_SETS = [
  {},
  { broadcast: false },
  { resident_sources: true },
  { broadcast: false, resident_sources: true },
];
const RANDOM_GRAPHS = 240;

const fusion = await loadFusion();

// Plans one graph both ways; asserts identical text (the CLI ends it with a newline) and a verified plan.
function assertSamePlan(graphText, options, label) {
  const native = runCli(graphText, options);
  const wasm = fusion.planText(graphText, options);
  assert.equal(native.stdout, `${wasm}\n`, `${label}: CLI and WASM differ (CLI stderr: ${native.stderr})`);
  const plan = JSON.parse(wasm);
  assert.equal(plan.ok, true, `${label}: ${wasm}`);
  assert.equal(native.status, 0, `${label}: CLI exit status`);
  const check = fusion.verify(graphText, options, wasm);
  assert.deepEqual(check.violations, [], `${label}: the verifier rejects the plan`);
  assert.equal(check.valid, true, label);
  return plan;
}

test('every example graph plans the same in WASM and natively, under every option set', () => {
  const files = readdirSync(EXAMPLES)
    .filter((name) => name.endsWith('.json'))
    .sort();
  assert.ok(files.length > 0, 'no examples/*.json found');
  for (const file of files) {
    const text = readFileSync(new URL(file, EXAMPLES), 'utf8');
    for (const options of OPTION_SETS) assertSamePlan(text, options, `${file} ${JSON.stringify(options)}`);
  }
});

test(`${RANDOM_GRAPHS} seeded random graphs plan the same in WASM and natively`, () => {
  let fusedGroups = 0;
  for (let seed = 1; seed <= RANDOM_GRAPHS; ++seed) {
    const options = OPTION_SETS[seed % OPTION_SETS.length];
    const text = JSON.stringify(randomGraph(seed));
    const plan = assertSamePlan(text, options, `random graph seed ${seed} ${JSON.stringify(options)}`);
    fusedGroups += plan.groups.filter((group) => group.ops.length > 1).length;
  }
  // The graphs must exercise fusion, not only singletons.
  assert.ok(fusedGroups >= RANDOM_GRAPHS, `only ${fusedGroups} multi-op groups in ${RANDOM_GRAPHS} graphs`);
});

test('numerics (docs/design.md §18): the same notes, figures and parity cost in WASM and natively', () => {
  const text = readFileSync(new URL('../core/data/f16_chain.json', import.meta.url), 'utf8');
  for (const [options, flags] of [
    [{ numerics: true }, ['--numerics']],
    [{ numerics: { parity: true } }, ['--eager-parity']],
    [
      { numerics: { seed: 3, max_elements: 100 } },
      ['--numerics', '--numerics-seed', '3', '--numerics-elements', '100'],
    ],
  ]) {
    const native = runCli(text, {}, flags);
    const wasm = fusion.planText(text, options);
    assert.equal(native.stdout, `${wasm}\n`, JSON.stringify(options));
    assert.ok(JSON.parse(wasm).numerics.evaluated);
    const check = fusion.verify(text, options, wasm);
    assert.deepEqual(check.violations, [], JSON.stringify(options));
  }
  const bad = fusion.plan(text, { numerics: { max_elements: 0 } });
  assert.equal(bad.ok, false);
  assert.equal(bad.error.code, 'invalid_options');
  assert.equal(bad.error.path, '/numerics/max_elements');
});
