// watch-sweep.js — asks the planner for the size chart's sweep: the plan across one named dimension
// (docs/design.md §16) whenever the graph, the other options or the chosen name change.
//
// Contract: watchSweep(store, planner, {range(state, dim) → {from, to}, debounceMs = 150, after}) subscribes to
// the store. No sweep is sent before the promise after (the page's first drawn plan) settles: a sweep needs the
// full WASM module, whose download and compile must not compete with the first plan's drawing. When the plan on screen is current (events.js isStale is false, no error) and has named dimensions,
// the chart's name is dims.js chartDim(state) (the name picked, else the plan's first); the request is
// planner.sweep(text, sweepOptions(options, dim), {dim, from, to}) (dims.js: the name's own value left out,
// so dragging that name's slider never asks again), debounced (any change of text or options restarts the
// wait: no sweep runs while another name's slider is being dragged) and one at a time, only the newest waiting
// (latest-only.js). A sweep that fails with byte_overflow (the sizes at the top of the range pass 2^53 bytes)
// is asked again with `to` a sixteenth as large, down to `from`; the first failure rides along as `overflow`.
// The answer is dispatched as {type:'sweep-result', text, options, dim, to, result, overflow}. Returns the
// unsubscribe function. Nothing is computed here: the rows and change points are the planner's.
// Shown by tests/browser/page-dims.test.mjs.

import { isStale } from '../state/events.js';
import { chartDim, sweepOptions } from '../state/dims.js';
import { createLatestOnly } from './latest-only.js';

export function watchSweep(store, planner, { range, debounceMs = 150, after = Promise.resolve() }) {
  let sent = null; // the key of the last sweep asked for
  let waiting = null; // the key of the sweep waiting on the timer
  let timer = null;
  const queue = createLatestOnly(async ({ text, options, dim, from, to }) => {
    await after;
    await planner.ready.catch(() => {});
    let top = to;
    let overflow = null;
    let result = await planner.sweep(text, options, { dim, from, to: top });
    while (!result.ok && result.error?.code === 'byte_overflow' && top > from) {
      overflow ??= result.error;
      top = Math.max(from, Math.floor(top / 16));
      result = await planner.sweep(text, options, { dim, from, to: top });
    }
    store.dispatch({ type: 'sweep-result', text, options, dim, to: top, result, overflow });
  });
  return store.subscribe((state, prev) => {
    // A change of text or options (a slider still moving) puts off the sweep waiting, if any.
    if (state.text !== prev?.text || state.options !== prev?.options) {
      clearTimeout(timer);
      waiting = null;
    }
    const dim = chartDim(state);
    if (!dim || state.error || isStale(state)) return;
    const { from, to } = range(state, dim);
    const options = sweepOptions(state.options, dim);
    const key = JSON.stringify([state.text, options, dim, from, to]);
    if (key === sent || key === waiting) return;
    waiting = key;
    clearTimeout(timer);
    const job = { text: state.text, options, dim, from, to };
    timer = setTimeout(() => {
      sent = key;
      waiting = null;
      queue.push(job);
    }, debounceMs);
  });
}
