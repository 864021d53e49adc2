// detail/grouping.h — greedy group formation (docs/design.md §6) with exact, scalable cycle avoidance.
//
// Input: a validated graph, its producer and consumer rows, a topological order, and the options. Output: for every
// op the representative of its group, and for every distinct edge the reason it was not merged
// (EdgeReason::none for edges the greedy pass merged or found already inside one group).
//
// Traversal: ops in the given topological order; for each op v, its distinct inputs u in order of first
// occurrence. Edge u -> v merges group(u) into group(v) unless the edge is illegal on its own
// (legality.h), some edge between the two groups has shapes that may not merge (reason `shape`), or the
// merge would close a cycle in the group graph (reason `cycle`).
//
// Cycle avoidance. Groups live in a union-find; the group graph is kept in a topological order by an
// order-maintenance list (order_list.h), initially the traversal order. Merging A = group(u) into
// C = group(v) (A before C, since u -> v) creates a cycle iff some other group W lies on a path
// A -> ... -> W -> ... -> C, and any such W lies between A and C in the order. The check runs two
// searches in lock step over the group graph, both confined to that window: forward from A (the set
// dF) and backward from C (the set dB), each best-first toward the other end. A cycle exists iff a
// search reaches the other end through another group, or the two searches meet. As soon as one search
// is exhausted without that, there is no cycle, and the order is repaired with that side alone: dF
// moves to just after C (the merged group keeps C's place), or dB to just before A (it keeps A's).
// Group adjacency (outside neighbours) is kept per group in lists merged smaller-into-larger, so each
// entry moves O(log n) times.
//
// Complexity: O((n + m) log n) bookkeeping, plus per candidate merge O(k log k) where k is at most
// twice the smaller of dF and dB: never a whole-graph search unless both sides of the window are
// large. A chain costs O(1) per merge; layered networks and random DAGs with local edges keep k
// small. The worst case (many merges whose windows are large and dense both ways) is O(n * m).
// Nothing recurses: searches use explicit heaps.
// Shown by tests/core/planner.test.cpp (exact cases) and tests/core/properties.test.cpp (10,000 random graphs
// checked by the verifier).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "detail/topology.h"
#include "fusion/plan.h"

namespace fusion::detail {

struct Grouping {
  std::vector<OpId> representative;  // op id -> an op of its group (the same for all members); -1 for an
                                     // op that exists only as recomputed copies
  std::vector<EdgeReason> reasons;   // per distinct edge, in plan edge order (consumer id, then input)
  std::vector<std::pair<OpId, OpId>> copies;  // (op, representative of a group that recomputes it)
  std::vector<std::pair<OpId, std::string>> rules;  // (representative, the behaviour that formed its group)
};

Grouping form_groups(const FusionGraph& graph, const Producers& producers, const Consumers& consumers,
                     const std::vector<OpId>& order, const PlannerOptions& options);

}  // namespace fusion::detail
