// load.test.mjs — invariants under load: one WASM instance plans 10,000 random graphs without leaking.
//
// The instance's memory grows on demand and never shrinks, so a leak of anything per call (the graph text,
// a plan, an error) shows as growth: after the first 1,000 graphs have set the high-water mark, the next
// 9,000 (about 40x the 16 MiB starting heap in total input text) must not grow it. Every plan is checked by
// the verifier, and every 10th graph is also sent broken (a JSON syntax error, an unknown input) so the error
// paths are exercised too. Its own file so no earlier test has already grown the heap.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadFusion } from '../../wasm/fusion.mjs';
import { randomGraph } from './random-graph.mjs';

const fusion = await loadFusion();

function planOne(seed) {
  const text = JSON.stringify(randomGraph(seed));
  const options = { broadcast: seed % 2 === 0, resident_sources: seed % 3 === 0 };
  const plan = fusion.plan(text, options);
  assert.equal(plan.ok, true, `graph ${seed}: ${JSON.stringify(plan.error)}`);
  const check = fusion.verify(text, options, plan);
  assert.deepEqual(check, { ok: true, valid: true, violations: [] }, `graph ${seed}`);
  if (seed % 10 === 0) {
    assert.equal(fusion.plan(text.slice(0, -2)).error.code, 'json_syntax');
    const unknown = { ops: [...JSON.parse(text).ops, { kind: 'relu', inputs: ['nowhere'], shape: [1], dtype: 'f32' }] };
    assert.equal(fusion.plan(unknown).error.code, 'unknown_input');
  }
}

test(
  '10,000 random graphs in one instance: every plan verifies and the heap stops growing after 1,000',
  { timeout: 300_000 },
  () => {
    const start = fusion.heapBytes();
    assert.ok(start >= 16 << 20, `the heap size is readable (${start})`);
    for (let seed = 1; seed <= 1_000; ++seed) planOne(seed);
    const warm = fusion.heapBytes();
    for (let seed = 1_001; seed <= 10_000; ++seed) planOne(seed);
    assert.equal(fusion.heapBytes(), warm, `the heap grew from ${warm} to ${fusion.heapBytes()} bytes`);
  },
);

test('the heap stops growing for a repeated 20,000-op graph too', { timeout: 300_000 }, () => {
  const ops = [{ kind: 'input', shape: [64], dtype: 'f32' }];
  for (let i = 1; i < 20_000; ++i)
    ops.push({ kind: i % 5 ? 'exp' : 'reduce_sum', inputs: [i - 1], shape: [64], dtype: 'f32' });
  const text = JSON.stringify({ ops });
  for (let i = 0; i < 3; ++i) assert.equal(fusion.plan(text).ok, true);
  const warm = fusion.heapBytes();
  // Groups: the source, 3,999 reduce_sums, 4,000 runs of four exps.
  for (let i = 0; i < 12; ++i) assert.equal(fusion.plan(text).groups.length, 1 + 3_999 + 4_000);
  assert.equal(fusion.heapBytes(), warm, `the heap grew from ${warm} to ${fusion.heapBytes()} bytes`);
});
