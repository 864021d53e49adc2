// compare-side.js — one side of the compare view: a strategy's numbers, its graph drawing and its kernels.
//
// Contract: createCompareSide(side, {onSelect, onHoverEdge}) with side 'left' | 'right' → {el, view,
// show({title, blurb, graph, plan, vm, numbers}), draw(vm, layout) → Promise, fit(), setSelection(sel),
// markEdges(ids), status(text)}. draw puts vm (view-model.js) at the shared layout's positions, resolving once
// it is all drawn; fit() then fits it to its box, zooming out as far as a large graph needs. show fills in
// four number cards from compare-model.js rows (bytes, time, kernels: this side's value and the unfused one;
// speedup with the bytes saved under it; a card where this side does better is marked ✓; the bytes card adds the
// plan's bytes formula when it depends on a named dimension) and the list of
// kernels with pattern labels, recomputed ops and, on a line of its own, the rule that formed each kernel
// ("formed by: …", the plan group's `rule`) (group-rows.js). Every number is the plan's, only formatted. Clicks call onSelect({kind:'op'
// | 'edge', id}) or onSelect(null) (clusters are not selectable here: group ids differ between plans).
// markEdges(ids) outlines the edges (ids 'e<p>-<c>') the other plan decides differently. The drawing takes
// keys too (views/keyboard/graph-keys.js): arrow keys move through kernels, ops and edges (an edge's reason
// shown as on hover), Enter selects. In an embed its labels stay ≥ 11 px on screen (READABLE_ZOOM).
// Browser-only; shown by tests/browser/page-compare.test.mjs.

import { h } from '../dom.js';
import { createGraphView, READABLE_ZOOM } from '../graph-view.js';
import { installGraphKeys } from '../keyboard/graph-keys.js';
import { groupRows } from '../../present/group-rows.js';
import { exactBytes, formatTime } from '../../present/format.js';
import { FORMAT } from '../../present/compare-model.js';
import { bytesFormula, hasNames } from '../../present/formula.js';

const TITLE = { bytes: exactBytes, time: (v) => `${v} µs`, count: String, ratio: (v) => `${v}` };
const DIFF_STYLE = { 'underlay-color': '#f5a700', 'underlay-opacity': 0.45, 'underlay-padding': 5 };

// One number card: this side's value, a ✓ when this side does better, and a sub-line (the unfused value, or
// the row given as `under`).
function card(row, side, under = null) {
  const value = row[side];
  const fmt = FORMAT[row.unit];
  const won = row.better === side;
  const sub = under
    ? [
        h(
          'span',
          { 'data-metric': under.key, title: under.hint, class: under.better === side ? 'won' : '' },
          `${under.short} ${under[side] === null ? '–' : FORMAT[under.unit](under[side])}`,
        ),
      ]
    : row.unfused !== null
      ? `from ${fmt(row.unfused)}`
      : '\u00a0';
  return h(
    'div',
    { class: `card${won ? ' better' : ''}`, 'data-metric': row.key },
    h(
      'div',
      { class: 'card-label', title: row.hint },
      row.label,
      won ? h('span', { class: 'won', title: 'better than the other side' }, ' ✓') : null,
    ),
    h(
      'div',
      { class: 'card-value', title: value === null ? '' : TITLE[row.unit](value) },
      value === null ? '–' : fmt(value),
    ),
    h('div', { class: 'card-sub', title: row.unfused !== null ? `unfused: ${fmt(row.unfused)}` : '' }, sub),
    formulaLine(row.formulas?.[side]),
  );
}

// A card's formula line ('= 1 800·batch·seq² + … B'), for a formula that depends on a name; else nothing.
const formulaLine = (f) =>
  hasNames(f)
    ? h(
        'div',
        { class: 'card-formula', 'data-testid': 'compare-formula', title: `${bytesFormula(f)}: the planner's formula` },
        `= ${bytesFormula(f)}`,
      )
    : null;

// The four cards of a side: bytes, time, kernels, and the speedup with the bytes saved under it.
function cards(numbers, side) {
  const by = Object.fromEntries(numbers.map((r) => [r.key, r]));
  return [
    card(by.bytes_fused, side),
    card(by.time_fused_us, side),
    card(by.kernels_fused, side),
    card(by.time_speedup, side, by.speedup_estimate),
  ];
}

