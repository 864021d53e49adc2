// search-report.test.mjs — the words and rows of a plan search on the page (present/search-report.js): the
// certificate formats the core's gap and the worker's time without re-deriving them and says what its objective
// proved (fewest bytes under seed, fastest estimated time under tvm), the numbers are the plans' with the
// objective's first, and the differences come from the core's search.differences when present (the format the planner's
// differences follow: {producer, consumer, greedy, optimal, why}), else from the two plans' edges.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  boundText,
  budgetLabel,
  certificateText,
  differenceRows,
  formatElapsed,
  formatGap,
  objectiveOf,
  searchNumbers,
} from '../../web/src/present/search-report.js';

const edge = (producer, consumer, fused, reason) => ({ producer, consumer, fused, ...(fused ? {} : { reason }) });
const GREEDY = {
  bytes_fused: 28688,
  time_fused_us: 12.75,
  kernels_fused: 3,
  edges: [
    edge(0, 2, false, 'source'),
    edge(2, 4, true),
    edge(2, 3, false, 'barrier_consumer'),
    edge(4, 5, false, 'cycle'),
  ],
};
const search = (over = {}) => ({
  mode: 'optimal',
  status: 'optimal',
  lower_bound: 20500,
  gap: 0,
  nodes: 7,
  greedy_bytes_fused: 28688,
  objective: 'bytes',
  greedy_time_fused_us: 12.75,
  ...over,
});
const OPTIMAL = {
  bytes_fused: 20500,
  time_fused_us: 11.5,
  kernels_fused: 3,
  search: search(),
  edges: [
    edge(0, 2, false, 'source'),
    edge(2, 4, false, 'cycle'),
    edge(2, 3, false, 'barrier_consumer'),
    edge(4, 5, true),
  ],
};

test('elapsed times read in milliseconds under a second, else in seconds with one decimal', () => {
  assert.equal(formatElapsed(38.4), '38 ms');
  assert.equal(formatElapsed(999.4), '999 ms');
  assert.equal(formatElapsed(2000), '2.0 s');
  assert.equal(formatElapsed(12345), '12.3 s');
  assert.equal(formatElapsed(NaN), '');
});

test('the gap is the core’s fraction written as a percentage', () => {
  assert.equal(formatGap(0.008), '0.8 %');
  assert.equal(formatGap(0.16304347826086957), '16 %');
  assert.equal(formatGap(0.0004), '< 0.1 %');
  assert.equal(formatGap(0), '0 %');
});

test('the certificate says optimal and proven, or bounded within the gap after the time', () => {
  assert.equal(certificateText(search(), 38), 'optimal, proven in 38 ms');
  assert.equal(
    certificateText(search({ status: 'bounded', gap: 0.008 }), 2000),
    'within 0.8 % of optimal after 2.0 s (bounded)',
  );
  assert.equal(certificateText(search({ status: 'bounded', gap: 0.25 }), null), 'within 25 % of optimal (bounded)');
  assert.equal(certificateText(search(), null), 'optimal, proven');
  assert.equal(certificateText(null, 5), '');
});

test('greedy vs optimal numbers are the two plans’ own, formatted, the searched objective first', () => {
  const rows = searchNumbers(GREEDY, OPTIMAL);
  assert.deepEqual(
    rows.map((r) => [r.key, r.objective, r.greedy, r.optimal, r.greedyText, r.optimalText]),
    [
      ['bytes_fused', true, 28688, 20500, '28.0 KiB', '20.0 KiB'],
      ['time_fused_us', false, 12.75, 11.5, '12.8 µs', '11.5 µs'],
      ['kernels_fused', false, 3, 3, '3', '3'],
    ],
  );
  // Without the greedy plan, its bytes and time are the core's greedy_bytes_fused and greedy_time_fused_us; its
  // kernels are unknown.
  const alone = searchNumbers(null, { ...OPTIMAL, search: search({ greedy_time_fused_us: 1234.5 }) });
  assert.deepEqual(
    alone.map((r) => [r.key, r.greedy, r.greedyText]),
    [
      ['bytes_fused', 28688, '28.0 KiB'],
      ['time_fused_us', 1234.5, '1.23 ms'],
      ['kernels_fused', null, '–'],
    ],
  );
  // A planner before the time objective gave neither objective nor greedy time: a bytes search, time unknown.
  const { objective, greedy_time_fused_us, ...older } = search();
  assert.deepEqual([objective, greedy_time_fused_us], ['bytes', 12.75]);
  const old = searchNumbers(null, { ...OPTIMAL, search: older });
  assert.deepEqual(
    old.map((r) => [r.key, r.objective, r.greedyText]),
    [
      ['bytes_fused', true, '28.0 KiB'],
      ['time_fused_us', false, '–'],
      ['kernels_fused', false, '–'],
    ],
  );
});

