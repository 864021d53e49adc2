// partition_plan.h — a priced plan of a given partition (op -> group index), for tests that judge hand-made or
// enumerated partitions with the verifier. Every distinct edge is listed once; an unfused edge gets the reason
// `cut_reason(producer, consumer)` answers.
#pragma once

#include <algorithm>
#include <vector>

#include "fusion/cost.h"
#include "fusion/graph.h"
#include "fusion/plan.h"

namespace fusion::testing {

template <typename CutReason>
FusionPlan plan_from_partition(const FusionGraph& g, const std::vector<std::int32_t>& op_group, CutReason&& cut_reason,
                               const PlannerOptions& options = {}) {
  FusionPlan plan;
  plan.options = options;
  plan.op_group = op_group;
  plan.groups.resize(static_cast<std::size_t>(*std::max_element(op_group.begin(), op_group.end()) + 1));
  for (std::size_t i = 0; i < plan.groups.size(); ++i) plan.groups[i].id = static_cast<std::int32_t>(i);
  for (std::size_t x = 0; x < g.size(); ++x) plan.groups[static_cast<std::size_t>(op_group[x])].ops.push_back(static_cast<OpId>(x));
  for (std::size_t x = 0; x < g.size(); ++x) {
    std::vector<OpId> seen;
    for (OpId in : g.op(static_cast<OpId>(x)).inputs) {
      if (std::find(seen.begin(), seen.end(), in) != seen.end()) continue;
      seen.push_back(in);
      const bool fused = op_group[in] == op_group[x];
      plan.edges.push_back({in, static_cast<OpId>(x), fused, fused ? EdgeReason::none : cut_reason(in, static_cast<OpId>(x))});
    }
  }
  price_plan(g, plan);
  return plan;
}

}  // namespace fusion::testing
