// editor-status.js — the line under the JSON box and the editor's error marks; while the text is broken, a
// note over the graph says it shows the last valid plan.
//
// Contract: createEditorStatus({line, overlay, editor}) → {render(state)}. line says "Planning…" while the
// text or options differ from the plan shown (events.js isStale), the first planner error (+ how many more)
// when the text did not plan, else "✓ Valid graph: N ops, E edges."; editor gets the errors as diagnostics
// (graph/diagnostics.js places them; not the options' errors, invalid_options, which are not in the text); overlay
// is shown only for an error with a last valid plan on screen. The errors are the planner's; nothing is validated
// here. Browser-only; shown by
// tests/browser/page-editor.test.mjs.

import { summarize, toDiagnostics } from '../graph/diagnostics.js';
import { isStale } from '../state/events.js';

// The errors that are about the text: a bad option (invalid_options, e.g. a size typed in the Sizes panel, at
// /dims/N) is not marked in the JSON, whose own "dims" may hold the same path.
const inText = (error) => ({
  errors: (error.errors?.length ? error.errors : [error.error]).filter((e) => e?.code !== 'invalid_options'),
});

// What the note over the graph blames: the JSON, or (a graph with named dimensions) the sizes given.
function overlayCause(state) {
  const { code, path } = state.error?.error ?? {};
  if (code === 'invalid_options')
    return path?.startsWith('/dims/') ? 'This size does not plan' : 'The options do not plan';
  if (state.plan?.dims && code === 'unbound_dim') return 'A size has no value';
  if (state.plan?.dims && code === 'byte_overflow') return 'These sizes do not plan';
  return 'The JSON has an error';
}

export function createEditorStatus({ line, overlay, editor }) {
  return {
    render(state) {
      const stale = isStale(state);
      line.classList.toggle('error', !!state.error && !stale);
      line.classList.toggle('ok', !state.error && !stale && !!state.plan);
      if (stale) line.textContent = 'Planning…';
      else if (state.error) {
        const errs = state.error.errors?.length ? state.error.errors : [state.error.error];
        line.textContent = `${summarize(errs[0])}${errs.length > 1 ? ` (+${errs.length - 1} more)` : ''}`;
      } else if (state.plan)
        line.textContent = `✓ Valid graph: ${state.graph.ops.length} ops, ${state.plan.edges.length} edges.`;
      editor.setDiagnostics(!stale && state.error ? toDiagnostics(state.text, inText(state.error)) : []);
      overlay.hidden = !(state.error && state.plan && !stale);
      overlay.textContent = `${overlayCause(state)} — the graph shows the last valid plan.`;
    },
  };
}
