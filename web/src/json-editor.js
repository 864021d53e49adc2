// json-editor.js — the JSON box: CodeMirror 6 with JSON highlighting, completion and hover docs from the
// graph JSON Schema (schema/graph.schema.json), and diagnostics supplied by the planner.
//
// Contract: createJsonEditor(parent, {schema, onChange}) → {setText, setDiagnostics, setReadOnly, focus,
// hasFocus, view}. onChange(text) fires on every edit by the person (not on setText). setDiagnostics takes
// diagnostics.js output; the editor never validates by itself (the planner is the one source of errors).
// Browser-only; shown by tests/browser/page-editor.test.mjs.

import { EditorView, basicSetup } from 'codemirror';
import { EditorState, Compartment, Annotation } from '@codemirror/state';
import { hoverTooltip, keymap } from '@codemirror/view';
import { json, jsonLanguage } from '@codemirror/lang-json';
import { setDiagnostics, lintGutter } from '@codemirror/lint';
import { jsonCompletion, jsonSchemaHover, stateExtensions } from 'codemirror-json-schema';

const external = Annotation.define();

export function createJsonEditor(parent, { schema, onChange }) {
  const readOnly = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: '',
      extensions: [
        basicSetup,
        json(),
        jsonLanguage.data.of({ autocomplete: jsonCompletion() }),
        hoverTooltip(jsonSchemaHover()),
        stateExtensions(schema),
        lintGutter(),
        readOnly.of([]),
        keymap.of([]),
        EditorView.contentAttributes.of({ 'aria-label': 'Graph JSON', 'data-testid': 'json-text' }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged && !u.transactions.some((t) => t.annotation(external))) onChange(u.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    view,
    setText(text) {
      if (view.state.doc.toString() === text) return;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, annotations: external.of(true) });
    },
    setDiagnostics(diags) {
      const len = view.state.doc.length;
      const clamp = (d) => ({ ...d, from: Math.min(d.from, len), to: Math.min(Math.max(d.to, d.from), len) });
      view.dispatch(setDiagnostics(view.state, diags.map(clamp)));
    },
    setReadOnly(on) {
      view.dispatch({ effects: readOnly.reconfigure(on ? [EditorState.readOnly.of(true), EditorView.editable.of(false)] : []) });
    },
    focus: () => view.focus(),
    hasFocus: () => view.hasFocus,
  };
}
