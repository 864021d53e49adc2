// search/group_cycles.h — which groups of a whole-graph grouping lie on cycles of its group graph.
//
// Groups are given by a representative per op (detail::Grouping::representative; -1 for an op held only as copies)
// and the copies ((op, representative of a group computing it), detail::Grouping::copies). Kahn's algorithm runs
// over the group graph (an edge to each group from the group owning each input its members or copies read, unless
// it holds that input itself) and over its reverse; a group left over by both lies on a cycle or between two
// (downstream of one and upstream of one). Every op of a group on a cycle is marked, and an op held only as copies
// when one of its groups is. Empty when the group graph is acyclic. Nothing recurses; O((n + m + c) log c) for c
// copies.
#pragma once

#include <utility>
#include <vector>

#include "detail/topology.h"
#include "fusion/graph.h"

namespace fusion::search {

// Per op: true when its group is left over both ways. Empty when acyclic.
std::vector<bool> ops_in_cyclic_groups(const FusionGraph& graph, const detail::Producers& producers,
                                       const std::vector<OpId>& representative,
                                       std::vector<std::pair<OpId, OpId>> copies = {});

}  // namespace fusion::search
