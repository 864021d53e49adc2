// store.js — the one object that owns the page state.
//
// Contract: createStore(ctx) → {getState, dispatch(event), subscribe(fn) → unsubscribe}. dispatch runs
// events.reduce and then calls every subscriber with (state, previousState, event) when the state changed.
// Views read state and dispatch events; they never change state directly. Shown by tests/web/events.test.mjs.

import { initialState, reduce } from './events.js';

export function createStore(ctx) {
  let state = initialState();
  const subscribers = new Set();
  return {
    getState: () => state,
    dispatch(event) {
      const prev = state;
      state = reduce(state, event, ctx);
      if (state !== prev) for (const fn of subscribers) fn(state, prev, event);
    },
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
  };
}
