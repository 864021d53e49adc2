// compare-model.test.mjs — the compare view's pair, its number rows (copied from the plans) and shared layout.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultPair, compareNumbers, layoutModel } from '../../web/src/present/compare-model.js';

const plan = (o) => ({
  bytes_unfused: 100,
  bytes_fused: 60,
  time_unfused_us: 20,
  time_fused_us: 12,
  kernels_unfused: 5,
  kernels_fused: 3,
  speedup_estimate: 100 / 60,
  time_speedup: 20 / 12,
  ...o,
});

test('the default pair is seed against the chosen strategy, or xla against tvm from seed', () => {
  assert.deepEqual(defaultPair('tvm'), ['seed', 'tvm']);
  assert.deepEqual(defaultPair('seed'), ['xla', 'tvm']);
  assert.deepEqual(defaultPair(undefined), ['xla', 'tvm']);
});

test('number rows copy both plans’ values and the unfused value, and mark the better side', () => {
  const rows = compareNumbers(
    plan({}),
    plan({ bytes_fused: 40, kernels_fused: 3, speedup_estimate: 2.5, time_fused_us: 14, time_speedup: 20 / 14 }),
  );
  const byKey = Object.fromEntries(rows.map((r) => [r.key, r]));
  assert.deepEqual(
    rows.map((r) => r.key),
    ['bytes_fused', 'time_fused_us', 'kernels_fused', 'time_speedup', 'speedup_estimate'],
  );
  assert.deepEqual([byKey.bytes_fused.left, byKey.bytes_fused.right, byKey.bytes_fused.unfused], [60, 40, 100]);
  assert.equal(byKey.bytes_fused.better, 'right', 'fewer bytes is better');
  assert.equal(byKey.time_fused_us.better, 'left', 'less time is better');
  assert.equal(byKey.kernels_fused.better, null, 'equal counts: neither');
  assert.equal(byKey.speedup_estimate.better, 'right', 'a larger speedup is better');
  assert.equal(byKey.speedup_estimate.unfused, null);
});

test('the bytes row carries each plan’s bytes formula (named dimensions), null where a plan has none', () => {
  const rows = compareNumbers(plan({ bytes_fused_formula: '6144*N + 3072' }), plan({ bytes_fused_formula: '9216*N' }));
  assert.deepEqual(rows.find((r) => r.key === 'bytes_fused').formulas, { left: '6144*N + 3072', right: '9216*N' });
  assert.deepEqual(compareNumbers(plan({}), plan({}))[0].formulas, { left: null, right: null });
  assert.equal(rows.filter((r) => r.formulas).length, 1, 'only bytes have formulas');
});

test('a difference the page would not show (same once formatted) calls neither side better', () => {
  const rows = compareNumbers(plan({ time_fused_us: 11.6012 }), plan({ time_fused_us: 11.6049, bytes_fused: 61 }));
  assert.equal(rows.find((r) => r.key === 'time_fused_us').better, null, '11.6 µs both');
  assert.equal(rows.find((r) => r.key === 'bytes_fused').better, 'left', '60 B against 61 B');
});

test('a number a plan lacks is null and decides nothing', () => {
  const rows = compareNumbers(plan({ time_fused_us: undefined }), plan({}));
  const time = rows.find((r) => r.key === 'time_fused_us');
  assert.deepEqual([time.left, time.right, time.better], [null, 12, null]);
});

test('the layout model has no clusters, so one layout fits both plans', () => {
  const vm = {
    nodes: [
      { id: 'op0', parent: 'g1' },
      { id: 'op1', parent: null },
    ],
    groups: [{ id: 'g1', multi: true }],
    edges: [{ id: 'e0-1' }],
  };
  const flat = layoutModel(vm);
  assert.deepEqual(flat.groups, []);
  assert.deepEqual(
    flat.nodes.map((n) => n.parent),
    [null, null],
  );
  assert.equal(flat.edges, vm.edges);
  assert.equal(vm.nodes[0].parent, 'g1', 'the view model itself is unchanged');
});
