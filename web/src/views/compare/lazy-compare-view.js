// lazy-compare-view.js — the compare view, loaded the first time it is opened (its own chunk,
// compare-view-*.js), so the page's first plan never waits for it.
//
// Contract: createLazyCompareView(parent, deps) → {render(state), cy(side)}, as compare-view.js's
// createCompareView(parent, deps), which it imports when a state first has state.compare set. Meanwhile
// parent shows a "Loading the compare view…" line (aria-busy) and the latest state is kept; it is rendered
// once the view is there. If the import fails the line says so in words. cy(side) is null before loading.
// Browser-only; shown by tests/browser/page-compare.test.mjs.

import { h } from '../dom.js';

export function createLazyCompareView(parent, deps) {
  let view = null;
  let loading = null;
  let latest = null;
  const note = h('div', { class: 'lazy-loading', role: 'status', 'aria-busy': 'true', hidden: true });

  const load = () =>
    (loading ??= import('./compare-view.js').then(
      ({ createCompareView }) => {
        note.remove();
        view = createCompareView(parent, deps);
        view.render(latest);
      },
      (e) => {
        note.removeAttribute('aria-busy');
        note.textContent = `The compare view could not load (${e?.message ?? e}); reload the page to try again.`;
      },
    ));

  return {
    render(state) {
      latest = state;
      if (view) return view.render(state);
      if (!state.compare) return;
      if (!note.isConnected) {
        note.textContent = 'Loading the compare view…';
        note.hidden = false;
        parent.append(note);
      }
      load();
    },
    cy: (side) => view?.cy(side) ?? null,
  };
}
