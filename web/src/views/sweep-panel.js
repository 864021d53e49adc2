// sweep-panel.js — the "Across sizes" section of the plan pane: the plan's bytes as formulas in its named
// dimensions, and the chart and table of the planner's sweep of one name (docs/design.md §16).
//
// Contract: createSweepPanel({dispatch}) → {render(state)}. Writes index.html's #sweep-section, shown when the
// plan on screen has `dims`. The formulas are the plan's bytes_*_formula texts (formula.js only draws them);
// the chart (sweep-chart.js places, sweep-chart-view.js draws) and the table show state.sweep, the sweep
// watch-sweep.js asked for — the rows, the change points and, as the cursor, the plan on screen at its value;
// a sweep made for other options or text is drawn greyed until the new one arrives, and a failed one is
// explained in the planner's words. The name picker (more than one name) dispatches {type:'set-sweep-dim'};
// clicking a dot, a change marker or a table row (Enter on a row) dispatches {type:'set-dim'} with that size.
// Each part is redrawn only when what it shows changed: the chart and table for a new sweep, only the
// cursor for a new plan of the same sweep (a slider dragged), the formulas when their texts change. Browser-only;
// shown by tests/browser/page-dims.test.mjs.

import { $, h } from './dom.js';
import { summarize } from '../graph/diagnostics.js';
import { chartDim, sweepOptions } from '../state/dims.js';
import { bytesFormula } from '../present/formula.js';
import { formatBytes, formatSpeedup, formatTime } from '../present/format.js';
import { sweepChart } from '../present/sweep-chart.js';
import { drawCursor, drawSweepChart } from './sweep-chart-view.js';

const FORMATS = { bytes: formatBytes, time: formatTime, speedup: formatSpeedup };
const FORMULAS = [
  ['unfused', 'Bytes unfused', 'bytes_unfused_formula'],
  ['fused', 'Bytes fused', 'bytes_fused_formula'],
  ['saved', 'Saved by fusing', 'bytes_saved_formula'],
];

// The plan on screen as the chart's cursor: its value of the name, and its numbers.
const current = (state, dim) => ({ value: state.plan.dims[dim], plan: state.plan });

// Whether the sweep was made for the text and options on screen (the chosen name's own value aside).
const fresh = (state, dim) =>
  state.sweep?.text === state.text &&
  state.sweep.dim === dim &&
  JSON.stringify(state.sweep.options) === JSON.stringify(sweepOptions(state.options, dim));

function changesText(dim, sweep) {
  const { rows, changes } = sweep.result;
  const range = `${dim} = ${rows[0]?.value} … ${rows.at(-1)?.value}`;
  if (!changes.length) return `The grouping is the same at every size swept (${range}).`;
  const list = changes.map((c) => `${dim} = ${c.at} (${c.kernels_before} → ${c.kernels_after} kernels)`);
  return `The grouping changes at ${list.join(', ')}; swept ${range}.`;
}