// A tvm search (objective time): the certificate is the time model's, with lower_bound_us and no bytes bound.
const timeSearch = (over = {}) => ({
  mode: 'optimal',
  objective: 'time',
  status: 'optimal',
  lower_bound_us: 41.25,
  gap: 0,
  nodes: 19,
  greedy_bytes_fused: 28688,
  greedy_time_fused_us: 47.5,
  ...over,
});
const FASTEST = { bytes_fused: 30720, time_fused_us: 41.25, kernels_fused: 2, search: timeSearch(), edges: [] };

test('a time search is certified as the fastest plan, or within the gap of the fastest', () => {
  assert.equal(objectiveOf(timeSearch()), 'time');
  assert.equal(objectiveOf(search()), 'bytes');
  assert.equal(objectiveOf({ mode: 'optimal' }), 'bytes');
  assert.equal(certificateText(timeSearch(), 38), 'fastest plan, proven in 38 ms');
  assert.equal(certificateText(timeSearch(), null), 'fastest plan, proven');
  assert.equal(
    certificateText(timeSearch({ status: 'bounded', gap: 0.008, lower_bound_us: 40.9 }), 2000),
    'within 0.8 % of the fastest after 2.0 s (bounded)',
  );
  assert.equal(
    certificateText(timeSearch({ status: 'bounded', gap: 0.0004 }), null),
    'within < 0.1 % of the fastest (bounded)',
  );
});

test('the proven bound is the objective’s own, never a bytes bound a time search does not have', () => {
  assert.equal(boundText(search()), 'no plan moves fewer than 20.0 KiB');
  assert.equal(boundText(timeSearch()), 'no plan is faster than 41.3 µs');
  assert.equal(boundText(timeSearch({ lower_bound_us: 2_500_000 })), 'no plan is faster than 2.50 s');
  // A time search carrying a stray lower_bound still gives its own bound, or nothing.
  assert.equal(boundText(timeSearch({ lower_bound_us: undefined, lower_bound: 20500 })), '');
  assert.equal(boundText(search({ lower_bound: undefined, lower_bound_us: 3 })), '');
  assert.equal(boundText(null), '');
});

test('a time search puts estimated time first; bytes may grow when time shrinks, shown as the plans say', () => {
  const greedy = { bytes_fused: 28688, time_fused_us: 47.5, kernels_fused: 3 };
  assert.deepEqual(
    searchNumbers(greedy, FASTEST).map((r) => [r.key, r.label, r.objective, r.greedyText, r.optimalText]),
    [
      ['time_fused_us', 'Estimated time', true, '47.5 µs', '41.3 µs'],
      ['bytes_fused', 'Bytes moved', false, '28.0 KiB', '30.0 KiB'],
      ['kernels_fused', 'Kernels', false, '3', '2'],
    ],
  );
  const alone = searchNumbers(null, FASTEST);
  assert.deepEqual(
    alone.map((r) => [r.key, r.greedy, r.optimal]),
    [
      ['time_fused_us', 47.5, 41.25],
      ['bytes_fused', 28688, 30720],
      ['kernels_fused', null, 2],
    ],
  );
});

test('the core’s differences are listed as given, with why and the total', () => {
  const differences = [
    {
      producer: 2,
      consumer: 4,
      greedy: 'fused',
      optimal: 'cut',
      why: 'merging scale into scaled early made scaled → out a cycle',
    },
    { producer: 4, consumer: 5, greedy: 'cut', optimal: 'fused', why: 'cycle once scale had joined scaled' },
    { producer: 'x', consumer: 5, greedy: 'cut', optimal: 'fused', why: 'unreadable: left out' },
  ];
  const plan = { ...OPTIMAL, search: search({ differences, differences_total: 12 }) };
  const report = differenceRows(plan, GREEDY);
  assert.equal(report.explained, true);
  assert.equal(report.total, 12);
  assert.deepEqual(report.rows, [
    { producer: 2, consumer: 4, greedy: 'fused', optimal: 'cut', why: differences[0].why },
    { producer: 4, consumer: 5, greedy: 'cut', optimal: 'fused', why: differences[1].why },
  ]);
  // Without a total the rows are all there is; an empty why is no why.
  const bare = { ...OPTIMAL, search: search({ differences: [{ ...differences[0], why: '' }] }) };
  assert.deepEqual(differenceRows(bare).total, 1);
  assert.equal(differenceRows(bare).rows[0].why, null);
});

test('without the core’s differences the plans’ edges are compared, with the cutting plan’s reason', () => {
  const report = differenceRows(OPTIMAL, GREEDY);
  assert.equal(report.explained, false);
  assert.deepEqual(report.rows, [
    { producer: 2, consumer: 4, greedy: 'fused', optimal: 'cut', why: null, reason: 'cycle' },
    { producer: 4, consumer: 5, greedy: 'cut', optimal: 'fused', why: null, reason: 'cycle' },
  ]);
  assert.equal(report.total, 2);
  assert.deepEqual(differenceRows(OPTIMAL), { rows: [], total: 0, explained: false });
});

test('budgets read as node counts', () => {
  assert.equal(budgetLabel(200000), '200,000 nodes');
  assert.equal(budgetLabel(20000000), '20,000,000 nodes');
});
