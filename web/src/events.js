// events.js — every change to the page state is one of these events; reduce() applies one.
//
// Contract: reduce(state, event, ctx) → new state; pure (ctx.examples maps example id → graph text).
// The event list is closed: an unknown type throws (a bug, not a user error).
//   {type:'restore', state:{example, text?, options}}   open a link or a draft
//   {type:'load-example', id}                           pick from the gallery
//   {type:'set-text', text}                             typing or pasting in the JSON box
//   {type:'edit-graph', edit}                           an edit on the graph (see applyEdit)
//   {type:'set-option', key, value}                     broadcast / resident_sources
//   {type:'select', target}                             {kind:'op'|'group'|'edge', id} or null
//   {type:'set-color-by', value}                        colour ops by 'group' (kernel) or 'bytes' moved
//   {type:'undo'} | {type:'redo'}                       graph edits, examples, options (typing coalesced)
//   {type:'plan-result', text, options, result}         the planner answered (stale answers are ignored)
//   {type:'notice', level, message} | {type:'dismiss-notice'}
// State: {example, text, options, graph, plan, error, planned, selection, colorBy, notice, past, future,
// lastEvent}.
// `graph`/`plan` are the last graph that planned OK and its plan: they stay while the text is broken.
// Shown by tests/web/events.test.mjs.

import { parseGraphText, formatGraph } from './graph-text.js';
import { DEFAULT_OPTIONS } from './url-state.js';
import * as edits from './graph-edit.js';

export function initialState() {
  return {
    example: null, text: '', options: { ...DEFAULT_OPTIONS }, graph: null, plan: null, error: null,
    planned: null, selection: null, colorBy: 'group', notice: null, past: [], future: [], lastEvent: null,
  };
}

const HISTORY_LIMIT = 200;
export const COLOR_BY = ['group', 'bytes'];
const snapshot = (s) => ({ example: s.example, text: s.text, options: s.options });

// Record the current content on the undo stack before a change (typing coalesces into one entry).
function remember(state, event) {
  if (event.type === 'set-text' && state.lastEvent === 'set-text') return state;
  return { ...state, past: [...state.past, snapshot(state)].slice(-HISTORY_LIMIT), future: [] };
}

// A graph edit as a pure graph → graph function.
export function applyEdit(graph, edit) {
  switch (edit.type) {
    case 'add': return edits.addOp(graph, edit.op);
    case 'remove': return edits.removeOp(graph, edit.op);
    case 'connect': return edits.connect(graph, edit.producer, edit.consumer);
    case 'disconnect': return edits.disconnect(graph, edit.producer, edit.consumer);
    case 'update': return edits.updateOp(graph, edit.op, edit.patch);
    default: throw new Error(`unknown graph edit ${edit.type}`);
  }
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
      return { ...state, example: example ?? null, text, options: { ...DEFAULT_OPTIONS, ...options }, selection: null, past: [], future: [] };
    }
    case 'load-example': {
      if (!(event.id in ctx.examples)) return { ...state, notice: { level: 'error', message: `There is no example called “${event.id}”.` } };
      return { ...remember(state, event), example: event.id, text: ctx.examples[event.id], selection: null };
    }
    case 'set-text':
      if (event.text === state.text) return state;
      return { ...remember(state, event), text: event.text };
    case 'edit-graph': {
      const parsed = parseGraphText(state.text);
      if (!parsed.ok) return { ...state, notice: { level: 'error', message: 'Fix the JSON first: the graph can be edited once the text parses.' } };
      const graph = applyEdit(parsed.graph, event.edit);
      const edit = event.edit.type === 'add' ? { ...event.edit, index: graph.ops.length - 1 } : event.edit;
      return { ...remember(state, event), text: formatGraph(graph), selection: selectionAfter(state.selection, edit) };
    }
    case 'set-option':
      if (!(event.key in DEFAULT_OPTIONS)) throw new Error(`unknown option ${event.key}`);
      return { ...remember(state, event), options: { ...state.options, [event.key]: !!event.value } };
    case 'select':
      return { ...state, selection: event.target ?? null };
    case 'set-color-by':
      if (!COLOR_BY.includes(event.value)) throw new Error(`unknown colouring ${event.value}`);
      return event.value === state.colorBy ? state : { ...state, colorBy: event.value };
    case 'undo': {
      if (!state.past.length) return state;
      const prev = state.past[state.past.length - 1];
      return { ...state, ...prev, past: state.past.slice(0, -1), future: [snapshot(state), ...state.future], selection: null };
    }
    case 'redo': {
      if (!state.future.length) return state;
      const [next, ...rest] = state.future;
      return { ...state, ...next, past: [...state.past, snapshot(state)], future: rest, selection: null };
    }
    case 'plan-result': {
      const { text, options, result } = event;
      if (text !== state.text || JSON.stringify(options) !== JSON.stringify(state.options)) return state;
      const planned = { text, options };
      if (!result.ok) return { ...state, error: result, planned };
      const parsed = parseGraphText(text);
      if (!parsed.ok) return { ...state, error: result, planned };
      return { ...state, graph: parsed.graph, plan: result, error: null, planned };
    }
    case 'notice':
      return { ...state, notice: { level: event.level ?? 'info', message: event.message } };
    case 'dismiss-notice':
      return { ...state, notice: null };
    default:
      throw new Error(`unknown event ${event.type}`);
  }
}

export function reduce(state, event, ctx = { examples: {} }) {
  const next = step(state, event, ctx);
  return next === state ? state : { ...next, lastEvent: event.type };
}

// True while the text or options shown differ from what the plan on screen was computed for.
export function isStale(state) {
  return !state.planned || state.planned.text !== state.text ||
    JSON.stringify(state.planned.options) !== JSON.stringify(state.options);
}
