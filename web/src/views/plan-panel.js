// plan-panel.js — the numbers: totals, estimated time, kernels before → after, the group table (pattern
// labels, recomputed ops, time per kernel; the rule that formed a kernel is its ops cell's tooltip) and why edges
// were not fused. When the plan has byte formulas (named dimensions, docs/design.md §16), the bytes cards show
// the plan's bytes_unfused_formula / bytes_fused_formula and each group row its bytes_read_formula /
// bytes_written_formula (formula.js draws them; a formula without names is left out: the number says it).
//
// Contract: createPlanPanel({onSelect, hardwareLabel?}) → {render(state)}. Reads state.graph/plan/selection
// (the last valid plan; greyed while stale) and writes the elements of index.html's plan pane. Every number
// shown is a field of the planner's result, only formatted (format.js). hardwareLabel(name) names the time
// model's device. Clicking a row or reason calls onSelect(target). A big plan lists its first MAX_ROWS groups
// and unfused edges and counts the rest; render does nothing when the plan, graph, selection and staleness
// are those already shown; a plan whose groups are those on screen (a size moved) only rewrites the table's
// bytes and times (once the table is in view), and the list of unfused edges is drawn again only when those edges
// or reasons change. Browser-only; shown by tests/browser/page-strategies.test.mjs (numbers, labels, times and
// reasons against the CLI), tests/browser/page-edit.test.mjs (rows linked to the selection) and
// tests/browser/page-fit-and-keyboard.test.mjs (the table fits its pane).

import { $, h } from './dom.js';
import { opLabel } from '../graph/graph-text.js';
import { formatBytes, exactBytes, formatTime } from '../present/format.js';
import { bytesFormula, hasNames } from '../present/formula.js';
import { explainReason, shortReason, isBlocked } from '../present/reasons.js';
import { buildViewModel } from '../present/view-model.js';
import { groupRows } from '../present/group-rows.js';
import { groupBadge } from '../present/numerics.js';
import { showTotals } from './totals.js';
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

// A formula that may wrap after each '·' as well as at its spaces (never inside a name or a number).
const breakableFormula = (text) => text.split('·').flatMap((part, k) => (k ? ['·', h('wbr'), part] : [part]));

// A group's byte formulas, under its members: each one that depends on a name, on a line of its own.
function groupFormula(g) {
  const lines = [
    ['reads', g?.bytes_read_formula],
    ['writes', g?.bytes_written_formula],
  ].filter(([, f]) => hasNames(f));
  if (!lines.length) return null;
  return h(
    'span',
    { class: 'group-formula', 'data-testid': 'group-formula' },
    lines.map(([what, f]) => h('span', {}, `${what} `, breakableFormula(bytesFormula(f)))),
  );
}

// What decides the group table's rows apart from their numbers: the groups, their members and names, the
// selection. Two plans with the same key differ only in bytes and times (a size slider moved).
function groupsKey(graph, plan, sel) {
  const groups = plan.groups.map(
    (g) =>
      `${g.ops}|${g.recomputed ?? ''}|${g.inputs}|${g.outputs}|${g.label}|${g.rule}|${g.kernel}|` +
      `${g.bytes_read_formula ?? ''}|${g.bytes_written_formula ?? ''}|${JSON.stringify(g.numerics ?? null)}`,
  );
  return { graph, text: `${JSON.stringify(sel)}#${plan.kernels_fused}#${groups.join(';')}` };
}

// A kernel's numerics badge (docs/design.md §18): how many notes and of which kinds; the notes as its tooltip.
function numericsBadge(group) {
  const badge = groupBadge(group);
  return badge
    ? h('span', { class: 'numerics-badge', 'data-testid': 'numerics-badge', title: badge.title }, badge.text)
    : null;
}

// A kernel's estimated time as its table cell shows it.
const timeText = (g) => ({
  textContent: ` · ${formatTime(g.timeUs).replace(' ', '\u00a0')}`,
  title: `estimated time of this kernel${g.flops === null ? '' : ` (${g.flops} flops)`}`,
});

export function createPlanPanel({ onSelect, hardwareLabel = (name) => name }) {
  const renderTotals = (plan, stale) => showTotals(plan, stale, hardwareLabel);

  // The group table's rows as built: their number cells, to update in place when only numbers change.
  let built = { key: null, cells: [] };
  // Numbers for a table out of sight wait until it scrolls into view (a dragged slider re-plans many times a
  // second; rewriting 300 off-screen rows each time would hold the page up).
  let pending = null; // {graph, plan} not yet written
  let inView = true;
  new IntersectionObserver(([entry]) => {
    inView = entry.isIntersecting;
    if (inView && pending) updateGroups(pending.graph, pending.plan);
  }).observe($('groups-body').closest('table'));

  // A new plan with the same groups (a size slider moved): only the bytes and times are written again.
  function updateGroups(graph, plan) {
    pending = inView ? null : { graph, plan };
    if (pending) return;
    groupRows(graph, plan)
      .slice(0, MAX_ROWS)
      .forEach((g, k) => {
        const { read, written, time } = built.cells[k];
        Object.assign(read, { textContent: formatBytes(g.bytesRead), title: exactBytes(g.bytesRead) });
        Object.assign(written, { textContent: formatBytes(g.bytesWritten), title: exactBytes(g.bytesWritten) });
        if (time) Object.assign(time, timeText(g));
      });
  }

  function renderGroups(graph, plan, sel) {
    const key = groupsKey(graph, plan, sel);
    if (key.graph === built.key?.graph && key.text === built.key.text) return updateGroups(graph, plan);
    built = { key, cells: [] };
    pending = null;
    const vm = buildViewModel(graph, plan);
    const body = $('groups-body');
    const rows = groupRows(graph, plan);
    body.replaceChildren(
      ...rows.slice(0, MAX_ROWS).map((g, k) => {
        const cells = {
          time: g.kernel && g.timeUs !== null ? h('span', { class: 'group-time', ...timeText(g) }) : null,
          read: h('td', { class: 'num', title: exactBytes(g.bytesRead) }, formatBytes(g.bytesRead)),
          written: h('td', { class: 'num', title: exactBytes(g.bytesWritten) }, formatBytes(g.bytesWritten)),
        };
        built.cells.push(cells);
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
            h('span', { class: 'chip', style: { background: color ?? 'var(--node-fill)' } }),
            g.id,
          ),
          h(
            'td',
            g.rule ? { title: `formed by: ${g.rule}`, 'data-rule': g.rule } : {},
            g.label ? h('span', { class: 'pattern', 'data-testid': 'group-label' }, breakableLabel(g.label)) : null,
            memberList(g.ops),
            cells.time,
            numericsBadge(plan.groups[k]),
            groupFormula(plan.groups[k]),
          ),
          h('td', {}, opList(graph, g.inputs)),
          h('td', {}, opList(graph, g.outputs)),
          cells.read,
          cells.written,
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

  let reasonsShown = null; // {graph, sel, edges}: what the list was drawn from

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
    const edges = plan.edges.map((e) => (e.fused ? '' : `${e.producer}>${e.consumer}:${e.reason}`)).join();
    if (reasonsShown?.graph === graph && reasonsShown.sel === sel && reasonsShown.edges === edges) return;
    reasonsShown = { graph, sel, edges };
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
      renderGroups(graph, plan, selection);
      renderReasons(graph, plan, selection);
    },
  };
}
