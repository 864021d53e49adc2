// embed-params.js — what an embed's query string asks for (docs: README "Embedding").
//
// Contract (pure, no DOM, no imports of the link codec, so an embed's first script reads it cheaply):
//   parseMode(search) → {embed, editable, showJson, showCode, theme, compare, select, onnx} from the query string:
//     ?embed            embed mode (embed=0 or embed=false: off; the same for each flag)
//     &editable &json &code   the edit tools, the JSON box, the largest kernel's generated code
//     &theme=dark|light the colour theme for this visit: theme is 'dark', 'light' or null (not given, or another
//                       value: the page's own choice, theme/theme.js); the page and the light embed apply it
//     &compare=A,B      the compare view on strategies A and B: compare is [A, B], or {error} in words when the
//                       value is not two strategy names; null when absent
//     &select=WHAT      what starts selected, its explanation open: the text (parseSelect reads it), or null
//     &onnx=URL         a model to import (onnx is true)
//   usesPage(mode) → true when an embed needs the page's own code (the edit tools, the JSON box, the compare
//     view, an ONNX import); the light embed (embed/) shows everything else.
//   parseSelect(text) → {kind:'op', name} | {kind:'edge', producer, consumer} | {kind:'kernel', id} | {error}:
//     select=op:NAME, select=edge:PRODUCER>CONSUMER (op names), select=kernel:N (the drawing's "kernel N").
//   resolveSelect(spec, graph, plan) → {target} (a selection: {kind:'op', id: op index} | {kind:'group', id} |
//     {kind:'edge', id:{producer, consumer}}) or {error} in words naming what was not found. An op is found by
//     its name, else by its index (op:3).
// Shown by tests/web/embed-params.test.mjs.

import { isChoicePair } from '../state/options.js';

const SELECT_FORM = 'write it as select=op:NAME, select=edge:PRODUCER>CONSUMER or select=kernel:N';

function comparePair(value) {
  const pair = value.split(',').map((s) => s.trim().toLowerCase());
  if (isChoicePair(pair)) return pair;
  return { error: `compare=${value.slice(0, 60)} is not two strategy names; write it as compare=xla,tvm.` };
}

export function parseMode(search) {
  const q = new URLSearchParams(search);
  const flag = (k) => q.has(k) && q.get(k) !== '0' && q.get(k) !== 'false';
  return {
    embed: flag('embed'),
    editable: flag('editable'),
    showJson: flag('json'),
    showCode: flag('code'),
    theme: ['dark', 'light'].includes(q.get('theme')) ? q.get('theme') : null,
    compare: q.get('compare') ? comparePair(q.get('compare')) : null,
    select: q.get('select') || null,
    onnx: q.has('onnx'),
  };
}

export const usesPage = (mode) => !mode.embed || mode.editable || mode.showJson || Boolean(mode.compare) || mode.onnx;

export function parseSelect(text) {
  const m = /^(op|edge|kernel):(.+)$/s.exec(String(text).trim());
  if (!m) return { error: `select=${String(text).slice(0, 60)} is not understood: ${SELECT_FORM}.` };
  const [, kind, rest] = m;
  if (kind === 'op') return { kind, name: rest };
  if (kind === 'kernel') {
    if (!/^\d+$/.test(rest)) return { error: `select=kernel:${rest.slice(0, 40)}: N must be a kernel number.` };
    return { kind, id: Number(rest) };
  }
  const ends = rest.split('>');
  if (ends.length !== 2 || !ends[0] || !ends[1])
    return { error: `select=edge:${rest.slice(0, 60)}: ${SELECT_FORM} (one '>' between two op names).` };
  return { kind, producer: ends[0], consumer: ends[1] };
}

// The index of the op named name (or numbered so), or -1.
function opIndex(graph, name) {
  const byName = graph.ops.findIndex((op) => op.name === name);
  if (byName >= 0) return byName;
  return /^\d+$/.test(name) && Number(name) < graph.ops.length ? Number(name) : -1;
}

export function resolveSelect(spec, graph, plan) {
  const s = typeof spec === 'string' ? parseSelect(spec) : spec;
  if (s.error) return s;
  const missing = (name) => ({ error: `select: there is no op called “${name.slice(0, 60)}” in this graph.` });
  if (s.kind === 'op') {
    const i = opIndex(graph, s.name);
    return i < 0 ? missing(s.name) : { target: { kind: 'op', id: i } };
  }
  if (s.kind === 'kernel') {
    if (!plan.groups.some((g) => g.id === s.id))
      return { error: `select: there is no kernel ${s.id} in this plan (it has ${plan.groups.length}).` };
    return { target: { kind: 'group', id: s.id } };
  }
  const producer = opIndex(graph, s.producer);
  const consumer = opIndex(graph, s.consumer);
  if (producer < 0) return missing(s.producer);
  if (consumer < 0) return missing(s.consumer);
  if (!plan.edges.some((e) => e.producer === producer && e.consumer === consumer))
    return { error: `select: there is no edge from ${s.producer.slice(0, 40)} to ${s.consumer.slice(0, 40)}.` };
  return { target: { kind: 'edge', id: { producer, consumer } } };
}
