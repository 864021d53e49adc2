// events.js — every change to the page state is one of these events; reduce() applies one.
//
// Contract: reduce(state, event, ctx) → new state; pure (ctx.examples maps example id → graph text).
// The event list is closed: an unknown type throws (a bug, not a user error).
//   {type:'restore', state:{example, text?, options}}   open a link or a draft
//   {type:'load-example', id}                           pick from the gallery
//   {type:'set-text', text}                             typing or pasting in the JSON box
//   {type:'import-graph', text, name}                   a model or graph file opened (file-open.js; undoable)
//   {type:'edit-graph', edit}                           an edit on the graph (see applyEdit)
//   {type:'set-option', key, value}                     broadcast / resident_sources (booleans), strategy /
//                                                       hardware (names; the default name removes the key),
//                                                       numerics (false, true or 'parity'; docs/design.md §18)
//   {type:'set-dim', name, value}                       a named dimension's value (options.dims, dims.js; null:
//                                                       back to the graph's default); a run of them is one undo
//   {type:'set-sweep-dim', dim}                         which name the size chart sweeps (null: the first)
//   {type:'sweep-result', text, options, dim, to, result, overflow?}  the planner's sweep of dim from 1 to `to`
//                                                       (planner/watch-sweep.js); kept when it is for the text
//   {type:'set-compare', pair}                          open the compare view on [A, B] strategies, on
//                                                       'search' (greedy vs optimal; turns Optimal on), or null
//   {type:'set-optimal', value}                         plan search (docs/design.md §17): false, true (the
//                                                       budget chosen before, else the default) or a budget
//   {type:'search-started', text, options, budget}      the search worker took the current plan's search
//   {type:'search-result', text, options, budget, result, ms}  its answer and the time the worker measured
//   {type:'search-cancel'}                              the person cancelled the running search
//   {type:'search-retry'}                               search again after a cancel (the search is dropped)
//   {type:'select', target}                             {kind:'op'|'group'|'edge', id} or null
//   {type:'expand', group, open}                        open or close fusion group k (or 'all') in the graph
//   {type:'set-color-by', value}                        colour ops by 'group' (kernel) or 'bytes' moved
//   {type:'undo'} | {type:'redo'}                       graph edits, examples, options (typing coalesced)
//   {type:'plan-result', text, options, result}         the planner answered (stale answers are ignored, but an
//                                                       answer for sizes a dragged slider has passed is shown)
//   {type:'compare-result', text, options, pair, results} both plans of the compare view ([A's, B's])
//   {type:'notice', level, message} | {type:'dismiss-notice'}
// State: {example, text, options, graph, graphText, plan, error, planned, selection, colorBy, notice, past,
// future, lastEvent, compare, compared, compareError, expanded, sweepDim, sweep, optimal, search}.
// `graph`/`plan` are the last graph that planned OK and its plan: they stay while the text is broken; graphText
// is the text `graph` was read from (a new plan of the same text keeps the same graph object).
// options.dims (dims.js) binds named dimensions; loading an example or importing a graph drops it (the new
// graph brings its own defaults). `sweep` is the last sweep-result for the current text ({text, options, dim,
// to, result, overflow}), `sweepDim` the name the chart follows.
// `expanded` says which fusion groups are drawn open (expansion.js; null: the default for the graph's size).
// `compare` is the compare view's pair of strategies (null when closed; a view choice, not undone);
// `compared` is {text, options, pair, graph, left, right}: the last pair of plans that both planned OK;
// `compareError` is {text, options, pair, message} when the latest pair did not plan (see compareErrorNow).
// `optimal` is the Optimal switch: null (off) or the node budget of the search (a view choice, not undone).
// `search` is the last search asked for: {text, options, budget, status: 'running' | 'done' | 'error' |
// 'cancelled', started (the time it began, for the ticking clock), greedy (the greedy plan it started from),
// result (the searched plan, when done), ms (measured in the worker), message (when it failed)}. While it runs
// the greedy plan stays in `plan`; once done `plan` is the searched plan (a later greedy answer for the same
// text and options keeps it). Turning Optimal off puts the greedy plan back (searchShown, isSearchCurrent).
// Shown by tests/web/events.test.mjs.

import { parseGraphText, formatGraph } from '../graph/graph-text.js';
import {
  DEFAULT_OPTIONS,
  DEFAULT_CHOICES,
  DEFAULT_SEARCH_BUDGET,
  isChoiceName,
  isChoicePair as isPair,
  isSearchBudget,
} from './options.js';
import * as edits from '../graph/graph-edit.js';
import { expandTo } from './expansion.js';
import { withDim } from './dims.js';

