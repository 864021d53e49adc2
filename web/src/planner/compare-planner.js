// compare-planner.js — asks the planner for the compare view's two plans whenever the text, the options or
// the pair changes while the view is open.
//
// Contract: watchCompare(store, planner) subscribes to the store; for state.compare = [A, B] it calls
// planner.planMany(text, [{...options, strategy: A}, {...options, strategy: B}]) (one request, two plans
// made by the WASM planner in its worker) after a short debounce while typing, and dispatches
// {type:'compare-result', text, options, pair, results}. A request already made is not repeated; one runs at
// a time and only the newest change waits meanwhile (latest-only.js: a size slider dragged); answers to older
// requests are dropped by the reducer. The pair 'search' asks for nothing here. Returns the unsubscribe function. Nothing is computed here.
// Shown by tests/browser/page-compare.test.mjs.

import { createLatestOnly } from './latest-only.js';

export function watchCompare(store, planner, { debounceMs = 250 } = {}) {
  let requested = null;
  let timer = null;
  const queue = createLatestOnly(async ({ text, options, pair }) => {
    await planner.ready.catch(() => {});
    const results = await planner.planMany(
      text,
      pair.map((strategy) => ({ ...options, strategy })),
    );
    store.dispatch({ type: 'compare-result', text, options, pair, results });
  });
  return store.subscribe((state, prev, event) => {
    if (!Array.isArray(state.compare)) {
      requested = null; // closed, or 'search' (greedy vs optimal: the search's own plans, watch-search.js)
      return;
    }
    const { text, options, compare: pair } = state;
    const key = JSON.stringify([text, options, pair]);
    if (key === requested) return;
    requested = key;
    clearTimeout(timer);
    timer = setTimeout(() => queue.push({ text, options, pair }), event?.type === 'set-text' ? debounceMs : 0);
  });
}
