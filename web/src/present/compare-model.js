// compare-model.js — what the compare view shows beside each other: the pair, the numbers, one shared layout.
//
// Contract (pure, no DOM; nothing here plans — both plans come from the planner):
//   defaultPair(strategy) → [left, right]: seed against the chosen strategy, or xla against tvm when the
//     chosen one is seed.
//   compareNumbers(left, right) → rows [{key, label, short, hint, unit, unfused, left, right, better, formulas?}]
//     for bytes, time, kernels and both speedups: values copied from the two plans (unfused: the value before
//     fusion, the same in both plans, null for ratios; formulas: for bytes, each plan's bytes_fused_formula, its
//     bytes as a formula in the graph's named dimensions, docs/design.md §16, or null); better: 'left' | 'right' | null — lower wins except for speedups, and
//     null when either is missing or both read the same once formatted (format.js), so the page never calls
//     one side better on a difference it does not show.
//   layoutModel(vm) → the view model without clusters (every op at the top level), so one ELK layout places
//     the ops of both plans at the same positions.
// Shown by tests/web/compare-model.test.mjs.

import { DEFAULT_CHOICES } from '../state/options.js';
import { formatBytes, formatSpeedup, formatTime } from './format.js';

// How each unit is written on screen (the rows are compared as shown).
export const FORMAT = { bytes: formatBytes, time: formatTime, count: String, ratio: formatSpeedup };

export function defaultPair(strategy = DEFAULT_CHOICES.strategy) {
  return strategy && strategy !== 'seed' ? ['seed', strategy] : ['xla', 'tvm'];
}

const METRICS = [
  {
    key: 'bytes_fused',
    unfusedKey: 'bytes_unfused',
    formulaKey: 'bytes_fused_formula',
    label: 'Bytes moved',
    unit: 'bytes',
    lowerWins: true,
    hint: 'bytes moved by the fused plan (from: unfused)',
  },
  {
    key: 'time_fused_us',
    unfusedKey: 'time_unfused_us',
    label: 'Est. time',
    unit: 'time',
    lowerWins: true,
    hint: 'estimated time of the fused plan (from: unfused)',
  },
  {
    key: 'kernels_fused',
    unfusedKey: 'kernels_unfused',
    label: 'Kernels',
    unit: 'count',
    lowerWins: true,
    hint: 'kernels launched (from: one per op)',
  },
  { key: 'time_speedup', label: 'Speedup', unit: 'ratio', lowerWins: false, hint: 'estimated time unfused ÷ fused' },
  {
    key: 'speedup_estimate',
    label: 'Bytes saved',
    short: 'bytes',
    unit: 'ratio',
    lowerWins: false,
    hint: 'bytes unfused ÷ bytes fused',
  },
];

const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function better(a, b, lowerWins, unit) {
  if (a === null || b === null || FORMAT[unit](a) === FORMAT[unit](b)) return null;
  return a < b === lowerWins ? 'left' : 'right';
}

export function compareNumbers(left, right) {
  return METRICS.map(({ key, unfusedKey, formulaKey, label, short = label, hint, unit, lowerWins }) => {
    const a = num(left?.[key]);
    const b = num(right?.[key]);
    return {
      key,
      label,
      short,
      hint,
      unit,
      unfused: unfusedKey ? num(left?.[unfusedKey] ?? right?.[unfusedKey]) : null,
      left: a,
      right: b,
      better: better(a, b, lowerWins, unit),
      ...(formulaKey ? { formulas: { left: left?.[formulaKey] ?? null, right: right?.[formulaKey] ?? null } } : {}),
    };
  });
}

export function layoutModel(vm) {
  return { ...vm, groups: [], nodes: vm.nodes.map((n) => ({ ...n, parent: null })) };
}
