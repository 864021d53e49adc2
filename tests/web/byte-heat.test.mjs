// byte-heat.test.mjs — the bytes-moved colouring bins the planner's per-op numbers; it computes none.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { byteHeat, HEAT_COLORS } from '../../web/src/present/byte-heat.js';

test('the smallest op takes the lightest colour and the largest the darkest; order is kept', () => {
  const { bins, binOf } = byteHeat([16, 1 << 10, 1 << 20, 1 << 30, 16]);
  assert.equal(bins[binOf[0]].color, HEAT_COLORS[0]);
  assert.equal(bins[binOf[3]].color, HEAT_COLORS.at(-1));
  assert.equal(binOf[0], binOf[4], 'equal values share a bin');
  assert.ok(binOf[1] < binOf[2] && binOf[2] < binOf[3]);
});

test('a few distinct sizes each get their own colour, spread from light to dark (a rank scale)', () => {
  const { bins, binOf } = byteHeat([128, 12e6, 36e6, 12e6]);
  assert.deepEqual(
    bins.map((b) => b.color),
    [HEAT_COLORS[0], HEAT_COLORS[2], HEAT_COLORS[4]],
  );
  assert.deepEqual(binOf, [0, 1, 2, 1]);
});

test('more distinct sizes than colours: runs of about equal length, at most one bin per colour', () => {
  const values = Array.from({ length: 12 }, (_, i) => 2 ** i);
  const { bins, binOf } = byteHeat(values);
  assert.equal(bins.length, HEAT_COLORS.length);
  assert.deepEqual(
    bins.map((b) => b.count),
    [3, 2, 3, 2, 2],
  );
  assert.deepEqual(
    binOf,
    [...binOf].sort((a, b) => a - b),
    'monotone in bytes',
  );
});

test('legend bins report the planner values they hold (min, max, count), lightest first', () => {
  const values = [100, 120, 130, 140, 150, 160, 1e9];
  const { bins } = byteHeat(values);
  assert.deepEqual(
    bins.map((b) => [b.min, b.max, b.count]),
    [
      [100, 120, 2],
      [130, 130, 1],
      [140, 150, 2],
      [160, 160, 1],
      [1e9, 1e9, 1],
    ],
  );
  assert.deepEqual(
    bins.map((b) => b.index),
    [0, 1, 2, 3, 4],
  );
});

test('ops with 0 bytes (resident sources) get their own grey bin, listed first', () => {
  const { bins, binOf } = byteHeat([0, 64, 0]);
  assert.deepEqual(binOf, [0, 1, 0]);
  assert.deepEqual([bins[0].min, bins[0].max, bins[0].count], [0, 0, 2]);
  assert.ok(!HEAT_COLORS.includes(bins[0].color));
});

test('equal values share the darkest bin; a missing array or entry colours nothing', () => {
  assert.deepEqual(byteHeat([8, 8]).binOf, [0, 0]);
  assert.equal(byteHeat([8, 8]).bins[0].color, HEAT_COLORS.at(-1));
  assert.deepEqual(byteHeat(undefined), { bins: [], binOf: [] });
  assert.deepEqual(byteHeat([8, null]).binOf, [0, -1]);
});

test('dark colours carry white ink so labels stay readable', () => {
  const { bins } = byteHeat([1, 1e12]);
  assert.equal(bins[0].ink, '#1f2328');
  assert.equal(bins[1].ink, '#ffffff');
});
