// add-op.js — the "Add an op" dialog: kind, name, shape, dtype, and whether it reads the selected op.
//
// Contract: installAddOp({store, dispatch, editable, dtypes, notice}) fills #kind-list with every kind
// (graph/op-kinds.js, its category as the hint) once and returns {open()}. open() (the + Add op button, A, a
// double-click on the graph background) does nothing on a read-only page and refuses while the JSON does not
// parse; it pre-fills from the selected op (relu after it, its shape and dtype). Submitting checks the kind,
// the shape (graph-text.js parseShape) and that the name is free, says what is wrong inside the dialog, and
// dispatches one 'edit-graph' add event (connected to the selected op unless the new op is a source).
// Browser-only; shown by tests/browser/page-edit.test.mjs.

import { refTo, uniqueName } from '../../graph/graph-edit.js';
import { opLabel, parseGraphText, parseShape } from '../../graph/graph-text.js';
import { ALL_KINDS, categoryOf } from '../../graph/op-kinds.js';
import { $, h } from '../../views/dom.js';

export function installAddOp({ store, dispatch, editable, dtypes, notice }) {
  const form = $('add-form');
  $('kind-list').replaceChildren(...ALL_KINDS.map((k) => h('option', { value: k }, categoryOf(k))));

  function open() {
    if (!editable) return;
    const { graph, selection } = store.getState();
    const parsed = parseGraphText(store.getState().text);
    if (!parsed.ok) return notice('Fix the JSON first: the graph can be edited once the text parses.', 'error');
    const from = selection?.kind === 'op' && graph?.ops[selection.id] ? selection.id : null;
    const template = from !== null ? graph.ops[from] : null;
    form.kind.value = template ? 'relu' : 'input';
    form.name.value = '';
    form.shape.value = (template?.shape ?? [1024, 1024]).join(', ');
    form.dtype.replaceChildren(
      ...dtypes.map((d) => h('option', { value: d, selected: d === (template?.dtype ?? 'f32') }, d)),
    );
    form.connect.checked = from !== null;
    form.connect.disabled = from === null;
    form.dataset.from = from ?? '';
    $('add-connect-label').textContent =
      from !== null ? `Input: ${opLabel(graph, from)}` : 'Input: none (select an op first to connect it)';
    $('add-error').textContent = '';
    $('add-dialog').showModal();
    form.kind.focus();
    form.kind.select();
  }

  form.addEventListener('submit', (e) => {
    if (e.submitter?.value !== 'ok') return;
    const graph = parseGraphText(store.getState().text).graph;
    const kind = form.kind.value.trim();
    const shape = parseShape(form.shape.value);
    const name = form.name.value.trim() || uniqueName(graph, kind || 'op');
    const fail = (msg) => {
      e.preventDefault();
      $('add-error').textContent = msg;
    };
    if (categoryOf(kind) === 'unknown') return fail(`“${kind}” is not an op kind; pick one from the list.`);
    if (!shape) return fail('Shape must list whole numbers ≥ 0 or dimension names, e.g. 1024, 768 or N, 768.');
    if (graph.ops.some((op) => op.name === name)) return fail(`An op is already called “${name}”.`);
    const from = form.dataset.from === '' ? null : Number(form.dataset.from);
    const inputs = form.connect.checked && from !== null && categoryOf(kind) !== 'source' ? [refTo(graph, from)] : [];
    dispatch({ type: 'edit-graph', edit: { type: 'add', op: { name, kind, inputs, shape, dtype: form.dtype.value } } });
  });
  return { open };
}
