// options.js — the planner options the page state holds: their defaults and the form of a choice name.
//
// Contract (pure, no DOM): DEFAULT_OPTIONS are the two switches every state carries ({broadcast,
// resident_sources}); DEFAULT_CHOICES are the planner's defaults for the named choices ({strategy, hardware}:
// what an option left out means; a state names a choice only when it differs). isChoiceName(v) → true for a
// string of the form of a strategy or hardware name (lower-case letters, digits, '_' and, not first, '-', as in
// 'xla-classic'; 1–32 characters);
// whether such a strategy or device exists is the planner's call. isChoicePair(v) → true for [A, B], two
// choice names (the compare view's strategies). The reducer (events.js), drafts, share links (share/) and the
// custom element (element/) read these; nothing here imports from them. The default values are the core's
// (catalog().defaults, generated into wasm/generated/catalog.mjs by tools/write-catalog.mjs), not restated
// here. DEFAULT_SEARCH_BUDGET is the node budget the page's Optimal switch asks for (docs/design.md §17;
// a person's choice, sent as `{"mode": "optimal", "budget_nodes": N}`), SEARCH_BUDGETS the ones it offers,
// isSearchBudget(v) → true for a whole number from 1 to 10^9 (the core caps larger ones).
// Shown by tests/web/events.test.mjs and tests/web/url-state.test.mjs.
import catalog from '../../../wasm/generated/catalog.mjs';

const { broadcast, resident_sources: residentSources, strategy, hardware } = catalog.defaults;
export const DEFAULT_OPTIONS = Object.freeze({ broadcast, resident_sources: residentSources });
export const DEFAULT_CHOICES = Object.freeze({ strategy, hardware });

export const isChoiceName = (v) => typeof v === 'string' && /^[a-z0-9_][a-z0-9_-]{0,31}$/.test(v);
export const isChoicePair = (v) => Array.isArray(v) && v.length === 2 && v.every(isChoiceName);

export const DEFAULT_SEARCH_BUDGET = 200_000;
export const SEARCH_BUDGETS = Object.freeze([200_000, 2_000_000, 20_000_000, 200_000_000]);
export const isSearchBudget = (v) => Number.isInteger(v) && v >= 1 && v <= 1e9;
