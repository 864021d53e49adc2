// detail/grouping.h — greedy group formation (DESIGN.md section 4) with exact, scalable cycle avoidance.
//
// Input: a validated graph, its consumer rows, a topological order, and the options. Output: for every
// op the representative of its group, and for every distinct edge the reason it was not merged
// (EdgeReason::none for edges the greedy pass merged or found already inside one group).
//
// Traversal: ops in the given topological order; for each op v, its distinct inputs u in order of first
// occurrence. Edge u -> v merges group(u) into group(v) unless the edge is illegal on its own
// (legality.h), some edge between the two groups has shapes that may not merge (reason `shape`), or the
// merge would close a cycle in the group graph (reason `cycle`).
//
// Cycle avoidance. Groups live in a union-find; the group graph is kept with a topological order `ord`
// over group representatives (initially the op's position in the traversal). Merging A = group(u) into
// C = group(v) (ord A < ord C, since u -> v) creates a cycle iff some other group W lies on a path
// A -> ... -> W -> ... -> C; any such W has ord(A) < ord(W) < ord(C). The check runs two searches in
// lock step over the group graph, both confined to that window: forward from A (the set dF) and
// backward from C (the set dB). A cycle exists iff either search reaches the other end through another
// group. As soon as one search is exhausted without that, there is no cycle. The order is then
// repaired in the manner of Pearce & Kelly (2006): if dF or dB is empty the merged group simply takes
// C's or A's slot; otherwise the slots of dB, A, C and dF are pooled and reassigned in the order dB,
// merged group, dF. Group adjacency (outside neighbours) is kept per group in lists that are merged
// smaller-into-larger, so each list entry moves O(log n) times.
//
// Complexity: O((n + m) log n) for the bookkeeping, plus for each candidate merge a search bounded by
// twice the smaller of dF and dB within the window — not a whole-graph search. Chains, trees, diamonds
// and layered networks keep windows small (a chain costs O(1) per merge); the worst case (many long
// windows, each densely connected both ways) is O(n * m). Nothing recurses: searches use explicit stacks.
// Shown by tests/core/planner.test.cpp (exact cases) and tests/core/properties.test.cpp (10,000 random
// graphs checked by the verifier).
#pragma once

#include <vector>

#include "detail/topology.h"
#include "fusion/plan.h"

namespace fusion::detail {

struct Grouping {
  std::vector<OpId> representative;  // op id -> an op of its group (the same for all members)
  std::vector<EdgeReason> reasons;   // per distinct edge, in plan edge order (consumer id, then input)
};

Grouping form_groups(const FusionGraph& graph, const Consumers& consumers, const std::vector<OpId>& order,
                     const PlannerOptions& options);

}  // namespace fusion::detail
