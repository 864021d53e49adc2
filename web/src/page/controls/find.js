// find.js — the Find box: highlight the ops whose name or kind contains the query; Enter selects one.
//
// Contract: installFind({store, dispatch, graphView}) wires #find and #find-list once and returns {focus()}.
// Typing highlights the matches (graphView.setMatches); Enter selects and centres the op with exactly that
// name, else the first match; Escape clears the box and returns focus to the graph. The suggestions list the
// first FIND_SUGGESTIONS op names (a datalist of tens of thousands takes seconds to build; Find itself searches
// every op). Browser-only; shown by tests/browser/page-large.test.mjs and page-edit.test.mjs.

import { opLabel } from '../../graph/graph-text.js';
import { $, h } from '../../views/dom.js';

export const FIND_SUGGESTIONS = 2000;

export function installFind({ store, dispatch, graphView }) {
  const query = () => $('find').value.trim().toLowerCase();
  const matches = () => {
    const q = query();
    const { graph } = store.getState();
    if (!q || !graph) return [];
    return graph.ops.flatMap((op, i) =>
      opLabel(graph, i).toLowerCase().includes(q) || String(op.kind).toLowerCase().includes(q) ? [i] : [],
    );
  };
  $('find').addEventListener('input', () => graphView.setMatches(matches()));
  $('find').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      const found = matches();
      const { graph } = store.getState();
      const first = found.find((i) => opLabel(graph, i).toLowerCase() === query()) ?? found[0]; // an exact name wins
      if (first !== undefined) {
        dispatch({ type: 'select', target: { kind: 'op', id: first } });
        graphView.center(first);
      }
    }
    if (e.key === 'Escape') {
      $('find').value = '';
      graphView.setMatches([]);
      $('graph').focus();
    }
  });
  store.subscribe((s, prev) => {
    if (s.graph === prev.graph) return;
    $('find-list').replaceChildren(
      ...(s.graph?.ops ?? []).slice(0, FIND_SUGGESTIONS).map((_, i) => h('option', { value: opLabel(s.graph, i) })),
    );
    graphView.setMatches(matches());
  });
  return {
    focus() {
      $('find').focus();
      $('find').select();
    },
  };
}
