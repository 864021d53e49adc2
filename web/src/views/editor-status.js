// editor-status.js — the line under the JSON box and the editor's error marks; while the text is broken, a
// note over the graph says it shows the last valid plan.
//
// Contract: createEditorStatus({line, overlay, editor}) → {render(state)}. line says "Planning…" while the
// text or options differ from the plan shown (events.js isStale), the first planner error (+ how many more)
// when the text did not plan, else "✓ Valid graph: N ops, E edges."; editor gets the errors as diagnostics
// (graph/diagnostics.js places them); overlay is shown only for an error with a last valid plan on screen.
// The errors are the planner's; nothing is validated here. Browser-only; shown by
// tests/browser/page-editor.test.mjs.

import { summarize, toDiagnostics } from '../graph/diagnostics.js';
import { isStale } from '../state/events.js';

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
      editor.setDiagnostics(!stale && state.error ? toDiagnostics(state.text, state.error) : []);
      overlay.hidden = !(state.error && state.plan && !stale);
      overlay.textContent = 'The JSON has an error — the graph shows the last valid plan.';
    },
  };
}
