// view-model.js — what the graph view draws: ops, fusion groups and edges, from a graph and its plan.
//
// Contract: buildViewModel(graph, plan) with plan.ok === true → {nodes, groups, edges}:
//   nodes:  {id:'op<i>', op:i, label, kind, category, group, output, shape, dtype, parent, bytes, heat, copies}
//   groups: {id:'g<k>', group:k, ops, multi, color, label, rule}   (multi: more than one op → drawn as a
//           cluster; label: the planner's pattern label, rule: the compiler behaviour that formed the group,
//           both as the plan gives them, '' when none)
//   edges:  {id, source, target, producer, consumer, fused, reason, detail, color}
// copies: the ids of the groups that hold op i besides its own (recomputed copies), [] for most ops. A fused
// edge takes the colour of the consumer's group (its producer may be a recomputed copy drawn elsewhere).
//   heat:   the legend bins of the bytes-moved colouring (byte-heat.js)
// bytes is the plan's op_bytes_unfused[i] (null when absent); heat is its bin {color, ink} or null.
// Everything about fusion (membership, outputs, fused/reason) is read from the plan; the graph only
// supplies labels and kinds. Pure; no DOM. Shown by tests/web/view-model.test.mjs.

import { categoryOf, canonicalKind } from '../graph/op-kinds.js';
import { opLabel } from '../graph/graph-text.js';
import { byteHeat } from './byte-heat.js';
import { groupsOfOps } from './group-rows.js';

// Group colours (colour-blind friendly, readable behind dark text at low opacity).
export const GROUP_COLORS = [
  '#4e79a7',
  '#f28e2b',
  '#59a14f',
  '#e15759',
  '#76b7b2',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#17becf',
];

export function buildViewModel(graph, plan) {
  const outputs = new Set(plan.groups.flatMap((g) => g.outputs ?? []));
  let multiCount = 0;
  const groups = plan.groups.map((g) => {
    const multi = g.ops.length > 1;
    return {
      id: `g${g.id}`,
      group: g.id,
      ops: g.ops,
      multi,
      color: multi ? GROUP_COLORS[multiCount++ % GROUP_COLORS.length] : null,
      label: g.label ?? '',
      rule: g.rule ?? '',
    };
  });
  const groupById = new Map(groups.map((g) => [g.group, g]));
  const heat = byteHeat(plan.op_bytes_unfused);
  const holders = groupsOfOps(plan);
  const nodes = graph.ops.map((op, i) => {
    const g = groupById.get(plan.op_group[i]);
    return {
      id: `op${i}`,
      op: i,
      label: opLabel(graph, i),
      kind: canonicalKind(op.kind),
      category: categoryOf(op.kind),
      group: plan.op_group[i],
      output: outputs.has(i),
      shape: op.shape,
      dtype: op.dtype ?? `${op.dtype_bytes} B`,
      parent: g?.multi ? g.id : null,
      color: g?.color ?? null,
      bytes: plan.op_bytes_unfused?.[i] ?? null,
      heat: heat.bins[heat.binOf[i]] ?? null,
      copies: (holders.get(i) ?? []).filter((k) => k !== plan.op_group[i]),
    };
  });
  const seen = new Set();
  const edges = [];
  for (const e of plan.edges) {
    const id = `e${e.producer}-${e.consumer}`;
    if (seen.has(id)) continue;
    seen.add(id);
    edges.push({
      id,
      source: `op${e.producer}`,
      target: `op${e.consumer}`,
      producer: e.producer,
      consumer: e.consumer,
      fused: !!e.fused,
      reason: e.fused ? null : e.reason,
      detail: e.detail ?? null,
      color: e.fused ? (nodes[e.consumer]?.color ?? nodes[e.producer]?.color ?? null) : null,
    });
  }
  return { nodes, groups, edges, heat: heat.bins };
}
