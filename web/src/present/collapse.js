// collapse.js — the view model with collapsed fusion groups folded: what the graph draws for an expansion state.
//
// Contract (pure, no DOM; which groups are open is the state's, web/src/state/expansion.js):
//   countCollapsed(plan, expanded, opCount) → {multi, closed}: multi-op groups, and how many of them are closed.
//   collapseViewModel(vm, plan, open(k)) → a view model of the same shape (view-model.js) where every
//   multi-op group with open(k) false is one node {id:'g<k>', collapsed:true, group:k, ops, label, sub, rule,
//   color, bytesRead, bytesWritten} (sub: the planner's pattern label, else "first … last" op; rule: the
//   group's rule as the view model has it; bytes are the plan's group bytes_read/bytes_written, as given); its
//   member ops and inner edges are gone, and edges to or from its members are merged into one edge per pair of
//   drawn nodes ({…, count}: how many plan edges it stands for; id and producer/consumer of the first; the reason
//   shown is a blocking one when any is). vm.nodeOf[i] is the id of the drawn node holding op i (a recomputed
//   copy stays with its owner). Open groups are left as they are.
//   drawnViewModel(graph, plan, expanded) → buildViewModel, then collapseViewModel by the expansion state; past
//   MAX_DRAWN boxes (countDrawn) an empty view model with tooMany: the box count (the page says so instead).
//   Linear in ops + edges. Not here: layout, drawing, any byte arithmetic. Shown by tests/web/collapse.test.mjs.

import { isOpen } from '../state/expansion.js';
import { isBlocked } from './reasons.js';
import { buildViewModel } from './view-model.js';

export const MAX_DRAWN = 15_000; // boxes; a bigger drawing would hold the page for seconds per frame

// How many groups of a plan have several ops (multi), and how many of those are drawn collapsed (closed).
export function countCollapsed(plan, expanded, opCount) {
  const multi = plan.groups.filter((g) => g.ops.length > 1);
  return { multi: multi.length, closed: multi.filter((g) => !isOpen(expanded, g.id, opCount)).length };
}

// "first … last" op labels of a group, each shortened to fit a node box.
function spanLabel(vm, ops) {
  const cut = (s) => (s.length > 26 ? `…${s.slice(-25)}` : s);
  const first = cut(vm.nodes[ops[0]].label);
  return ops.length > 1 ? `${first} … ${cut(vm.nodes[ops[ops.length - 1]].label)}` : first;
}

// The drawn node standing for a collapsed group.
function groupNode(vm, g, planGroup) {
  return {
    id: g.id,
    op: null,
    collapsed: true,
    group: g.group,
    ops: g.ops,
    category: 'kernel',
    parent: null,
    color: g.color,
    label: `▸ kernel ${g.group} · ${g.ops.length} ops`,
    sub: g.label || spanLabel(vm, g.ops),
    rule: g.rule ?? '',
    bytesRead: planGroup?.bytes_read ?? null,
    bytesWritten: planGroup?.bytes_written ?? null,
    output: true,
    bytes: null,
    heat: null,
  };
}

// Edges between drawn nodes: inner edges of a collapsed group vanish, parallel ones merge.
function foldEdges(edges, nodeOf) {
  const byPair = new Map();
  for (const e of edges) {
    const source = nodeOf[e.producer];
    const target = nodeOf[e.consumer];
    if (source === target) continue;
    const key = `${source}>${target}`;
    const seen = byPair.get(key);
    if (seen) {
      seen.count++;
      if (!seen.blocked && isBlocked(e.reason))
        Object.assign(seen, { reason: e.reason, detail: e.detail, blocked: true });
    } else byPair.set(key, { ...e, source, target, count: 1, blocked: !e.fused && isBlocked(e.reason) });
  }
  return [...byPair.values()].map(({ blocked, ...e }) => e);
}

export function collapseViewModel(vm, plan, open) {
  const planGroups = new Map(plan.groups.map((g) => [g.id, g]));
  const closed = vm.groups.filter((g) => g.multi && !open(g.group));
  const nodeOf = vm.nodes.map((n) => n.id);
  if (closed.length === 0) return { ...vm, nodeOf };
  for (const g of closed) for (const i of g.ops) if (vm.nodes[i].group === g.group) nodeOf[i] = g.id; // not recomputed copies
  const closedById = new Map(closed.map((g) => [g.group, g]));
  const nodes = [];
  const placed = new Set();
  for (const n of vm.nodes) {
    const g = closedById.get(n.group);
    if (!g) nodes.push(n);
    else if (!placed.has(g.group)) {
      placed.add(g.group);
      nodes.push(groupNode(vm, g, planGroups.get(g.group)));
    }
  }
  const groups = vm.groups.map((g) => (closedById.has(g.group) ? { ...g, multi: false, collapsed: true } : g));
  return { ...vm, nodes, groups, edges: foldEdges(vm.edges, nodeOf), nodeOf };
}

// What the graph view draws for a graph, its plan and the expansion state: nothing (tooMany: the box count)
// past MAX_DRAWN boxes.
export function drawnViewModel(graph, plan, expanded) {
  const n = graph.ops.length;
  const boxes = countDrawn(plan, expanded, n);
  if (boxes > MAX_DRAWN) return { nodes: [], groups: [], edges: [], heat: [], nodeOf: [], tooMany: boxes };
  return collapseViewModel(buildViewModel(graph, plan), plan, (k) => isOpen(expanded, k, n));
}

// How many boxes the graph view draws: every op, less all but one op of each closed multi-op group.
export function countDrawn(plan, expanded, opCount) {
  const owned = new Map();
  for (const k of plan.op_group) owned.set(k, (owned.get(k) ?? 0) + 1);
  let n = plan.op_group.length;
  for (const g of plan.groups)
    if (g.ops.length > 1 && !isOpen(expanded, g.id, opCount)) n -= (owned.get(g.id) ?? 1) - 1;
  return n;
}
