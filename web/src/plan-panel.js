// plan-panel.js — the numbers: totals, kernels before → after, the group table and why edges were not fused.
//
// Contract: createPlanPanel({onSelect}) → {render(state)}. Reads state.graph/plan/selection (the last valid
// plan; greyed while stale) and writes the elements of index.html's plan pane. Every number shown is a field
// of the planner's result, only formatted (format.js). Clicking a row or reason calls onSelect(target).
// Browser-only; shown by tests/browser/page-plan.test.mjs.

import { h } from './dom.js';
import { opLabel } from './graph-text.js';
import { formatBytes, exactBytes, formatSpeedup } from './format.js';
import { explainReason, shortReason } from './reasons.js';
import { buildViewModel } from './view-model.js';
import { isStale } from './events.js';

const $ = (id) => document.getElementById(id);
const BLOCKED = new Set(['shape', 'cycle']);

// An op name that may wrap after its underscores (narrow panes keep every column visible).
const breakable = (name) => name.split('_').flatMap((part, k) => (k ? ['_', h('wbr'), part] : [part]));
// A list of op names as <code> chips.
const opList = (graph, ids) => (ids?.length ? ids.map((i, k) => [k ? ', ' : '', h('code', {}, breakable(opLabel(graph, i)))]) : '–');

export function createPlanPanel({ onSelect }) {
  const totals = document.querySelector('[data-testid="totals"]');

  function renderTotals(plan, stale) {
    totals.classList.toggle('stale', stale);
    $('bytes-unfused').textContent = formatBytes(plan?.bytes_unfused);
    $('bytes-unfused-exact').textContent = plan ? exactBytes(plan.bytes_unfused) : '';
    $('bytes-fused').textContent = formatBytes(plan?.bytes_fused);
    $('bytes-fused-exact').textContent = plan ? exactBytes(plan.bytes_fused) : '';
    $('speedup').textContent = formatSpeedup(plan?.speedup_estimate);
    $('kernels').textContent = plan ? `${plan.kernels_unfused} → ${plan.kernels_fused}` : '–';
    for (const id of ['bytes-unfused', 'bytes-fused']) $(id).title = plan ? exactBytes(plan[id.replace('-', '_')]) : '';
  }

  function renderGroups(graph, plan, vm, sel) {
    const body = $('groups-body');
    body.replaceChildren(...plan.groups.map((g, k) => {
      const color = vm.groups[k].color;
      const source = g.ops.every((i) => vm.nodes[i]?.category === 'source');
      const selected = sel?.kind === 'group' && sel.id === g.id;
      const select = () => onSelect({ kind: 'group', id: g.id });
      return h('tr', { class: `${selected ? 'selected' : ''}${source ? ' source-row' : ''}`, tabindex: 0, 'data-group': g.id, 'aria-selected': selected ? 'true' : 'false',
        onclick: select, onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); select(); } } },
      h('td', { title: source ? 'a source: already in memory, no kernel' : `kernel ${g.id}` },
        h('span', { class: 'chip', style: { background: color ?? '#fff' } }), g.id),
      h('td', {}, opList(graph, g.ops)), h('td', {}, opList(graph, g.inputs)), h('td', {}, opList(graph, g.outputs)),
      h('td', { class: 'num', title: exactBytes(g.bytes_read) }, formatBytes(g.bytes_read)),
      h('td', { class: 'num', title: exactBytes(g.bytes_written) }, formatBytes(g.bytes_written)));
    }));
    $('groups-count').textContent = `(${plan.groups.length}; ${plan.kernels_fused} run as kernel${plan.kernels_fused === 1 ? '' : 's'}, sources greyed)`;
  }

  function reasonItem(graph, e, sel) {
    const p = opLabel(graph, e.producer);
    const c = opLabel(graph, e.consumer);
    const selected = sel?.kind === 'edge' && sel.id.producer === e.producer && sel.id.consumer === e.consumer;
    const select = () => onSelect({ kind: 'edge', id: { producer: e.producer, consumer: e.consumer } });
    return h('li', { class: selected ? 'selected' : '', tabindex: 0, 'data-reason': e.reason,
      onclick: select, onkeydown: (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); select(); } } },
    h('code', {}, p), ' → ', h('code', {}, c),
    h('span', { class: `tag${BLOCKED.has(e.reason) ? ' blocked' : ''}` }, shortReason(e.reason)),
    h('p', {}, explainReason(e, { producer: p, consumer: c })));
  }

  function renderReasons(graph, plan, sel) {
    const unfused = plan.edges.filter((e) => !e.fused);
    const fromSources = unfused.filter((e) => e.reason === 'source');
    const others = unfused.filter((e) => e.reason !== 'source');
    const items = others.map((e) => reasonItem(graph, e, sel));
    if (fromSources.length) {
      items.push(h('li', { class: 'sources' }, h('details', {},
        h('summary', {}, `${fromSources.length} edge${fromSources.length > 1 ? 's' : ''} from sources (already in memory)`),
        h('ul', { class: 'reasons' }, fromSources.map((e) => reasonItem(graph, e, sel))))));
    }
    if (!unfused.length) items.push(h('li', {}, 'Every edge is fused.'));
    $('reasons').replaceChildren(...items);
    $('unfused-count').textContent = `(${unfused.length} of ${plan.edges.length} edges)`;
  }

  return {
    render(state) {
      const { graph, plan, selection } = state;
      renderTotals(plan, isStale(state) && !!state.error);
      if (!plan || !graph) return;
      const vm = buildViewModel(graph, plan);
      renderGroups(graph, plan, vm, selection);
      renderReasons(graph, plan, selection);
    },
  };
}
