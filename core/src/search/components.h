// search/components.h — the independent parts of plan search (docs/design.md §17): components of fusible edges.
//
// A fusible edge is one the search space may merge (space.h; under seed: §5 rules 1-5 pass on their own; under
// inductor also two fusible readers of one buffer in one region, which the local problems may pair). Every
// group of a legal partition (fusion/search.h) is connected by fusible edges, so it lies inside one component of the graph
// of fusible edges: no group ever crosses two components. Bytes (§8) are a sum over groups, so a plan's bytes are
// the sum over components of what that component's groups read and write (and time a sum over kernels). Components are therefore priced and
// searched one at a time; the only thing they share is the acyclic rule, which search.h handles. Only
// components of two or more ops are listed (a lone op has one grouping). Deterministic: components are listed by
// the order position of their first member, members in order.
// Under xla the fusible producers of one op are joined too (horizontal loop fusion may merge them), and so are the
// ops of each of greedy's groups, copies included: the procedure's passes reach wider than the search's pairs (the
// ROOT tuple's operands, siblings through copies), and each greedy group must lie in one component for the
// component's greedy time to be its share of the plan's.
#pragma once

#include <vector>

#include "detail/grouping.h"
#include "detail/topology.h"
#include "fusion/plan.h"
#include "search/space.h"

namespace fusion::search {

struct Components {
  std::vector<std::vector<OpId>> members;  // per component of >= 2 ops, members in the topological order
  std::vector<std::int32_t> of_op;         // op -> component index, -1 for ops in no listed component
};

Components fusible_components(const SearchSpace& space, const detail::Producers& producers,
                              const std::vector<OpId>& order, const detail::Grouping* greedy = nullptr);

}  // namespace fusion::search
