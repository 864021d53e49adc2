// plan-panel.js — the numbers: totals, estimated time, kernels before → after, the group table (pattern
// labels, recomputed ops, time per kernel; the rule that formed a kernel is its ops cell's tooltip) and why edges
// were not fused.
//
// Contract: createPlanPanel({onSelect, hardwareLabel?}) → {render(state)}. Reads state.graph/plan/selection
// (the last valid plan; greyed while stale) and writes the elements of index.html's plan pane. Every number
// shown is a field of the planner's result, only formatted (format.js). hardwareLabel(name) names the time
// model's device. Clicking a row or reason calls onSelect(target). A big plan lists its first MAX_ROWS groups
// and unfused edges and counts the rest; render does nothing when the plan, graph, selection and staleness
// are those already shown. Browser-only; shown by tests/browser/page-strategies.test.mjs (numbers, labels,
// times and reasons against the CLI), tests/browser/page-edit.test.mjs (rows linked to the selection) and
// tests/browser/page-fit-and-keyboard.test.mjs (the table fits its pane).

import { $, h } from './dom.js';
import { opLabel } from '../graph/graph-text.js';
import { formatBytes, exactBytes, formatSpeedup, formatTime } from '../present/format.js';
import { explainReason, shortReason, isBlocked } from '../present/reasons.js';
import { buildViewModel } from '../present/view-model.js';
import { groupRows } from '../present/group-rows.js';
import { isStale } from '../state/events.js';

// Rows drawn in the group table and in each list of unfused edges; a big plan's rest is summarized in one
// line, so the pane stays quick (the savings list and Find reach any group or op).
export const MAX_ROWS = 300;
const more = (tag, shown, total, what) =>
  total > shown ? h(tag, { class: 'more muted' }, `… ${total - shown} more ${what} not listed`) : null;

// An op name that may wrap after its underscores (narrow panes keep every column visible).
const breakable = (name) => name.split('_').flatMap((part, k) => (k ? ['_', h('wbr'), part] : [part]));
// A list of op names as <code> chips.
const opList = (graph, ids) =>
  ids?.length ? ids.map((i, k) => [k ? ', ' : '', h('code', {}, breakable(opLabel(graph, i)))]) : '–';
// A group's members; a recomputed copy is marked ↻ and says where else the op is.
const memberList = (ops) =>
  ops.map((m, k) => [
    k ? ', ' : '',
    m.recomputed
      ? h(
          'code',
          {
            class: 'recomputed',
            title: `${m.name} is recomputed in this kernel (also in kernel ${m.alsoIn.join(', ') || '–'})`,
          },
          '↻ ',
          breakable(m.name),
        )
      : h('code', {}, breakable(m.name)),
  ]);
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
// A pattern label that may wrap after each '+' ("matmul+bias+act").
const breakableLabel = (label) => label.split('+').flatMap((part, k) => (k ? ['+', h('wbr'), part] : [part]));