// The kernels of a plan as a list: colour chip, id, pattern label, members (recomputed ones marked ↻), time,
// and under them the rule that formed the kernel, when the planner names one.
function kernelList(graph, plan, vm) {
  const rows = groupRows(graph, plan)
    .map((g, k) => ({ ...g, color: vm.groups[k].color }))
    .filter((g) => g.kernel);
  return rows.map((g) =>
    h(
      'li',
      { 'data-group': g.id },
      h('span', { class: 'chip', style: { background: g.color ?? 'var(--node-fill)' } }),
      h('strong', {}, `k${g.id}`),
      ' ',
      g.label ? h('span', { class: 'pattern' }, g.label) : null,
      ' ',
      g.ops.map((m, i) => [
        i ? ', ' : '',
        h(
          'code',
          {
            class: m.recomputed ? 'recomputed' : '',
            title: m.recomputed ? `recomputed here (also in kernel ${m.alsoIn.join(', ')})` : '',
          },
          m.recomputed ? `↻ ${m.name}` : m.name,
        ),
      ]),
      g.timeUs === null ? null : h('span', { class: 'muted' }, ` · ${formatTime(g.timeUs)}`),
      g.rule ? h('div', { class: 'group-rule muted', 'data-testid': 'kernel-rule' }, `formed by: ${g.rule}`) : null,
    ),
  );
}

export function createCompareSide(side, { onSelect, onHoverEdge }) {
  const $ = {
    title: h('h3', {}, '–'),
    blurb: h('span', { class: 'muted' }),
    cards: h('div', { class: 'compare-cards', 'data-testid': `compare-${side}-numbers` }),
    graph: h('div', { class: 'graph compare-graph', 'data-testid': `compare-${side}-graph`, tabindex: 0 }),
    status: h('div', { class: 'compare-status', role: 'status' }),
    kernels: h('ol', { class: 'compare-kernels', 'data-testid': `compare-${side}-kernels` }),
    summary: h('summary', {}, 'Kernels'),
  };
  const el = h(
    'section',
    { class: 'compare-side', 'data-side': side, 'data-testid': `compare-${side}` },
    h('header', {}, $.title, $.blurb),
    $.cards,
    h('div', { class: 'graph-wrap' }, $.graph),
    $.status,
    h('details', { class: 'compare-groups', open: true }, $.summary, $.kernels),
  );
  let view = null;

  // The graph view starts once the side is on screen (Cytoscape needs a sized container).
  // In an embed (body.embed) labels stay ≥ 11 px on screen (READABLE_ZOOM) and a big graph is panned from its
  // largest kernel; on the page a deep graph fits whole (the single-plan view stops at 0.05).
  function ensureView() {
    if (view) return view;
    const embed = document.body.classList.contains('embed');
    const select = (t) => onSelect(t?.kind === 'group' ? null : t);
    view = createGraphView($.graph, {
      onSelect: select,
      onConnect: () => {},
      onHoverEdge: (e) => onHoverEdge(side, e),
      minZoom: embed ? READABLE_ZOOM : 0.005,
    });
    view.setEditable(false);
    view.cy.style().selector('edge.differs').style(DIFF_STYLE).update();
    // By keyboard: arrow keys through kernels, ops and edges (an edge's reason in the status line), Enter.
    installGraphKeys($.graph, view.cy, {
      onSelect: select,
      onCursor: (el) => onHoverEdge(side, el?.isEdge() ? el.data() : null),
    });
    return view;
  }

  return {
    el,
    get view() {
      return ensureView();
    },
    show({ title, blurb, graph, plan, vm, numbers }) {
      $.title.textContent = title;
      $.blurb.textContent = blurb;
      $.blurb.title = blurb;
      $.cards.replaceChildren(...cards(numbers, side));
      const items = kernelList(graph, plan, vm);
      $.kernels.replaceChildren(...items);
      $.summary.textContent = `${items.length} kernel${items.length === 1 ? '' : 's'}`;
      $.status.textContent = `${graph.ops.length} ops → ${plan.kernels_fused} kernels; orange halo: decided differently`;
    },
    draw: (vm, layout) => ensureView().render(vm, layout, { fit: false }),
    // Fit the drawing to its box as it is now (after the whole view is laid out).
    fit() {
      view.cy.resize();
      view.fit();
    },
    setSelection: (sel) => view?.setSelection(sel),
    markEdges(ids) {
      if (!view) return;
      view.cy.edges().removeClass('differs');
      for (const id of ids) view.cy.$id(id).addClass('differs');
    },
    status(text) {
      $.status.textContent = text;
    },
  };
}
