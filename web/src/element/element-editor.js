// element-editor.js — the JSON box of <fusion-playground editable>: the reader changes the graph inside the post.
// Loaded by element.js only when the editable attribute is set, so a read-only element never downloads it.
//
// Contract: createElementEditor({text, onEdit, onReset}) → {element, setText(text), showResult(error | null)}.
// element is a labelled plain <textarea> (monospace, no spell checking) with a status line and a "Reset" button.
// Typing calls onEdit(text) after a 300 ms pause (the element re-plans it); showResult(error) puts the planner's
// error in words under the box — what and where (summarize: "Line 3, column 5: …" or the field's JSON path) —
// and marks the box invalid, or with null says the graph planned. The box's text is never replaced by an error
// or a plan: only setText (the element, on Reset or a new graph) changes it. Reset restores the original text and
// calls onReset(). Its styles come with it (inside the element's shadow root). Browser-only; shown by
// tests/browser/element.test.mjs.

import { summarize } from '../graph/error-summary.js';
import { h } from '../views/dom.js';

const CSS = `
.editor { display: flex; flex-direction: column; gap: 4px; padding: 6px 10px; border-top: 1px solid #d0d7de; }
.editor-head { display: flex; align-items: center; gap: 8px; font-size: 12px; color: #57606a; }
.editor-head label { flex: 1; font-weight: 600; color: #1f2328; }
.editor textarea { width: 100%; box-sizing: border-box; min-height: 7.5em; resize: vertical; font: 12px/1.45 ui-monospace,
  "SFMono-Regular", Menlo, Consolas, monospace; color: #1f2328; background: #fff; border: 1px solid #d0d7de;
  border-radius: 6px; padding: 6px 8px; }
.editor textarea[aria-invalid="true"] { border-color: #c62828; outline-color: #c62828; }
.editor textarea:focus-visible { outline: 2px solid #0b63c5; outline-offset: 1px; }
.editor-status { font-size: 12px; min-height: 1.45em; color: #1a7f37; overflow-wrap: anywhere; }
.editor-status.error { color: #c62828; }
.editor button { font: inherit; font-size: 12px; padding: 2px 10px; border: 1px solid #d0d7de; border-radius: 6px;
  background: #f6f8fa; color: #1f2328; cursor: pointer; }
.editor button:disabled { color: #8c959f; cursor: default; }
.editor button:focus-visible { outline: 2px solid #0b63c5; outline-offset: 2px; }
`;

let ids = 0;

export function createElementEditor({ text, onEdit, onReset }) {
  const original = text;
  const id = `fp-json-${++ids}`;
  let timer = null;
  const box = h('textarea', {
    id,
    spellcheck: 'false',
    autocomplete: 'off',
    rows: 8,
    'aria-describedby': `${id}-status`,
  });
  box.value = text;
  const status = h('div', { class: 'editor-status', id: `${id}-status`, role: 'status', 'aria-live': 'polite' });
  const reset = h('button', { type: 'button', disabled: true }, 'Reset');
  const changed = () => (reset.disabled = box.value === original);
  box.addEventListener('input', () => {
    changed();
    clearTimeout(timer);
    timer = setTimeout(() => onEdit(box.value), 300);
  });
  reset.addEventListener('click', () => {
    clearTimeout(timer);
    box.value = original;
    changed();
    onReset();
  });
  const element = h(
    'div',
    { class: 'editor' },
    h('style', {}, CSS),
    h('div', { class: 'editor-head' }, h('label', { for: id }, 'Graph JSON — edit it to re-plan'), reset),
    box,
    status,
  );
  return {
    element,
    setText(value) {
      box.value = value;
      changed();
    },
    showResult(error) {
      box.setAttribute('aria-invalid', String(Boolean(error)));
      status.classList.toggle('error', Boolean(error));
      status.textContent = error
        ? `Not planned — ${summarize(error)}. The drawing shows the last graph that planned.`
        : box.value === original
          ? 'The original graph.'
          : 'Planned your graph.';
    },
  };
}