export function initialState() {
  return {
    example: null,
    text: '',
    options: { ...DEFAULT_OPTIONS },
    graph: null,
    plan: null,
    error: null,
    planned: null,
    selection: null,
    colorBy: 'group',
    notice: null,
    past: [],
    future: [],
    lastEvent: null,
    compare: null,
    compared: null,
    compareError: null,
    expanded: null,
    graphText: null,
    sweepDim: null,
    sweep: null,
    optimal: null,
    search: null,
  };
}

const HISTORY_LIMIT = 200;
export const COLOR_BY = ['group', 'bytes'];
const snapshot = (s) => ({ example: s.example, text: s.text, options: s.options });

// Record the current content on the undo stack before a change (typing, and dragging a size, coalesce into one
// entry).
const COALESCED = ['set-text', 'set-dim'];
function remember(state, event) {
  if (COALESCED.includes(event.type) && state.lastEvent === event.type) return state;
  return { ...state, past: [...state.past, snapshot(state)].slice(-HISTORY_LIMIT), future: [] };
}

// A graph edit as a pure graph → graph function.
export function applyEdit(graph, edit) {
  switch (edit.type) {
    case 'add':
      return edits.addOp(graph, edit.op);
    case 'remove':
      return edits.removeOp(graph, edit.op);
    case 'connect':
      return edits.connect(graph, edit.producer, edit.consumer);
    case 'disconnect':
      return edits.disconnect(graph, edit.producer, edit.consumer);
    case 'update':
      return edits.updateOp(graph, edit.op, edit.patch);
    default:
      throw new Error(`unknown graph edit ${edit.type}`);
  }
}

// Options with one option set: booleans as booleans; a strategy or hardware name, left out when it is the default.
function withOption(options, key, value) {
  if (key in DEFAULT_OPTIONS) return { ...options, [key]: !!value };
  if (key === 'numerics') return withNumerics(options, value);
  if (!(key in DEFAULT_CHOICES) || !isChoiceName(value)) throw new Error(`unknown option ${key}=${value}`);
  const { [key]: _, ...rest } = options;
  return value === DEFAULT_CHOICES[key] ? rest : { ...rest, [key]: value };
}

// The numerics option (docs/design.md §18): false removes it, true asks for notes and the evaluator, 'parity' for
// eager parity as well.
function withNumerics(options, value) {
  if (![false, true, 'parity'].includes(value)) throw new Error(`unknown option numerics=${value}`);
  const { numerics: _, ...rest } = options;
  if (value === false) return rest;
  return { ...rest, numerics: value === 'parity' ? { parity: true } : true };
}

const samePair = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const isComparePair = (v) => v === 'search' || isPair(v);

// The budget the Optimal switch asks for: false/null → off; true → the one chosen before (else the default).
function optimalValue(state, value) {
  if (value === false || value === null) return null;
  if (value === true) return state.optimal ?? DEFAULT_SEARCH_BUDGET;
  if (!isSearchBudget(value)) throw new Error(`bad search budget ${value}`);
  return value;
}

// Whether a search is for the current text, options and budget.
export function isSearchCurrent(state) {
  const s = state.search;
  return !!s && s.text === state.text && s.budget === state.optimal && samePair(s.options, state.options);
}

// Whether the plan on screen is the search's plan (so turning Optimal off puts the greedy one back).
export const searchShown = (state) => state.search?.status === 'done' && state.plan === state.search.result;

// The Optimal switch set: off puts the greedy plan back, drops the search (the watcher stops a running one) and
// closes greedy vs optimal in the compare view.
function setOptimal(state, value) {
  const optimal = optimalValue(state, value);
  if (optimal === state.optimal) return state;
  const plan = searchShown(state) ? state.search.greedy : state.plan;
  const compare = optimal === null && state.compare === 'search' ? null : state.compare;
  return { ...state, optimal, plan, search: null, compare };
}

// The search worker's answer, when it answers the search running for the current state.
function searchResult(state, { text, options, budget, result, ms }) {
  const s = state.search;
  if (s?.status !== 'running' || s.text !== text || s.budget !== budget || !samePair(s.options, options)) return state;
  if (!result?.ok) {
    const err = result?.errors?.[0] ?? result?.error;
    const message = err?.message ?? 'the search did not answer';
    return { ...state, search: { ...s, status: 'error', message, path: err?.path ?? null, ms } };
  }
  const search = { ...s, status: 'done', result, ms };
  return { ...state, search, plan: isSearchCurrent(state) && !isStale(state) ? result : state.plan };
}

