// group-rows.js — a plan's groups as table rows: pattern label, members with recomputed copies marked, numbers.
//
// Contract: groupRows(graph, plan) with plan.ok → one row per plan group, in plan order:
//   {id, label, rule, source, kernel, ops: [{op, name, recomputed, alsoIn}], inputs, outputs, bytesRead,
//    bytesWritten, flops, timeUs}
// An op recomputed in a group (plan group `recomputed`) appears in every group that holds it; in each row it
// carries recomputed: true when this group recomputes it, and alsoIn: the other groups holding it.
// label is the planner's pattern label ('' when none), rule its words for the compiler behaviour that formed the
// group (plan group `rule`, '' when none: single ops, the seed strategy); kernel is the plan group's `kernel`
// (the core decides whether a group runs a kernel), source its opposite (a group of sources only). Numbers are
// copied from the plan (null when absent), never computed. Pure; no DOM.
// Shown by tests/web/group-rows.test.mjs.

import { opLabel } from '../graph/graph-text.js';

// Op id → ids of the groups that hold it (owned or recomputed), in plan order.
export function groupsOfOps(plan) {
  const of = new Map();
  for (const g of plan.groups) for (const op of g.ops) of.set(op, [...(of.get(op) ?? []), g.id]);
  return of;
}

const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function groupRows(graph, plan) {
  const holders = groupsOfOps(plan);
  return plan.groups.map((g) => {
    const again = new Set(g.recomputed ?? []);
    const kernel = g.kernel === true;
    return {
      id: g.id,
      label: g.label ?? '',
      rule: g.rule ?? '',
      source: !kernel,
      kernel,
      ops: g.ops.map((op) => ({
        op,
        name: opLabel(graph, op),
        recomputed: again.has(op),
        alsoIn: (holders.get(op) ?? []).filter((k) => k !== g.id),
      })),
      inputs: g.inputs ?? [],
      outputs: g.outputs ?? [],
      bytesRead: num(g.bytes_read),
      bytesWritten: num(g.bytes_written),
      flops: num(g.flops),
      timeUs: num(g.time_us),
    };
  });
}
