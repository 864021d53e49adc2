// watch-search.js — runs the plan search (docs/design.md §17) for the plan on screen while the Optimal switch is
// on, on the search worker (search-client.js), and stops it when it is no longer wanted.
//
// Contract: watchSearch(store, searcher, {now?}) subscribes to the store. A search is wanted when state.optimal
// (the node budget) is set and the greedy plan on screen is current (events.js isStale false, no error); it is
// asked for once per (text, options, budget): {type:'search-started', text, options, budget, started: now()} is
// dispatched, searcher.search(text, {...options, search: {mode: 'optimal', budget_nodes: budget}}) runs, and its
// answer is dispatched as {type:'search-result', text, options, budget, result, ms}. The running search is
// cancelled (searcher.cancel(): its worker ends) when the person cancels it (state.search.status 'cancelled'),
// turns Optimal off, or changes the text, the options or the budget; the greedy plan stays shown meanwhile.
// Returns the unsubscribe function. Nothing is computed here. Shown by tests/browser/page-search.test.mjs.
import { isSearchCurrent, isStale } from '../state/events.js';

const keyOf = ({ text, options, optimal }) => JSON.stringify([options, optimal, text.length]);

export function watchSearch(store, searcher, { now = () => performance.now() } = {}) {
  let running = null; // {text, key}

  // The (text, options, budget) a search is wanted for now, or null.
  const wanted = (state) =>
    state.optimal && state.plan && !state.error && !isStale(state) ? { text: state.text, key: keyOf(state) } : null;

  function start(state) {
    const { text, options, optimal: budget } = state;
    const job = { text, key: keyOf(state) };
    running = job;
    queueMicrotask(() => store.dispatch({ type: 'search-started', text, options, budget, started: now() }));
    searcher.search(text, { ...options, search: { mode: 'optimal', budget_nodes: budget } }).then((answer) => {
      if (running !== job) return;
      running = null;
      if (!answer.cancelled)
        store.dispatch({ type: 'search-result', text, options, budget, result: answer.result, ms: answer.ms });
    });
  }

  return store.subscribe((state) => {
    const want = wanted(state);
    const same = running && want && running.text === want.text && running.key === want.key;
    if (running && (!same || (state.search?.status === 'cancelled' && isSearchCurrent(state)))) {
      running = null;
      searcher.cancel();
    }
    if (want && !running && !isSearchCurrent(state)) start(state);
  });
}
