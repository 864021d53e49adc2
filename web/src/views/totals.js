// totals.js — the plan's totals in index.html's cards (the page's plan pane and the ?embed entry's): bytes
// unfused/fused (with the planner's formula when it depends on a named dimension), speedup, kernels before →
// after, estimated time and time speedup.
//
// Contract: showTotals(plan | null, stale, hardwareLabel) writes the cards of [data-testid="totals"]; a null
// plan shows dashes, stale greys them. Every number is a field of the planner's result, only formatted
// (format.js, formula.js). Browser-only; shown by tests/browser/page-strategies.test.mjs and
// page-embed.test.mjs.

import { $ } from './dom.js';
import { formatBytes, exactBytes, formatSpeedup, formatTime } from '../present/format.js';
import { bytesFormula, hasNames } from '../present/formula.js';

// A card's formula line: '= 9 216·N + 6 144 B' (hidden when the plan has no formula with names).
function showFormula(id, f) {
  const el = $(id);
  el.hidden = !hasNames(f);
  el.textContent = hasNames(f) ? `= ${bytesFormula(f)}` : '';
  el.title = hasNames(f) ? `${bytesFormula(f)}: the planner's exact formula for this grouping` : '';
}

export function showTotals(plan, stale, hardwareLabel = (name) => name) {
  document.querySelector('[data-testid="totals"]').classList.toggle('stale', stale);
  $('bytes-unfused').textContent = formatBytes(plan?.bytes_unfused);
  $('bytes-unfused-exact').textContent = plan ? exactBytes(plan.bytes_unfused) : '';
  $('bytes-fused').textContent = formatBytes(plan?.bytes_fused);
  $('bytes-fused-exact').textContent = plan ? exactBytes(plan.bytes_fused) : '';
  showFormula('bytes-unfused-formula', plan?.bytes_unfused_formula);
  showFormula('bytes-fused-formula', plan?.bytes_fused_formula);
  $('speedup').textContent = formatSpeedup(plan?.speedup_estimate);
  $('kernels').textContent = plan ? `${plan.kernels_unfused} → ${plan.kernels_fused}` : '–';
  for (const id of ['bytes-unfused', 'bytes-fused']) $(id).title = plan ? exactBytes(plan[id.replace('-', '_')]) : '';
  const timed = typeof plan?.time_fused_us === 'number';
  $('time-fused').textContent = timed ? formatTime(plan.time_fused_us) : '–';
  $('time-unfused').textContent = timed ? `from ${formatTime(plan.time_unfused_us)} unfused` : '';
  $('time-speedup').textContent = timed ? formatSpeedup(plan.time_speedup) : '–';
  $('time-hardware').textContent = timed ? `on ${hardwareLabel(plan.options?.hardware)}` : '';
  $('time-fused').title = timed ? `${plan.time_fused_us} µs, the planner's estimate for the fused plan` : '';
  $('time-unfused').title = timed ? `${plan.time_unfused_us} µs with one kernel per op` : '';
  $('time-speedup').title = timed ? 'time unfused ÷ time fused' : '';
}
