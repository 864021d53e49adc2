// plan_table.h — a plan as a readable text table (the CLI's --table).
#pragma once

#include <string>

#include "fusion/graph.h"
#include "fusion/plan.h"

namespace fusion::cli {

// One row per group (members, external inputs, outputs, bytes read and written), then the totals and
// the edges that were not fused with their reasons.
std::string format_plan_table(const FusionGraph& graph, const FusionPlan& plan);

}  // namespace fusion::cli
