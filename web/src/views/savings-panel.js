// savings-panel.js — the "largest savings first" list in the plan pane: the kernels whose fusion saves the
// most bytes, biggest first, each with a bar scaled to the first.
//
// Contract: createSavingsPanel({onSelect}) → {render(state)}. Reads state.graph/plan/selection, ranks with
// savings.js (numbers from the plan, only formatted) and writes #savings and #savings-count; re-renders only
// when the plan or the selection changed; a plan that only changes the numbers (the same groups: a size slider
// moved) waits while the list is out of view, and is drawn when it scrolls in. Clicking an entry (or
// Enter/Space on it) calls onSelect({kind:'group', id}). An entry's tooltip adds the planner's byte formulas of its
// kernel (named dimensions, docs/design.md §16) and the rule that formed it (the plan group's `rule`).
// Browser-only; shown by tests/browser/page-large.test.mjs.

import { $, h } from './dom.js';
import { opLabel } from '../graph/graph-text.js';
import { formatBytes, exactBytes } from '../present/format.js';
import { bytesFormula, hasNames } from '../present/formula.js';
import { rankSavings } from '../present/savings.js';
import { GROUP_COLORS } from '../present/view-model.js';

export const SHOWN = 25;

// Each multi-op group's colour, as view-model.js assigns them (in plan order).
function colours(plan) {
  const out = new Map();
  let k = 0;
  for (const g of plan.groups) if (g.ops.length > 1) out.set(g.id, GROUP_COLORS[k++ % GROUP_COLORS.length]);
  return out;
}

function title(graph, g) {
  if (g.label) return g.label;
  const first = opLabel(graph, g.ops[0]);
  return g.ops.length > 1 ? `${first} … ${opLabel(graph, g.ops[g.ops.length - 1])}` : first;
}

export function createSavingsPanel({ onSelect }) {
  let shown = {};
  // Out of sight, the list waits: the latest state is drawn when it scrolls into view (a dragged size slider
  // re-plans many times a second).
  let inView = true;
  let waiting = null;
  new IntersectionObserver(([entry]) => {
    inView = entry.isIntersecting;
    if (inView && waiting) draw(waiting);
  }).observe($('savings'));

  function draw({ graph, plan, selection }) {
    waiting = null;
    if (!plan || !graph || (shown.plan === plan && shown.selection === selection)) return;
    shown = { plan, selection, grouping: plan.groups.map((g) => g.ops).join(';') };
    const ranked = rankSavings(plan);
    const top = ranked.slice(0, SHOWN);
    const byId = new Map(plan.groups.map((g) => [g.id, g]));
    const colour = colours(plan);
    const max = top[0]?.saved ?? 1;
    $('savings-count').textContent =
      ranked.length > SHOWN
        ? `(top ${SHOWN} of ${ranked.length} kernels)`
        : `(${ranked.length} kernel${ranked.length === 1 ? '' : 's'})`;
    $('savings').replaceChildren(
      ...top.map((r) => {
        const g = byId.get(r.group);
        const selected = selection?.kind === 'group' && selection.id === r.group;
        const select = () => onSelect({ kind: 'group', id: r.group });
        return h(
          'li',
          {
            tabindex: 0,
            class: selected ? 'selected' : '',
            'data-group': r.group,
            'aria-current': selected ? 'true' : null,
            title:
              `kernel ${r.group}: ${exactBytes(r.unfused)} unfused → ${exactBytes(r.fused)} fused` +
              (hasNames(g.bytes_read_formula) || hasNames(g.bytes_written_formula)
                ? `\nreads ${bytesFormula(g.bytes_read_formula)}, writes ${bytesFormula(g.bytes_written_formula)}`
                : '') +
              (g.rule ? `\nformed by: ${g.rule}` : ''),
            onclick: select,
            onkeydown: (e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                select();
              }
            },
          },
          h('span', { class: 'chip', style: { background: colour.get(r.group) ?? 'var(--node-fill)' } }),
          h(
            'span',
            { class: 'saving-name' },
            h('strong', {}, `kernel ${r.group}`),
            ` · ${r.ops} ops · `,
            h('code', {}, title(graph, g)),
          ),
          h('span', { class: 'saving-bytes', 'data-saved': r.saved }, `−${formatBytes(r.saved)}`),
          h('span', { class: 'saving-bar', style: { width: `${Math.max(2, (100 * r.saved) / max).toFixed(1)}%` } }),
        );
      }),
    );
    if (!top.length)
      $('savings').replaceChildren(h('li', { class: 'muted' }, 'No kernel saves bytes: nothing fuses in this graph.'));
  }

  // Whether a plan groups the ops as the one drawn (so only its numbers differ: a size slider moved).
  const regrouped = (plan) => plan?.groups.map((g) => g.ops).join(';') !== shown.grouping;

  return {
    render(state) {
      if (inView || regrouped(state.plan) || state.selection !== shown.selection) draw(state);
      else waiting = state;
    },
  };
}