// Options without the person's dimension values (a new graph brings its own defaults).
const withoutDims = ({ dims: _, ...options }) => options;

// Options with one dimension's value set (null: removed); no dims key when none is left.
function withDimOption(options, name, value) {
  const dims = withDim(options.dims, name, value);
  return Object.keys(dims).length ? { ...options, dims } : withoutDims(options);
}

// Both compare plans, when they answer the current text, options and pair (else the state is unchanged).
function compareResult(state, { text, options, pair, results }) {
  if (text !== state.text || !samePair(options, state.options) || !samePair(pair, state.compare)) return state;
  const parsed = parseGraphText(text);
  const failed = results.find((r) => !r.ok);
  if (failed || !parsed.ok) {
    const err = failed?.errors?.[0] ?? failed?.error;
    return {
      ...state,
      compareError: { text, options, pair, message: err?.message ?? 'the graph text is not a graph' },
    };
  }
  return {
    ...state,
    compareError: null,
    compared: { text, options, pair, graph: parsed.graph, left: results[0], right: results[1] },
  };
}

function selectionAfter(selection, edit) {
  if (edit.type === 'remove') return null;
  if (edit.type === 'add') return { kind: 'op', id: edit.index };
  return selection;
}

function step(state, event, ctx) {
  switch (event.type) {
    case 'restore': {
      const { example, options } = event.state;
      const text = event.state.text ?? ctx.examples[example] ?? '';
      return {
        ...state,
        example: example ?? null,
        text,
        options: { ...DEFAULT_OPTIONS, ...options },
        selection: null,
        past: [],
        future: [],
        compare: isComparePair(event.state.compare) ? structuredCopy(event.state.compare) : null,
        optimal: event.state.optimal ? optimalValue(state, event.state.optimal) : null,
        search: null,
      };
    }
    case 'load-example': {
      if (!(event.id in ctx.examples))
        return { ...state, notice: { level: 'error', message: `There is no example called “${event.id}”.` } };
      return {
        ...remember(state, event),
        example: event.id,
        text: ctx.examples[event.id],
        options: withoutDims(state.options),
        selection: null,
        expanded: null,
      };
    }
    case 'import-graph':
      return {
        ...remember(state, event),
        example: null,
        text: event.text,
        options: withoutDims(state.options),
        selection: null,
        expanded: null,
      };
    case 'set-text':
      if (event.text === state.text) return state;
      return { ...remember(state, event), text: event.text };
    case 'edit-graph': {
      const parsed = parseGraphText(state.text);
      if (!parsed.ok)
        return {
          ...state,
          notice: { level: 'error', message: 'Fix the JSON first: the graph can be edited once the text parses.' },
        };
      const graph = applyEdit(parsed.graph, event.edit);
      const edit = event.edit.type === 'add' ? { ...event.edit, index: graph.ops.length - 1 } : event.edit;
      return { ...remember(state, event), text: formatGraph(graph), selection: selectionAfter(state.selection, edit) };
    }
    case 'set-option':
      return { ...remember(state, event), options: withOption(state.options, event.key, event.value) };
    case 'set-dim':
      return { ...remember(state, event), options: withDimOption(state.options, event.name, event.value) };
    case 'set-sweep-dim':
      return event.dim === state.sweepDim ? state : { ...state, sweepDim: event.dim ?? null };
    case 'sweep-result': {
      const { text, options, dim, to, result, overflow = null } = event;
      if (text !== state.text) return state;
      return { ...state, sweep: { text, options, dim, to, result, overflow } };
    }
    case 'set-compare': {
      if (event.pair !== null && !isComparePair(event.pair))
        throw new Error(`bad compare pair ${JSON.stringify(event.pair)}`);
      const next = event.pair === 'search' ? setOptimal(state, true) : state;
      if (samePair(event.pair, state.compare)) return next;
      return { ...next, compare: structuredCopy(event.pair) };
    }
    case 'set-optimal':
      return setOptimal(state, event.value);
    case 'search-started': {
      const { text, options, budget } = event;
      if (text !== state.text || budget !== state.optimal || !samePair(options, state.options) || isStale(state))
        return state;
      const greedy = searchShown(state) ? state.search.greedy : state.plan;
      const search = { text, options, budget, status: 'running', started: event.started ?? null, greedy };
      return { ...state, search, plan: greedy };
    }
    case 'search-result':
      return searchResult(state, event);
    case 'search-retry':
      return state.search && state.search.status !== 'running' && state.search.status !== 'done'
        ? { ...state, search: null }
        : state;
    case 'search-cancel':
      return state.search?.status === 'running'
        ? { ...state, search: { ...state.search, status: 'cancelled' } }
        : state;
    case 'compare-result':
      return compareResult(state, event);
    case 'select':
      return { ...state, selection: event.target ?? null };
    case 'expand': {
      if (event.group !== 'all' && !Number.isInteger(event.group)) throw new Error(`bad group ${event.group}`);
      const expanded = expandTo(state.expanded, event.group, event.open, state.graph?.ops.length ?? 0);
      return expanded === state.expanded ? state : { ...state, expanded };
    }
    case 'set-color-by':
      if (!COLOR_BY.includes(event.value)) throw new Error(`unknown colouring ${event.value}`);
      return event.value === state.colorBy ? state : { ...state, colorBy: event.value };
    case 'undo': {
      if (!state.past.length) return state;
      const prev = state.past[state.past.length - 1];
      return {
        ...state,
        ...prev,
        past: state.past.slice(0, -1),
        future: [snapshot(state), ...state.future],
        selection: null,
      };
    }
    case 'redo': {
      if (!state.future.length) return state;
      const [next, ...rest] = state.future;
      return { ...state, ...next, past: [...state.past, snapshot(state)], future: rest, selection: null };
    }
    case 'plan-result': {
      const { text, options, result } = event;
      if (text !== state.text) return state;
      if (JSON.stringify(options) !== JSON.stringify(state.options) && !passedSize(state, options, result))
        return state;
      const planned = { text, options };
      if (!result.ok) return { ...state, error: result, planned };
      if (text === state.graphText) return keepSearched({ ...state, plan: result, error: null, planned });
      const parsed = parseGraphText(text);
      if (!parsed.ok) return { ...state, error: result, planned };
      return keepSearched({ ...state, graph: parsed.graph, graphText: text, plan: result, error: null, planned });
    }
    case 'notice':
      return { ...state, notice: { level: event.level ?? 'info', message: event.message } };
    case 'dismiss-notice':
      return { ...state, notice: null };
    default:
      throw new Error(`unknown event ${event.type}`);
  }
}

