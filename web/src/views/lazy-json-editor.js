// lazy-json-editor.js — the JSON box before its editor has loaded: the same API as json-editor.js, so the page's
// first plan never waits for CodeMirror (about 100 KiB gzipped, its own chunk, codemirror-*.js).
//
// Contract: createLazyJsonEditor(parent, {schema, onChange, when}) → {setText, setDiagnostics, setReadOnly,
// focus, hasFocus, load, view}. Until json-editor.js has loaded, the box shows the graph text read-only
// under a "Loading the JSON editor…" line (aria-busy); the calls made meanwhile are kept (the last text,
// diagnostics, read-only state and a focus request) and applied to the editor once it is there. Loading starts
// when `when` settles (a promise; the page passes its first drawn plan), when the box is clicked or focused, or
// on load(); an embed without the JSON box passes a promise that never settles, so it never loads the editor.
// load() → a promise of the editor; if the import fails the box says so in words. Browser-only; shown by
// tests/browser/page-editor.test.mjs and tests/browser/page-budget.test.mjs.

import { h } from './dom.js';

const PREVIEW_CHARS = 20_000; // of the text shown while loading (a multi-MB graph is not put in the DOM twice)

export function createLazyJsonEditor(parent, { schema, onChange, when }) {
  const kept = { text: '', diagnostics: [], readOnly: false, focus: false };
  const preview = h('pre', { class: 'editor-preview' });
  const note = h('div', { class: 'editor-loading', role: 'status' }, 'Loading the JSON editor…');
  const placeholder = h('div', { class: 'editor-placeholder', 'aria-busy': 'true', tabindex: '0' }, note, preview);
  parent.append(placeholder);
  let editor = null;
  let loading = null;

  const load = () =>
    (loading ??= import('./json-editor.js').then(
      ({ createJsonEditor }) => {
        placeholder.remove();
        editor = createJsonEditor(parent, { schema, onChange });
        editor.setReadOnly(kept.readOnly);
        editor.setText(kept.text);
        editor.setDiagnostics(kept.diagnostics);
        if (kept.focus) editor.focus();
        return editor;
      },
      (e) => {
        placeholder.removeAttribute('aria-busy');
        note.textContent = `The JSON editor could not load (${e?.message ?? e}); reload the page to try again.`;
        note.classList.add('error');
        throw e;
      },
    ));
  Promise.resolve(when).then(load, load);
  placeholder.addEventListener('pointerdown', () => load().catch(() => {}));
  placeholder.addEventListener('focus', () => {
    kept.focus = true;
    load().catch(() => {});
  });

  return {
    setText(text) {
      kept.text = text;
      if (editor) editor.setText(text);
      else preview.textContent = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}\n…` : text;
    },
    setDiagnostics(diagnostics) {
      kept.diagnostics = diagnostics;
      editor?.setDiagnostics(diagnostics);
    },
    setReadOnly(on) {
      kept.readOnly = on;
      editor?.setReadOnly(on);
    },
    focus() {
      kept.focus = true;
      if (editor) editor.focus();
      else load().catch(() => {});
    },
    hasFocus: () => editor?.hasFocus() ?? false,
    load,
    get view() {
      return editor?.view ?? null;
    },
  };
}
