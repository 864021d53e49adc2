// sizes-panel.js — the Sizes panel under the plan's totals: one slider (log scale) and one exact number field
// per named dimension of the plan (docs/design.md §16), whether the grouping depends on the sizes, the
// planner's warnings, and what went wrong when a size does not plan.
//
// Contract: createSizesPanel({dispatch}) → {render(state)}. Writes index.html's #sizes-panel; shown when the
// plan on screen has `dims` or `warnings`. Names and values come from the last good plan (its `dims`, the
// values used) and the person's own values (state.options.dims); a name the planner reports as unbound
// (unbound_dim, located with dims.js dimAtPath in the text) gets an empty field to give it one. Moving a
// slider (mouse or keys: arrows step to the next value of the log scale, Page Up/Down an octave, Home/End
// the ends; size-scale.js) or changing a field dispatches {type:'set-dim', name, value}; ↺ (shown when the
// graph has a default) dispatches value null. A field left empty returns to the graph's default; any other
// number is sent as typed and the planner judges it: its error (invalid_options at /dims/N, byte_overflow,
// unbound_dim) is shown under the sliders, the field is marked, and the numbers stay those of the last good
// plan. Rows are built once per set of names and then only updated, so a slider being dragged is never
// replaced. Browser-only; shown by tests/browser/page-dims.test.mjs.

import { $, h } from './dom.js';
import { parseGraphText } from '../graph/graph-text.js';
import { summarize } from '../graph/diagnostics.js';
import { dimAtPath } from '../state/dims.js';
import { isStale } from '../state/events.js';
import { dimsText } from '../present/formula.js';
import { positionOf, positions, scaleMax, stepValue, valueAt, STEPS_PER_OCTAVE } from '../present/size-scale.js';

const STEP_KEYS = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: STEPS_PER_OCTAVE };
STEP_KEYS.PageDown = -STEPS_PER_OCTAVE;

// The planner error about sizes in this state (the newest answer did not plan because of a size), or null.
function sizeError(state) {
  if (!state.error || isStale(state)) return null;
  const err = state.error.errors?.[0] ?? state.error.error;
  const dims = err?.path?.startsWith('/dims/');
  return err && (dims || err.code === 'unbound_dim' || err.code === 'byte_overflow') ? err : null;
}

// The name the planner reports as having no value in the current text, or null.
function unboundName(state, err) {
  if (err?.code !== 'unbound_dim') return null;
  const parsed = parseGraphText(state.text);
  return parsed.ok ? dimAtPath(parsed.graph, err.path, state.options.dims) : null;
}

// The names to show: the plan's, then one the planner reports as unbound.
function namesOf(state, unbound) {
  const names = Object.keys(state.plan?.dims ?? {});
  return unbound && !names.includes(unbound) ? [...names, unbound] : names;
}

