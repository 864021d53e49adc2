// graph-tools.js — the graph pane's toolbar: + Add op, Connect, Delete, Undo, Redo, Fit, colour by bytes.
//
// Contract: installGraphTools({store, dispatch, graphView, editable, notice, addOp}) wires #add-op,
// #connect-mode, #delete-selected, #undo, #redo, #fit and #color-bytes once (and a double-click on the graph
// background to addOp(), on editable pages), and returns the same actions for the keyboard:
// {deleteSelected(), toggleConnect(), stopConnect(), fit(), toggleBytes()}, and connect(producer, consumer)
// for the graph view's drag gesture (a source takes no inputs: a notice says so instead). Connect mode is
// this module's own (a gesture mode of the graph view, not page state); everything else dispatches an event
// (edit-graph, undo, redo, set-color-by). Which buttons are enabled is drawn by views/page-chrome.js. Browser-only; shown by
// tests/browser/page-edit.test.mjs and page-heat.test.mjs.

import { opLabel } from '../../graph/graph-text.js';
import { $ } from '../../views/dom.js';

export function installGraphTools({ store, dispatch, graphView, editable, notice, addOp }) {
  const deleteSelected = () => {
    const sel = store.getState().selection;
    if (!editable || !sel) return;
    if (sel.kind === 'op') dispatch({ type: 'edit-graph', edit: { type: 'remove', op: sel.id } });
    if (sel.kind === 'edge') dispatch({ type: 'edit-graph', edit: { type: 'disconnect', ...sel.id } });
  };
  let connecting = false;
  const setConnect = (on) => {
    connecting = on && editable;
    $('connect-mode').setAttribute('aria-pressed', String(connecting));
    graphView.setConnectMode(connecting);
    if (connecting) notice('Connect: drag from a producer to a consumer. Press C or Escape to stop.');
  };
  const toggleBytes = () =>
    dispatch({ type: 'set-color-by', value: store.getState().colorBy === 'bytes' ? 'group' : 'bytes' });
  const fit = () => graphView.fit();
  // A producer → consumer connection from the graph; sources take no inputs, so say so instead.
  const connect = (producer, consumer) => {
    const { graph } = store.getState();
    if (!graph) return;
    const kind = String(graph.ops[consumer]?.kind ?? '');
    if (['input', 'constant'].includes(kind.toLowerCase())) {
      notice(
        `${opLabel(graph, consumer)} is a source (${kind}) and takes no inputs; connect into an op that computes something.`,
        'error',
      );
      return;
    }
    dispatch({ type: 'edit-graph', edit: { type: 'connect', producer, consumer } });
  };

  $('add-op').addEventListener('click', () => addOp());
  $('connect-mode').addEventListener('click', () => setConnect(!connecting));
  $('delete-selected').addEventListener('click', deleteSelected);
  $('undo').addEventListener('click', () => dispatch({ type: 'undo' }));
  $('redo').addEventListener('click', () => dispatch({ type: 'redo' }));
  $('fit').addEventListener('click', fit);
  $('color-bytes').addEventListener('click', toggleBytes);
  graphView.cy.on('dbltap', (e) => {
    if (e.target === graphView.cy && editable) addOp();
  });
  return {
    connect,
    deleteSelected,
    toggleConnect: () => setConnect(!connecting),
    stopConnect: () => setConnect(false),
    fit,
    toggleBytes,
  };
}
