// module.test.mjs — the WASM module loads in Node and its value API never throws, whatever it is given.
//
// Also covers what the CLI cannot be asked (options as JSON, the verifier on a given plan): invalid_options,
// a tampered plan found invalid, unreadable plan text.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { loadFusion } from '../../wasm/fusion.mjs';

const BIAS_RELU = readFileSync(new URL('../../examples/bias-relu.json', import.meta.url), 'utf8');

test('the module loads in Node once and reports its version', async () => {
  const fusion = await loadFusion();
  assert.equal(await loadFusion(), fusion, 'a second load returns the same module');
  assert.match(fusion.version(), /^\d+\.\d+\.\d+/);
});

test('plan accepts JSON text and the same graph as an object, with the same result', async () => {
  const fusion = await loadFusion();
  const fromText = fusion.plan(BIAS_RELU, { broadcast: true, resident_sources: false });
  assert.equal(fromText.ok, true, JSON.stringify(fromText.error));
  assert.deepEqual(fusion.plan(JSON.parse(BIAS_RELU), '{"broadcast": true}'), fromText);
  assert.deepEqual(JSON.parse(fusion.planText(BIAS_RELU)), fusion.plan(BIAS_RELU));
});

test('plan, validate and verify return error values for any junk and never throw', async () => {
  const fusion = await loadFusion();
  const circular = { ops: [] };
  circular.self = circular;
  const junk = [42, true, '[]', 'null', [], 10n, circular, () => 1, '{', 'bad'];
  const junkGraphs = [...junk, undefined, null, '', {}, { ops: 'x' }, '\u0000'];
  const results = [
    ...junkGraphs.flatMap((graph) => [fusion.plan(graph), fusion.validate(graph), fusion.verify(graph, {}, '{}')]),
    ...junk.map((options) => fusion.plan(BIAS_RELU, options)),
    ...junk.map((plan) => fusion.verify(BIAS_RELU, {}, plan)),
  ];
  for (const result of results) {
    assert.equal(result.ok, false, JSON.stringify(result));
    assert.match(result.error.code, /^[a-z]+(_[a-z]+)*$/);
    assert.equal(typeof result.error.message, 'string');
  }
});

test('options that are not {broadcast, resident_sources, strategy} are invalid_options', async () => {
  const fusion = await loadFusion();
  assert.equal(fusion.plan(BIAS_RELU, { broadcast: 'yes' }).error.code, 'invalid_options');
  assert.equal(fusion.plan(BIAS_RELU, { fuse_everything: true }).error.code, 'invalid_options');
});

test('validate counts ops and edges of a good graph', async () => {
  const fusion = await loadFusion();
  assert.deepEqual(fusion.validate(BIAS_RELU), { ok: true, ops: 4, edges: 3 });
});

test('the verifier accepts the plan, finds a tampered one invalid, and rejects unreadable plan text', async () => {
  const fusion = await loadFusion();
  const plan = fusion.plan(BIAS_RELU);
  assert.deepEqual(fusion.verify(BIAS_RELU, {}, plan), { ok: true, valid: true, violations: [] });

  const tampered = structuredClone(plan);
  tampered.bytes_fused -= 1;
  const check = fusion.verify(BIAS_RELU, {}, tampered);
  assert.equal(check.ok, true);
  assert.equal(check.valid, false);
  assert.ok(check.violations.length > 0);

  const unreadable = fusion.verify(BIAS_RELU, {}, '{"ok": tru');
  assert.equal(unreadable.ok, false);
  assert.ok(['json_syntax', 'invalid_plan'].includes(unreadable.error.code), unreadable.error.code);
});

test(
  'a graph that exhausts the 1 GiB heap gives an error value, and the planner works again after',
  { timeout: 120_000 },
  async () => {
    const fusion = await loadFusion();
    // 2,000,000 chained ops, every third a barrier, in 110 MB of text (inside the 256 MiB text cap): the
    // planner needs more than 1 GiB for them (the same chain of 1,000,000 ops takes about 800 MiB). A single
    // 30,000,000-dimension shape no longer exhausts the heap since the streaming JSON reader.
    const ops = ['{"kind":"input","shape":[],"dtype_bytes":1}'];
    for (let i = 1; i < 2_000_000; ++i) {
      ops.push(`{"kind":"${i % 3 ? 'exp' : 'transpose'}","inputs":[${i - 1}],"shape":[],"dtype_bytes":1}`);
    }
    const huge = `{"ops":[${ops.join(',')}]}`;
    const result = fusion.plan(huge);
    assert.equal(result.ok, false);
    assert.ok(['out_of_memory', 'internal_error'].includes(result.error.code), result.error.code);
    assert.equal(result.error.internal, true, "running out of memory is not the caller's mistake");
    // After a trap the module restarts asynchronously: until the fresh instance is there, a call answers that
    // it is restarting (an error value, nothing else); then it plans again. No deadline here but the test's
    // own hang guard: how long a restart takes depends on the machine.
    let again = fusion.plan(BIAS_RELU);
    while (!again.ok && /restarting/.test(again.error.message)) {
      assert.equal(again.error.code, 'internal_error');
      assert.equal(again.error.internal, true);
      await new Promise((resume) => setTimeout(resume, 100));
      again = fusion.plan(BIAS_RELU);
    }
    assert.equal(again.ok, true, JSON.stringify(again.error));
  },
);