export function createSizesPanel({ dispatch }) {
  const panel = $('sizes-panel');
  const rows = new Map(); // name → {row, range, field, reset, value, max}
  let names = '';
  const set = (name, value) => dispatch({ type: 'set-dim', name, value });

  function buildRow(name) {
    const r = { value: null, max: scaleMax() };
    r.range = h('input', {
      type: 'range',
      id: `dim-range-${name}`,
      min: 0,
      step: 1,
      'data-testid': `dim-range-${name}`,
      oninput: (e) => set(name, valueAt(Number(e.target.value))),
      onkeydown: (e) => {
        const step = STEP_KEYS[e.key];
        if (!step || r.value === null) return;
        e.preventDefault();
        const next = stepValue(r.value, step, r.max);
        if (next !== r.value) set(name, next);
      },
    });
    r.field = h('input', {
      type: 'number',
      class: 'size-value',
      min: 0,
      step: 1,
      inputmode: 'numeric',
      'aria-label': `${name}, exact value`,
      'data-testid': `dim-value-${name}`,
      onkeydown: (e) => e.key === 'Enter' && e.target.blur(),
      onchange: (e) => {
        const text = e.target.value.trim();
        if (text !== '') set(name, Number(text));
        else if (!e.target.validity.badInput && r.hasDefault) set(name, null);
        else e.target.setAttribute('aria-invalid', 'true');
      },
    });
    r.reset = h('button', { class: 'btn small icon size-reset', type: 'button', onclick: () => set(name, null) }, '↺');
    r.row = h(
      'div',
      { class: 'size-row', 'data-dim': name },
      h('label', { class: 'size-name', for: r.range.id, title: name }, h('code', {}, name)),
      r.range,
      r.field,
      r.reset,
    );
    return r;
  }

  function updateRow(name, r, state, err, unbound) {
    const given = state.options.dims?.[name];
    const planned = name === unbound ? undefined : state.plan?.dims?.[name];
    const fallback = state.graph?.dims?.[name];
    r.hasDefault = typeof fallback === 'number';
    const bad = !!err && (err.path === `/dims/${name}` || name === unbound);
    r.value = given ?? planned ?? null;
    // While the sizes do not plan, the slider stays where the last good plan was (the field shows what was typed).
    r.max = scaleMax(fallback, planned, err ? undefined : given);
    r.range.max = String(positions(r.max));
    const slid = err ? (planned ?? null) : r.value;
    if (slid !== null && valueAt(Number(r.range.value)) !== slid) r.range.value = String(positionOf(slid, r.max));
    r.range.setAttribute('aria-valuetext', r.value === null ? `${name} has no value` : `${name} = ${r.value}`);
    if (document.activeElement !== r.field) r.field.value = r.value === null ? '' : String(r.value);
    r.field.setAttribute('aria-invalid', String(bad));
    r.row.classList.toggle('invalid', bad);
    r.reset.hidden = !(r.hasDefault && given !== undefined);
    r.reset.title = `Back to the graph's default, ${name} = ${fallback}`;
    r.reset.setAttribute('aria-label', r.reset.title);
  }

  function renderWarnings(state) {
    const warnings = state.plan?.warnings ?? [];
    const list = $('sizes-warnings');
    list.hidden = !warnings.length;
    list.replaceChildren(
      ...warnings.map((w) => {
        const name = w.code === 'unused_dim' ? w.path?.replace(/^\/dims\//, '') : null;
        return h(
          'li',
          { 'data-code': w.code },
          h('span', {}, `⚠ ${w.message}`),
          name && state.options.dims?.[name] !== undefined
            ? h('button', { class: 'btn small', type: 'button', onclick: () => set(name, null) }, `Remove ${name}`)
            : null,
        );
      }),
    );
  }

  function renderNote(state) {
    const independent = state.plan?.grouping_independent_of_dims;
    const note = $('sizes-note');
    note.hidden = independent === undefined;
    note.textContent = independent ? 'the grouping is the same for every size' : 'the grouping may change with size';
    note.classList.toggle('fixed', !!independent);
  }

  let shown = {};
  return {
    render(state) {
      const { plan, options, error, text } = state;
      if (shown.plan === plan && shown.options === options && shown.error === error && shown.text === text) return;
      shown = { plan, options, error, text };
      const err = sizeError(state);
      const unbound = unboundName(state, err);
      const list = namesOf(state, unbound);
      panel.hidden = !list.length && !plan?.warnings?.length;
      if (list.join(',') !== names) {
        names = list.join(',');
        rows.clear();
        for (const name of list) rows.set(name, buildRow(name));
        $('sizes-rows').replaceChildren(...[...rows.values()].map((r) => r.row));
      }
      for (const [name, r] of rows) updateRow(name, r, state, err, unbound);
      const message = $('sizes-error');
      message.hidden = !err;
      message.textContent = err
        ? `Not planned: ${summarize(err)}${plan?.dims ? ` — showing the plan at ${dimsText(plan.dims)}.` : ''}`
        : '';
      renderNote(state);
      renderWarnings(state);
    },
  };
}
