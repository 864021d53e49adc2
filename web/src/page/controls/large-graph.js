// large-graph.js — the controls that keep big graphs usable: expand/collapse fusion groups (a click on a
// collapsed group, a double-click on an open one, E for the selected one, "Expand all"/"Collapse all") and
// revealing a selected op hidden in a collapsed group (Find selects it: its group opens and the view centres
// on it). The "largest savings first" list is savings-panel.js.
//
// Contract: installLargeGraph({store, dispatch, graphView}) wires index.html's #graph-corner (#expand-state,
// #expand-all, #collapse-all; shown for graphs above COLLAPSE_ABOVE ops or with a group closed) once and
// returns {toggle(group)} for the graph view's onToggleGroup. Expansion is state ('expand' events; expansion.js
// decides what is open); once the graph is drawn again after a toggle or a reveal, the view centres on that
// group or op. Browser-only; shown by tests/browser/page-large.test.mjs.

import { isOpen, COLLAPSE_ABOVE } from '../../state/expansion.js';
import { countCollapsed, countDrawn, MAX_DRAWN } from '../../present/collapse.js';
import { $ } from '../../views/dom.js';
import { isTyping } from './keyboard.js';

export function installLargeGraph({ store, dispatch, graphView }) {
  let focus = null; // {op} or {group}: centre on it once the graph is drawn again

  const opCount = () => store.getState().graph?.ops.length ?? 0;
  const groupOf = (op) => store.getState().plan?.op_group?.[op];
  function toggle(group) {
    const open = isOpen(store.getState().expanded, group, opCount());
    focus = { group };
    dispatch({ type: 'expand', group, open: !open });
  }

  $('expand-all').addEventListener('click', () => dispatch({ type: 'expand', group: 'all', open: true }));
  $('collapse-all').addEventListener('click', () => dispatch({ type: 'expand', group: 'all', open: false }));

  // E opens or closes the selected group (or the group of the selected op).
  document.addEventListener('keydown', (e) => {
    if (
      e.key !== 'e' ||
      e.ctrlKey ||
      e.metaKey ||
      e.altKey ||
      isTyping(e.target) ||
      document.querySelector('dialog[open]')
    )
      return;
    if (e.target.closest?.('.cm-editor')) return;
    const sel = store.getState().selection;
    const group = sel?.kind === 'group' ? sel.id : sel?.kind === 'op' ? groupOf(sel.id) : undefined;
    if (group === undefined) return;
    e.preventDefault();
    toggle(group);
  });

  // A selected op inside a collapsed group is revealed: its group opens (after this dispatch ends).
  store.subscribe((s, prev) => {
    if (s.selection === prev.selection || s.selection?.kind !== 'op' || !s.plan) return;
    const op = s.selection.id;
    const group = s.plan.op_group[op];
    if (group === undefined || isOpen(s.expanded, group, s.graph.ops.length)) return;
    const members = s.plan.groups.find((g) => g.id === group)?.ops.length ?? 1;
    if (members < 2) return;
    focus = { op };
    queueMicrotask(() => dispatch({ type: 'expand', group, open: true }));
  });

  // Centre on what a reveal asked for once the new layout is drawn.
  new MutationObserver(() => {
    if (!focus) return;
    if (focus.op !== undefined) graphView.center(focus.op);
    else graphView.centerGroup(focus.group);
    focus = null;
  }).observe(document.body, { attributes: true, attributeFilter: ['data-plan-shown'] });

  // The buttons say how many groups are closed; they are disabled when there is nothing to do.
  let shown = null;
  store.subscribe((s) => {
    if (!s.plan || (shown && shown.plan === s.plan && shown.expanded === s.expanded)) return;
    shown = { plan: s.plan, expanded: s.expanded };
    const { multi, closed } = countCollapsed(s.plan, s.expanded, s.graph.ops.length);
    $('expand-all').disabled = closed === 0;
    $('collapse-all').disabled = closed === multi;
    const boxes = countDrawn(s.plan, s.expanded, s.graph.ops.length);
    const over = boxes > MAX_DRAWN;
    $('graph-corner').hidden = !over && (multi === 0 || (closed === 0 && s.graph.ops.length <= COLLAPSE_ABOVE)); // small: no clutter
    $('graph-corner').classList.toggle('warn', over);
    $('expand-state').textContent =
      `${closed} of ${multi} kernel${multi === 1 ? '' : 's'} collapsed` +
      (over
        ? ` — ${boxes.toLocaleString('en')} boxes are too many to draw (the page draws up to ${MAX_DRAWN.toLocaleString('en')}); the numbers and lists are complete`
        : '');
  });
  return { toggle };
}
