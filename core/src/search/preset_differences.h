// search/preset_differences.h — where a preset's greedy plan and its searched plan differ (docs/design.md §17),
// for the timed spaces (space.h: tvm, inductor, xla) and the engine space (seed with rules set), whose greedy
// procedures are not seed's merge order.
//
// Every edge whose fused flag differs between the greedy plan and the searched plan (both priced, same graph, so
// their edge lists align) is counted, in plan edge order; the first kMaxExplainedDifferences are explained, naming
// the ops and the procedure (`who`: "FuseOps", "Inductor's scheduler"):
//   - greedy fused, search cut: "FuseOps fused p → c into one kernel (<the greedy group's rule>); the fastest plan
//     keeps them apart (<the searched plan's reason>)";
//   - greedy cut, search fused: "FuseOps left p → c apart (<its reason, in words>); the fastest plan fuses them".
// `best` names the searched plan ("the fastest plan"; "the plan of fewest bytes" under the engine). Work O(n + m).
#pragma once

#include <string_view>

#include "fusion/plan.h"

namespace fusion::search {

void explain_preset_differences(const FusionGraph& graph, std::string_view who, const FusionPlan& greedy_plan,
                                const FusionPlan& searched, SearchCertificate& into,
                                std::string_view best = "the fastest plan");

}  // namespace fusion::search
