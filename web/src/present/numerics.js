// numerics.js — what the planner's numerics (docs/design.md §18) look like on the page, as pure data.
//
// Contract (pure, no DOM): numericsView(graph, plan) → null when the plan has no numerics, else {notes: [{group,
// kind, tag, ops, message}], outputs: [{op, name, dtype, elements, maxAbs, maxRel, maxUlp, special}], skipped:
// [{op, name, reason}], evaluated, parity, parityCost}: every figure is the planner's, only arranged.
// noteTag(kind) → a short tag for a note kind ('rounding' → 'rounding dropped'); groupBadge(group) → null for
// a group without notes, else {text, title} ('3 numerics notes', the messages one per line). NUMERICS_KINDS
// lists the kinds in the planner's order. Shown by tests/web/numerics.test.mjs.
import { opLabel } from '../graph/graph-text.js';

export const NUMERICS_KINDS = ['rounding', 'contraction', 'reduction_order', 'nan', 'cast'];

const TAGS = {
  rounding: 'rounding dropped',
  contraction: 'FMA',
  reduction_order: 'sum order',
  nan: 'NaN choice',
  cast: 'cast pair',
};

export const noteTag = (kind) => TAGS[kind] ?? kind;

export function groupBadge(group) {
  const notes = group?.numerics ?? [];
  if (!notes.length) return null;
  const kinds = [...new Set(notes.map((n) => noteTag(n.kind)))].join(', ');
  return {
    text: `${notes.length} ${notes.length === 1 ? 'note' : 'notes'}: ${kinds}`,
    title: notes.map((n) => `${noteTag(n.kind)}: ${n.message}`).join('\n'),
  };
}

export function numericsView(graph, plan) {
  const report = plan?.numerics;
  if (!report) return null;
  const name = (op) => (graph ? opLabel(graph, op) : `#${op}`);
  return {
    notes: plan.groups.flatMap((g) =>
      (g.numerics ?? []).map((n) => ({
        group: g.id,
        kind: n.kind,
        tag: noteTag(n.kind),
        ops: n.ops,
        message: n.message,
      })),
    ),
    outputs: report.outputs.map((o) => ({
      op: o.op,
      name: name(o.op),
      dtype: o.dtype,
      elements: o.elements,
      maxAbs: o.max_abs,
      maxRel: o.max_rel,
      maxUlp: o.max_ulp,
      special: o.mismatched_special,
    })),
    skipped: report.skipped.map((s) => ({ op: s.op, name: name(s.op), reason: s.reason })),
    evaluated: report.evaluated,
    parity: report.parity,
    parityCost: report.parity ? report.parity_cost_bytes : null,
  };
}
