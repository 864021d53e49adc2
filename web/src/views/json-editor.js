// json-editor.js — the JSON box: CodeMirror 6 with JSON highlighting, completion of fields, kinds and
// dtypes from the graph JSON Schema (schema-complete.js), and diagnostics supplied by the planner.
//
// Contract: createJsonEditor(parent, {schema, onChange}) → {setText, setDiagnostics, setReadOnly, focus,
// hasFocus, view}. onChange(text) fires on every edit by the person (not on setText). setDiagnostics takes
// diagnostics.js output; the editor never validates by itself (the planner is the one source of errors).
// Its colours are the page's (styles.css: --cm-* for the JSON tokens, in the light and the dark theme).
// Browser-only; shown by tests/browser/page-editor.test.mjs.

import { EditorView, basicSetup } from 'codemirror';
import { EditorState, Compartment, Annotation } from '@codemirror/state';
import { keymap } from '@codemirror/view';
import { json } from '@codemirror/lang-json';
import { autocompletion } from '@codemirror/autocomplete';
import { setDiagnostics, lintGutter } from '@codemirror/lint';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { schemaCompletions } from '../graph/schema-complete.js';

const external = Annotation.define();

// JSON's tokens in the page's theme colours (CSS custom properties, so a theme switch needs no reconfiguring).
const themed = HighlightStyle.define([
  { tag: tags.propertyName, color: 'var(--cm-key)' },
  { tag: tags.string, color: 'var(--cm-string)' },
  { tag: tags.number, color: 'var(--cm-number)' },
  { tag: [tags.bool, tags.null, tags.keyword], color: 'var(--cm-keyword)' },
  { tag: [tags.punctuation, tags.separator, tags.brace, tags.squareBracket], color: 'var(--cm-punct)' },
]);

export function createJsonEditor(parent, { schema, onChange }) {
  const readOnly = new Compartment();
  let known = ''; // the document's text as last set or typed (saves re-reading a multi-MB document)
  let marked = false; // diagnostics are on screen
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: '',
      extensions: [
        basicSetup,
        json(),
        syntaxHighlighting(themed),
        autocompletion({ override: [(ctx) => schemaCompletions(ctx.state.doc.toString(), ctx.pos, schema)] }),
        lintGutter(),
        EditorView.lineWrapping,
        readOnly.of([]),
        keymap.of([]),
        EditorView.contentAttributes.of({ 'aria-label': 'Graph JSON', 'data-testid': 'json-text' }),
        EditorView.updateListener.of((u) => {
          if (!u.docChanged) return;
          known = u.state.doc.toString();
          if (!u.transactions.some((t) => t.annotation(external))) onChange(known);
        }),
      ],
    }),
  });
  return {
    view,
    setText(text) {
      if (text === known) return;
      known = text;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, annotations: external.of(true) });
    },
    setDiagnostics(diags) {
      if (!diags.length && !marked) return; // no transaction (and no forced layout) when nothing changes
      marked = diags.length > 0;
      const len = view.state.doc.length;
      const clamp = (d) => ({ ...d, from: Math.min(d.from, len), to: Math.min(Math.max(d.to, d.from), len) });
      view.dispatch(setDiagnostics(view.state, diags.map(clamp)));
    },
    setReadOnly(on) {
      view.dispatch({
        effects: readOnly.reconfigure(on ? [EditorState.readOnly.of(true), EditorView.editable.of(false)] : []),
      });
    },
    focus: () => view.focus(),
    hasFocus: () => view.hasFocus,
  };
}
