// search/preset_differences.h — where a preset's greedy plan and its searched plan differ (docs/design.md §17),
// for the timed spaces (space.h: tvm), whose greedy procedures are not seed's merge order.
//
// Every edge whose fused flag differs between the greedy plan and the searched grouping (an edge is fused when
// both ends share a group; these spaces make no copies) is counted, in plan edge order; the first
// kMaxExplainedDifferences are explained, naming the ops:
//   - greedy fused, search cut: "FuseOps fused p → c into one kernel (<the greedy group's rule>); the fastest plan
//     keeps them apart (<the searched plan's reason>)";
//   - greedy cut, search fused: "FuseOps left p → c apart (<its reason, in words>); the fastest plan fuses them".
// Work O(n + m).
#pragma once

#include "detail/grouping.h"
#include "search/space.h"

namespace fusion::search {

void explain_preset_differences(const SearchSpace& space, const FusionPlan& greedy_plan,
                                const detail::Grouping& searched, SearchCertificate& into);

}  // namespace fusion::search
