// search/differences.h — where greedy went wrong (docs/design.md §17): the edges the greedy plan and the searched
// plan decided differently, in plan edge order, each with why greedy's order made its choice, naming the ops.
//
// Greedy's merges are replayed in its own order (detail/grouping.h: consumers in the topological order, inputs in
// first-occurrence order; an edge whose greedy reason is none and whose ends are still apart is a merge), and each
// edge's turn is the number of merges made before greedy decided it. blocked(k, u -> v): after greedy's first k
// merges, would merging the groups of u and v be refused, for a shape-failing edge between them (§5 rule 6) or a
// path between them through another group (a cycle, rule 7)?
//   - Greedy cut, search fused: blocked at the edge's turn T (greedy refused it then). When blocked(0) too, another
//     path joins u and v, and every op on it must share their group: the text names one. Otherwise a binary search
//     over the prefixes 0..T finds a merge k with blocked(k - 1) false and blocked(k) true: the merge after which
//     the edge could no longer be fused, named in the text with what then blocks it.
//   - Greedy fused, search cut: the merge that first put u and v in one group, and the explained cut edges whose
//     blocking merge it was ("which later kept c → d from fusing").
// At most kMaxExplainedDifferences edges are explained (the first in edge order); all are counted. Work: O(n + m)
// to compare and replay, plus O((n + m) log n) per explained edge. Nothing recurses.
#pragma once

#include "detail/grouping.h"

namespace fusion::search {

// Fills into.differences and into.differences_total. searched: the searched plan's representative per op.
void explain_differences(const FusionGraph& graph, const detail::Producers& producers,
                         const detail::Consumers& consumers, const std::vector<OpId>& order, bool broadcast,
                         const detail::Grouping& greedy, const std::vector<OpId>& searched, SearchCertificate& into);

}  // namespace fusion::search
