// search-report.js — the words and rows of a plan search (docs/design.md §17) for the page: the certificate, the
// greedy-vs-optimal numbers and the edges the two plans decide differently.
//
// Contract (pure, no DOM; every number is the planner's, or the worker's clock around the search, only
// formatted — nothing is re-derived):
//   formatElapsed(ms) → '38 ms' (under a second, whole milliseconds) or '2.0 s' (one decimal).
//   formatGap(gap) → the core's gap (a fraction, (bytes − lower_bound) / bytes) as a percentage: '0.8 %',
//     '12 %', '< 0.1 %' for a positive gap that small.
//   certificateText(search, ms) → 'optimal, proven in 38 ms' for status 'optimal', else 'within 0.8 % of optimal
//     after 2.0 s (bounded)'; search is the plan's `search` object, ms the time the worker measured (null: the
//     time is left out). '' when search is missing.
//   searchNumbers(greedy, optimal) → rows [{key, label, greedy, optimal, unit}] for bytes moved and kernels,
//     copied from the two plans (null where a plan lacks the number) — the greedy plan's bytes are the core's
//     search.greedy_bytes_fused when no greedy plan is given.
//   differenceRows(optimal, greedy?) → {rows, total, explained}: rows [{producer, consumer, greedy, optimal,
//     why}] ('fused' | 'cut'; why a string or null). They are the core's search.differences when the plan has
//     them (explained true; total: search.differences_total, else the rows' count); otherwise the edges fused
//     in one plan and not the other (edge-diff.js, why null, explained false, and `reason`: the edge reason
//     code of the plan that cut it, docs/design.md §7), which needs the greedy plan.
//   budgetLabel(n) → '200,000 nodes'.
// Shown by tests/web/search-report.test.mjs.

import { diffEdges } from './edge-diff.js';
import { formatBytes } from './format.js';

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

export function certificateText(search, ms = null) {
  if (!search) return '';
  const time = ms === null || ms === undefined ? '' : formatElapsed(ms);
  if (search.status === 'optimal') return time ? `optimal, proven in ${time}` : 'optimal, proven';
  return `within ${formatGap(search.gap)} of optimal${time ? ` after ${time}` : ''} (bounded)`;
}

const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function searchNumbers(greedy, optimal) {
  return [
    {
      key: 'bytes_fused',
      label: 'Bytes moved',
      unit: 'bytes',
      greedy: num(greedy?.bytes_fused ?? optimal?.search?.greedy_bytes_fused),
      optimal: num(optimal?.bytes_fused),
      text: formatBytes,
    },
    {
      key: 'kernels_fused',
      label: 'Kernels',
      unit: 'count',
      greedy: num(greedy?.kernels_fused),
      optimal: num(optimal?.kernels_fused),
      text: String,
    },
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
