// search-report.js — the words and rows of a plan search (docs/design.md §17) for the page: the certificate, the
// greedy-vs-optimal numbers and the edges the two plans decide differently.
//
// Contract (pure, no DOM; every number is the planner's, or the worker's clock around the search, only
// formatted — nothing is re-derived). A search minimises its `objective` (search.objective): 'bytes' (seed:
// bytes_fused, proven bound `lower_bound`) or 'time' (tvm, inductor, xla: the time model's time_fused_us, proven bound
// `lower_bound_us`); a search object without one is a bytes search (planners before the time objective).
//   objectiveOf(search) → 'bytes' | 'time'.
//   formatElapsed(ms) → '38 ms' (under a second, whole milliseconds) or '2.0 s' (one decimal).
//   formatGap(gap) → the core's gap (a fraction, (value − bound) / value) as a percentage: '0.8 %', '12 %',
//     '< 0.1 %' for a positive gap that small.
//   certificateText(search, ms) → what was proven, ms the time the worker measured (null: the time is left
//     out); '' when search is missing. Bytes: 'optimal, proven in 38 ms' for status 'optimal', else 'within
//     0.8 % of optimal after 2.0 s (bounded)'. Time: 'fastest plan, proven in 38 ms', else 'within 0.8 % of
//     the fastest after 2.0 s (bounded)'.
//   boundText(search) → the proven bound in words: 'no plan moves fewer than 20.0 KiB' (bytes) or 'no plan is
//     faster than 12.3 µs' (time); '' when the plan lacks its objective's bound (never another objective's).
//   searchNumbers(greedy, optimal) → rows [{key, label, greedy, optimal, unit, objective, greedyText,
//     optimalText}] for estimated time, bytes moved and kernels, the objective's row first (objective true on
//     it), copied from the two plans (null where a plan lacks the number, shown '–'). Without a greedy plan its
//     bytes and time are the core's search.greedy_bytes_fused and search.greedy_time_fused_us.
//   differenceRows(optimal, greedy?) → {rows, total, explained}: rows [{producer, consumer, greedy, optimal,
//     why}] ('fused' | 'cut'; why a string or null). They are the core's search.differences when the plan has
//     them (explained true; total: search.differences_total, else the rows' count); otherwise the edges fused
//     in one plan and not the other (edge-diff.js, why null, explained false, and `reason`: the edge reason
//     code of the plan that cut it, docs/design.md §7), which needs the greedy plan.
//   budgetLabel(n) → '200,000 nodes'.
// Shown by tests/web/search-report.test.mjs.

import { diffEdges } from './edge-diff.js';
import { formatBytes, formatTime } from './format.js';

export function formatElapsed(ms) {
  if (!Number.isFinite(ms) || ms < 0) return '';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function formatGap(gap) {
  const pct = Number(gap) * 100;
  if (!Number.isFinite(pct) || pct <= 0) return '0 %';
  if (pct < 0.1) return '< 0.1 %';
  return pct < 10 ? `${pct.toFixed(1)} %` : `${Math.round(pct)} %`;
}

export const objectiveOf = (search) => (search?.objective === 'time' ? 'time' : 'bytes');

// What each objective's certificate calls the best plan: [proven, bounded].
const PROVEN = { bytes: ['optimal', 'of optimal'], time: ['fastest plan', 'of the fastest'] };

export function certificateText(search, ms = null) {
  if (!search) return '';
  const time = ms === null || ms === undefined ? '' : formatElapsed(ms);
  const [best, within] = PROVEN[objectiveOf(search)];
  if (search.status === 'optimal') return time ? `${best}, proven in ${time}` : `${best}, proven`;
  return `within ${formatGap(search.gap)} ${within}${time ? ` after ${time}` : ''} (bounded)`;
}

const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function boundText(search) {
  if (objectiveOf(search) === 'time') {
    const us = num(search?.lower_bound_us);
    return us === null ? '' : `no plan is faster than ${formatTime(us)}`;
  }
  const bytes = num(search?.lower_bound);
  return bytes === null ? '' : `no plan moves fewer than ${formatBytes(bytes)}`;
}

export function searchNumbers(greedy, optimal) {
  const search = optimal?.search;
  const rows = {
    time: {
      key: 'time_fused_us',
      label: 'Estimated time',
      unit: 'time',
      greedy: num(greedy?.time_fused_us ?? search?.greedy_time_fused_us),
      optimal: num(optimal?.time_fused_us),
      text: formatTime,
    },
    bytes: {
      key: 'bytes_fused',
      label: 'Bytes moved',
      unit: 'bytes',
      greedy: num(greedy?.bytes_fused ?? search?.greedy_bytes_fused),
      optimal: num(optimal?.bytes_fused),
      text: formatBytes,
    },
  };
  const first = objectiveOf(search);
  const other = first === 'time' ? 'bytes' : 'time';
  const kernels = {
    key: 'kernels_fused',
    label: 'Kernels',
    unit: 'count',
    greedy: num(greedy?.kernels_fused),
    optimal: num(optimal?.kernels_fused),
    text: String,
  };
  return [
    { ...rows[first], objective: true },
    { ...rows[other], objective: false },
    { ...kernels, objective: false },
  ].map(({ text, ...row }) => ({
    ...row,
    greedyText: row.greedy === null ? '–' : text(row.greedy),
    optimalText: row.optimal === null ? '–' : text(row.optimal),
  }));
}

const choice = (v) => (v === 'fused' || v === 'cut' ? v : null);

// The core's differences, each checked for shape (an entry it cannot read is left out).
function coreRows(list) {
  return list
    .filter((d) => Number.isInteger(d?.producer) && Number.isInteger(d?.consumer))
    .map((d) => ({
      producer: d.producer,
      consumer: d.consumer,
      greedy: choice(d.greedy),
      optimal: choice(d.optimal),
      why: typeof d.why === 'string' && d.why ? d.why : null,
    }));
}

export function differenceRows(optimal, greedy = null) {
  const list = optimal?.search?.differences;
  if (Array.isArray(list)) {
    const rows = coreRows(list);
    const total = Number.isInteger(optimal.search.differences_total) ? optimal.search.differences_total : rows.length;
    return { rows, total, explained: true };
  }
  if (!greedy || !optimal) return { rows: [], total: 0, explained: false };
  const rows = diffEdges(greedy, optimal)
    .filter((d) => d.kind === 'decision' && d.left && d.right)
    .map((d) => ({
      producer: d.producer,
      consumer: d.consumer,
      greedy: d.left.fused ? 'fused' : 'cut',
      optimal: d.right.fused ? 'fused' : 'cut',
      why: null,
      reason: d.left.fused ? d.right.reason : d.left.reason,
    }));
  return { rows, total: rows.length, explained: false };
}

export const budgetLabel = (n) => `${Number(n).toLocaleString('en-US')} nodes`;