export function createSweepPanel({ dispatch }) {
  const pick = (dim, value) => dispatch({ type: 'set-dim', name: dim, value });
  $('sweep-dim').addEventListener('change', (e) => dispatch({ type: 'set-sweep-dim', dim: e.target.value }));

  function renderPicker(names, dim) {
    const select = $('sweep-dim');
    if ([...select.options].map((o) => o.value).join() !== names.join())
      select.replaceChildren(...names.map((n) => h('option', { value: n }, n)));
    select.value = dim;
    $('sweep-pick').hidden = names.length < 2;
    $('sweep-title').textContent = names.length < 2 ? `Across sizes of ${dim}` : 'Across sizes';
  }

  function renderFormulas(plan) {
    $('formulas').replaceChildren(
      ...FORMULAS.filter(([, , key]) => typeof plan[key] === 'string').map(([id, label, key]) =>
        h(
          'div',
          {},
          h('dt', {}, label),
          h('dd', { 'data-testid': `formula-${id}`, 'data-formula': plan[key] }, bytesFormula(plan[key])),
        ),
      ),
    );
  }

  // The chart of a sweep (and its note); the box's width is measured here, once per sweep drawn.
  function renderChart(state, dim, sweep) {
    const box = $('sweep-chart');
    const note = $('sweep-note');
    drawn = null;
    if (!sweep?.result?.ok) {
      box.replaceChildren();
      note.textContent = sweep ? `No chart: ${summarize(sweep.result.error)}` : 'Sweeping…';
      return [];
    }
    const { rows, changes } = sweep.result;
    const width = Math.max(260, Math.round(box.clientWidth || 340));
    const chart = sweepChart({ rows, changes, current: current(state, dim), width });
    const summary = `Bytes moved, estimated time and speedup against ${dim}, from ${rows[0]?.value} to ${rows.at(-1)?.value}`;
    const svg = drawSweepChart(chart, { dim, formats: FORMATS, summary, onPick: (v) => pick(dim, v) });
    box.replaceChildren(svg);
    drawn = { svg, rows, changes, width };
    note.textContent =
      changesText(dim, sweep) + (sweep.overflow ? ` Larger sizes are left out: ${summarize(sweep.overflow)}` : '');
    return rows;
  }

  // A new plan on the same sweep: only the cursor moves.
  function moveCursor(state, dim) {
    if (!drawn) return;
    const chart = sweepChart({
      rows: drawn.rows,
      changes: drawn.changes,
      current: current(state, dim),
      width: drawn.width,
    });
    drawn.svg.querySelector('.cursor')?.remove();
    const cursor = drawCursor(chart);
    if (cursor) drawn.svg.append(cursor);
  }

  function renderTable(rows, dim) {
    $('sweep-col-dim').textContent = dim;
    $('sweep-body').replaceChildren(
      ...rows.map((r) =>
        h(
          'tr',
          {
            tabindex: 0,
            class: r.changed ? 'changed' : '',
            'data-value': r.value,
            title:
              `${dim} = ${r.value}: speedup ${formatSpeedup(r.speedup_estimate)} in bytes, ` +
              `${formatSpeedup(r.time_speedup)} in time` +
              (r.changed ? '; the grouping differs from the row above' : ''),
            onclick: () => pick(dim, r.value),
            onkeydown: (e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                pick(dim, r.value);
              }
            },
          },
          h('td', {}, String(r.value)),
          h('td', { class: 'num' }, formatBytes(r.bytes_unfused)),
          h('td', { class: 'num' }, formatBytes(r.bytes_fused)),
          h('td', { class: 'num' }, formatTime(r.time_fused_us)),
          h('td', { class: 'num' }, String(r.kernels_fused)),
        ),
      ),
    );
  }

  let shown = {};
  let drawn = null; // {svg, rows, changes, width} of the chart on screen
  return {
    render(state) {
      const { plan, text, options } = state;
      const dim = chartDim(state);
      $('sweep-section').hidden = !dim;
      if (!dim) {
        shown = {};
        return;
      }
      const sweep = state.sweep?.dim === dim ? state.sweep : null;
      const names = Object.keys(plan.dims).join();
      if (names !== shown.names || dim !== shown.dim) renderPicker(Object.keys(plan.dims), dim);
      const formulas = FORMULAS.map(([, , key]) => plan[key]).join('|');
      if (formulas !== shown.formulas) renderFormulas(plan);
      if (sweep !== shown.sweep || dim !== shown.dim) renderTable(renderChart(state, dim, sweep), dim);
      else if (plan !== shown.plan) moveCursor(state, dim);
      if (sweep !== shown.sweep || text !== shown.text || options !== shown.options)
        $('sweep-chart').classList.toggle('stale', !!sweep && !fresh(state, dim));
      shown = { plan, sweep, dim, text, options, names, formulas };
    },
  };
}
