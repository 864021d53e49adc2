// search-report.test.mjs — the words and rows of a plan search on the page (present/search-report.js): the
// certificate formats the core's gap and the worker's time without re-deriving them, the numbers are the plans',
// and the differences come from the core's search.differences when present (the format the planner's
// differences follow: {producer, consumer, greedy, optimal, why}), else from the two plans' edges.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  budgetLabel,
  certificateText,
  differenceRows,
  formatElapsed,
  formatGap,
  searchNumbers,
} from '../../web/src/present/search-report.js';

const edge = (producer, consumer, fused, reason) => ({ producer, consumer, fused, ...(fused ? {} : { reason }) });
const GREEDY = {
  bytes_fused: 28688,
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
  ...over,
});
const OPTIMAL = {
  bytes_fused: 20500,
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

test('greedy vs optimal numbers are the two plans’ own, formatted', () => {
  const rows = searchNumbers(GREEDY, OPTIMAL);
  assert.deepEqual(
    rows.map((r) => [r.key, r.greedy, r.optimal, r.greedyText, r.optimalText]),
    [
      ['bytes_fused', 28688, 20500, '28.0 KiB', '20.0 KiB'],
      ['kernels_fused', 3, 3, '3', '3'],
    ],
  );
  // Without the greedy plan, its bytes are the core's greedy_bytes_fused; its kernels are unknown.
  const alone = searchNumbers(null, OPTIMAL);
  assert.equal(alone[0].greedy, 28688);
  assert.equal(alone[1].greedyText, '–');
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