// A greedy plan answered for the text and options a finished search is for: the searched plan stays shown
// (and the new greedy plan becomes the one it is compared with).
function keepSearched(state) {
  if (!state.optimal || state.search?.status !== 'done' || !isSearchCurrent(state) || isStale(state)) return state;
  return { ...state, search: { ...state.search, greedy: state.plan }, plan: state.search.result };
}

// A compare pair as stored: a copy of [A, B], or 'search' / null as they are.
const structuredCopy = (pair) => (Array.isArray(pair) ? [...pair] : pair);

// Whether a plan answered for other sizes than the current ones is still shown: it planned, for the graph on
// screen, with the same options but its sizes (a slider dragged past them), and the plan on screen is older
// still. A drag then shows every answer the planner gives, not only those that arrive before the slider moves
// again; the state stays stale (isStale) until the answer for the slider's last position is in.
function passedSize(state, options, result) {
  const { dims: _, ...rest } = options ?? {};
  const { dims: __, ...now } = state.options;
  return (
    result.ok &&
    state.text === state.graphText &&
    !!state.plan &&
    isStale(state) &&
    JSON.stringify(rest) === JSON.stringify(now)
  );
}

export function reduce(state, event, ctx = { examples: {} }) {
  const next = step(state, event, ctx);
  return next === state ? state : { ...next, lastEvent: event.type };
}

// True while the compare view's plans were made for another text, options or pair than the current ones.
// (The 'search' pair shows the search's two plans, state.search, instead.)
export function isCompareStale(state) {
  const c = state.compared;
  return !c || c.text !== state.text || !samePair(c.options, state.options) || !samePair(c.pair, state.compare);
}

// The compare view's planning error for the current text, options and pair, or null.
export function compareErrorNow(state) {
  const e = state.compareError;
  return e && e.text === state.text && samePair(e.options, state.options) && samePair(e.pair, state.compare) ? e : null;
}

// True while the text or options shown differ from what the plan on screen was computed for.
export function isStale(state) {
  return (
    !state.planned ||
    state.planned.text !== state.text ||
    JSON.stringify(state.planned.options) !== JSON.stringify(state.options)
  );
}
