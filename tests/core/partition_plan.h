// partition_plan.h — a priced plan of a given partition (op -> group index), for tests that judge hand-made or
// enumerated partitions with the verifier, with or without recomputed copies. Every distinct edge is listed once;
// an unfused edge gets the reason `cut_reason(producer, consumer)` answers.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "fusion/cost.h"
#include "fusion/graph.h"
#include "fusion/plan.h"

namespace fusion::testing {

// With recomputed copies: owner[x] is x's group, or -1 when x exists only as copies; copies lists (op, group)
// pairs, each a copy of op inside group (op_group then names the first group recomputing a copy-only op). An edge
// is fused when its producer is a member, owned or recomputed, of the consumer's group.
template <typename CutReason>
FusionPlan plan_from_partition(const FusionGraph& g, const std::vector<std::int32_t>& owner,
                               const std::vector<std::pair<OpId, std::int32_t>>& copies, CutReason&& cut_reason,
                               const PlannerOptions& options = {}) {
  FusionPlan plan;
  plan.options = options;
  plan.op_group = owner;
  std::int32_t groups = *std::max_element(owner.begin(), owner.end()) + 1;
  for (const auto& copy : copies) groups = std::max(groups, copy.second + 1);
  plan.groups.resize(static_cast<std::size_t>(groups));
  for (std::size_t i = 0; i < plan.groups.size(); ++i) plan.groups[i].id = static_cast<std::int32_t>(i);
  for (std::size_t x = 0; x < g.size(); ++x)
    if (owner[x] >= 0) plan.groups[static_cast<std::size_t>(owner[x])].ops.push_back(static_cast<OpId>(x));
  for (const auto& [op, group] : copies) {
    FusionGroup& holder = plan.groups[static_cast<std::size_t>(group)];
    holder.ops.push_back(op);
    holder.recomputed.push_back(op);
    std::int32_t& named = plan.op_group[static_cast<std::size_t>(op)];
    if (owner[static_cast<std::size_t>(op)] < 0 && (named < 0 || group < named)) named = group;
  }
  for (FusionGroup& group : plan.groups) {
    std::sort(group.ops.begin(), group.ops.end());
    std::sort(group.recomputed.begin(), group.recomputed.end());
  }
  auto holds = [&](std::int32_t group, OpId x) {
    const std::vector<OpId>& ops = plan.groups[static_cast<std::size_t>(group)].ops;
    return std::binary_search(ops.begin(), ops.end(), x);
  };
  for (std::size_t x = 0; x < g.size(); ++x) {
    std::vector<OpId> seen;
    for (OpId in : g.op(static_cast<OpId>(x)).inputs) {
      if (std::find(seen.begin(), seen.end(), in) != seen.end()) continue;
      seen.push_back(in);
      const std::int32_t at = plan.op_group[x];
      const bool fused = at >= 0 && holds(at, in);
      plan.edges.push_back({in, static_cast<OpId>(x), fused, fused ? EdgeReason::none : cut_reason(in, static_cast<OpId>(x))});
    }
  }
  price_plan(g, plan);
  return plan;
}

template <typename CutReason>
FusionPlan plan_from_partition(const FusionGraph& g, const std::vector<std::int32_t>& op_group, CutReason&& cut_reason,
                               const PlannerOptions& options = {}) {
  return plan_from_partition(g, op_group, {}, cut_reason, options);
}

}  // namespace fusion::testing
