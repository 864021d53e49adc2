// expansion.js — which fusion groups the graph draws open: the `expanded` part of the page state.
//
// Contract (pure, no DOM): an expansion state (state.expanded in events.js) is null (the default for the
// graph's size: graphs of more than COLLAPSE_ABOVE ops open with every multi-op group collapsed) or
// {all: boolean, except: [group ids], ops}: group k is open when `all` differs from `except.includes(k)`.
// A state made for a graph of another op count (`ops`) no longer applies: the default does.
//   isOpen(expanded, k, opCount) → boolean;
//   toggleGroup(expanded, k, opCount), openGroup(expanded, k, opCount), setAll(open, opCount),
//   expandTo(expanded, k|'all', open, opCount) → a new expansion state (openGroup and expandTo return the
//   state unchanged when it already says so).
// Not here: what a closed group looks like on screen (present/collapse.js). Shown by
// tests/web/expansion.test.mjs.

export const COLLAPSE_ABOVE = 300;

export const setAll = (open, opCount) => ({ all: !!open, except: [], ops: opCount });
const current = (expanded, opCount) =>
  expanded?.ops === opCount ? expanded : setAll(opCount <= COLLAPSE_ABOVE, opCount);

export function isOpen(expanded, group, opCount) {
  const s = current(expanded, opCount);
  return s.all !== s.except.includes(group);
}

// Flip one group.
export function toggleGroup(expanded, group, opCount) {
  const s = current(expanded, opCount);
  const except = s.except.includes(group) ? s.except.filter((g) => g !== group) : [...s.except, group];
  return { all: s.all, except, ops: opCount };
}

// Open one group (unchanged state when it is already open).
export function openGroup(expanded, group, opCount) {
  return isOpen(expanded, group, opCount) ? expanded : toggleGroup(expanded, group, opCount);
}

// The expansion state after an 'expand' event: group k (or 'all') opened or closed.
export function expandTo(expanded, group, open, opCount) {
  if (group === 'all') return setAll(open, opCount);
  return isOpen(expanded, group, opCount) === !!open ? expanded : toggleGroup(expanded, group, opCount);
}