export function createPlanPanel({ onSelect, hardwareLabel = (name) => name }) {
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
    const timed = typeof plan?.time_fused_us === 'number';
    $('time-fused').textContent = timed ? formatTime(plan.time_fused_us) : '–';
    $('time-unfused').textContent = timed ? `from ${formatTime(plan.time_unfused_us)} unfused` : '';
    $('time-speedup').textContent = timed ? formatSpeedup(plan.time_speedup) : '–';
    $('time-hardware').textContent = timed ? `on ${hardwareLabel(plan.options?.hardware)}` : '';
    $('time-fused').title = timed ? `${plan.time_fused_us} µs, the planner's estimate for the fused plan` : '';
    $('time-unfused').title = timed ? `${plan.time_unfused_us} µs with one kernel per op` : '';
    $('time-speedup').title = timed ? 'time unfused ÷ time fused' : '';
  }

  function renderGroups(graph, plan, vm, sel) {
    const body = $('groups-body');
    const rows = groupRows(graph, plan);
    body.replaceChildren(
      ...rows.slice(0, MAX_ROWS).map((g, k) => {
        const color = vm.groups[k].color;
        const selected = sel?.kind === 'group' && sel.id === g.id;
        const select = () => onSelect({ kind: 'group', id: g.id });
        return h(
          'tr',
          {
            class: `${selected ? 'selected' : ''}${g.source ? ' source-row' : ''}`,
            tabindex: 0,
            'data-group': g.id,
            'aria-selected': selected ? 'true' : 'false',
            onclick: select,
            onkeydown: (e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                select();
              }
            },
          },
          h(
            'td',
            { title: g.source ? 'a source: already in memory, no kernel' : `kernel ${g.id}` },
            h('span', { class: 'chip', style: { background: color ?? '#fff' } }),
            g.id,
          ),
          h(
            'td',
            g.rule ? { title: `formed by: ${g.rule}`, 'data-rule': g.rule } : {},
            g.label ? h('span', { class: 'pattern', 'data-testid': 'group-label' }, breakableLabel(g.label)) : null,
            memberList(g.ops),
            g.kernel && g.timeUs !== null
              ? h(
                  'span',
                  {
                    class: 'group-time',
                    title: `estimated time of this kernel${g.flops === null ? '' : ` (${g.flops} flops)`}`,
                  },
                  ` · ${formatTime(g.timeUs).replace(' ', '\u00a0')}`,
                )
              : null,
          ),
          h('td', {}, opList(graph, g.inputs)),
          h('td', {}, opList(graph, g.outputs)),
          h('td', { class: 'num', title: exactBytes(g.bytesRead) }, formatBytes(g.bytesRead)),
          h('td', { class: 'num', title: exactBytes(g.bytesWritten) }, formatBytes(g.bytesWritten)),
        );
      }),
    );
    if (rows.length > MAX_ROWS) {
      body.append(
        h(
          'tr',
          { class: 'more' },
          h(
            'td',
            { colspan: 6, class: 'muted' },
            `… ${rows.length - MAX_ROWS} more groups not listed: the largest savings are listed above, and Find (Ctrl+F) reaches any op.`,
          ),
        ),
      );
    }
    const copies = rows.reduce((n, g) => n + g.ops.filter((m) => m.recomputed).length, 0);
    $('legend-recomputed').hidden = copies === 0; // the graph legend names the halo only when a plan has one
    $('groups-count').textContent =
      `(${plan.groups.length}; ${plural(plan.kernels_fused, 'kernel')}, sources greyed` +
      `${copies ? `; ${plural(copies, 'recomputed op')} ↻` : ''})`;
  }

  function reasonItem(graph, e, sel) {
    const p = opLabel(graph, e.producer);
    const c = opLabel(graph, e.consumer);
    const selected = sel?.kind === 'edge' && sel.id.producer === e.producer && sel.id.consumer === e.consumer;
    const select = () => onSelect({ kind: 'edge', id: { producer: e.producer, consumer: e.consumer } });
    return h(
      'li',
      {
        class: selected ? 'selected' : '',
        tabindex: 0,
        'data-reason': e.reason,
        onclick: select,
        onkeydown: (ev) => {
          if (ev.key === 'Enter' || ev.key === ' ') {
            ev.preventDefault();
            select();
          }
        },
      },
      h('code', {}, p),
      ' → ',
      h('code', {}, c),
      h('span', { class: `tag${isBlocked(e.reason) ? ' blocked' : ''}` }, shortReason(e.reason)),
      h('p', {}, explainReason(e, { producer: p, consumer: c })),
    );
  }

  function renderReasons(graph, plan, sel) {
    const unfused = plan.edges.filter((e) => !e.fused);
    const fromSources = unfused.filter((e) => e.reason === 'source');
    const others = unfused.filter((e) => e.reason !== 'source');
    const items = others.slice(0, MAX_ROWS).map((e) => reasonItem(graph, e, sel));
    if (others.length > MAX_ROWS) items.push(more('li', MAX_ROWS, others.length, 'unfused edges'));
    if (fromSources.length) {
      items.push(
        h(
          'li',
          { class: 'sources' },
          h(
            'details',
            {},
            h(
              'summary',
              {},
              `${fromSources.length} edge${fromSources.length > 1 ? 's' : ''} from sources (already in memory)`,
            ),
            h(
              'ul',
              { class: 'reasons' },
              fromSources.slice(0, MAX_ROWS).map((e) => reasonItem(graph, e, sel)),
              more('li', MAX_ROWS, fromSources.length, 'edges from sources'),
            ),
          ),
        ),
      );
    }
    if (!unfused.length) items.push(h('li', {}, 'Every edge is fused.'));
    $('reasons').replaceChildren(...items);
    $('unfused-count').textContent = `(${unfused.length} of ${plan.edges.length} edges)`;
  }

  let shown = {};
  return {
    render(state) {
      const { graph, plan, selection } = state;
      const stale = isStale(state) && !!state.error;
      if (shown.plan === plan && shown.graph === graph && shown.selection === selection && shown.stale === stale)
        return;
      shown = { plan, graph, selection, stale };
      renderTotals(plan, stale);
      if (!plan || !graph) return;
      const vm = buildViewModel(graph, plan);
      renderGroups(graph, plan, vm, selection);
      renderReasons(graph, plan, selection);
    },
  };
}
