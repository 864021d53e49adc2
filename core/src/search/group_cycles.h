// search/group_cycles.h — which groups of a whole-graph grouping lie on cycles of its group graph.
//
// Groups are given by a representative per op (detail::Grouping::representative, no copies). Kahn's algorithm
// runs over the group graph (an edge from the group of each input to the group of its reader) and over its
// reverse; a group left over by both lies on a cycle or between two (downstream of one and upstream of one).
// Every group on a cycle is marked. Empty when the group graph is acyclic. Nothing recurses; O(n + m).
#pragma once

#include <vector>

#include "detail/topology.h"
#include "fusion/graph.h"

namespace fusion::search {

// Per op: true when its group is left over both ways. Empty when acyclic.
std::vector<bool> ops_in_cyclic_groups(const FusionGraph& graph, const detail::Producers& producers,
                                       const std::vector<OpId>& representative);

}  // namespace fusion::search
