// watch-plan.js — asks the planner for a plan whenever the text or the options change.
//
// Contract: watchPlan(store, planner, {debounceMs = 250, onEdit?, onPlanned?, onShown?}) subscribes to the
// store; for each (text, options) not asked for yet it calls planner.plan(text, options) — after debounceMs
// while typing ('set-text'), at once otherwise; a newer change cancels a request still waiting — and
// dispatches {type:'plan-result', text, options, result} (answers to older requests are dropped by the
// reducer, events.js). One request runs at a time: changes made meanwhile (a size slider dragged) leave
// only the newest waiting (latest-only.js), so the page never falls behind a fast gesture.
// onEdit() when a person's change (set-text, edit-graph, set-option, set-dim) asks for a plan;
// onPlanned(ms) with the plan's time, before the result is dispatched (the status line shows it);
// onShown() after a result that planned OK has been dispatched (and so drawn in numbers). Returns the
// unsubscribe function. Nothing is computed here. Shown by tests/browser/page-edit.test.mjs (typing replans),
// page.test.mjs and page-dims.test.mjs (dragging a size).

import { createLatestOnly } from './latest-only.js';

const EDITS = ['set-text', 'edit-graph', 'set-option', 'set-dim'];

export function watchPlan(
  store,
  planner,
  { debounceMs = 250, onEdit = () => {}, onPlanned = () => {}, onShown = () => {} } = {},
) {
  let requested = null;
  let timer = null;
  const queue = createLatestOnly(async ({ text, options }) => {
    await planner.ready.catch(() => {});
    const t0 = performance.now();
    const result = await planner.plan(text, options);
    onPlanned(performance.now() - t0);
    store.dispatch({ type: 'plan-result', text, options, result });
    if (result.ok) onShown();
  });
  return store.subscribe((state, prev, event) => {
    const { text, options } = state;
    const key = JSON.stringify(options); // the text is compared as it is (a big graph's text is long)
    if (text === requested?.text && key === requested.key) return;
    requested = { text, key };
    if (EDITS.includes(event?.type)) onEdit();
    clearTimeout(timer);
    timer = setTimeout(() => queue.push({ text, options }), event?.type === 'set-text' ? debounceMs : 0);
  });
}
