// planner.cpp — the plan() pipeline and the numbering of groups in execution order.
#include "fusion/planner.h"

#include <functional>
#include <queue>
#include <utility>

#include "detail/grouping.h"
#include "detail/topology.h"
#include "fusion/cost.h"

namespace fusion {
namespace {

// Numbers the groups in a topological order of the group graph, smallest first op first among the
// ready ones (Kahn's algorithm), and fills op_group and each group's ops.
void number_groups(const FusionGraph& g, const detail::Consumers& consumers,
                   const std::vector<OpId>& representative, FusionPlan& plan) {
  const std::size_t n = g.size();
  // Dense index per group, keyed by its smallest member (ops are scanned in ascending id).
  std::vector<std::int32_t> dense(n, -1);
  std::vector<OpId> first_member;
  for (std::size_t x = 0; x < n; ++x) {
    std::int32_t& d = dense[representative[x]];
    if (d < 0) {
      d = static_cast<std::int32_t>(first_member.size());
      first_member.push_back(static_cast<OpId>(x));
    }
  }
  auto group_of = [&](OpId x) { return dense[representative[x]]; };
  const std::size_t groups = first_member.size();
  std::vector<std::vector<OpId>> members(groups);
  std::vector<std::int64_t> pending(groups, 0);  // incoming cross-group edges not yet released
  for (std::size_t x = 0; x < n; ++x) {
    members[group_of(static_cast<OpId>(x))].push_back(static_cast<OpId>(x));
    for (auto it = consumers.begin(static_cast<OpId>(x)); it != consumers.end(static_cast<OpId>(x)); ++it)
      if (group_of(*it) != group_of(static_cast<OpId>(x))) ++pending[group_of(*it)];
  }
  // Dense indices already rank groups by smallest member, so a min-heap of indices is the tie-break.
  std::priority_queue<std::int32_t, std::vector<std::int32_t>, std::greater<>> ready;
  for (std::size_t d = 0; d < groups; ++d)
    if (pending[d] == 0) ready.push(static_cast<std::int32_t>(d));
  std::vector<std::int32_t> id_of_dense(groups, -1);
  plan.groups.clear();
  plan.groups.reserve(groups);
  while (!ready.empty()) {
    const std::int32_t d = ready.top();
    ready.pop();
    id_of_dense[d] = static_cast<std::int32_t>(plan.groups.size());
    FusionGroup group;
    group.id = id_of_dense[d];
    group.ops = std::move(members[d]);
    for (OpId member : group.ops)
      for (auto it = consumers.begin(member); it != consumers.end(member); ++it)
        if (group_of(*it) != d && --pending[group_of(*it)] == 0) ready.push(group_of(*it));
    plan.groups.push_back(std::move(group));
  }
  plan.op_group.resize(n);
  for (std::size_t x = 0; x < n; ++x) plan.op_group[x] = id_of_dense[group_of(static_cast<OpId>(x))];
}

// Lists every distinct edge with its final decision: fused exactly when both ends share a group.
void record_edges(const detail::Producers& producers, const std::vector<EdgeReason>& reasons, FusionPlan& plan) {
  plan.edges.clear();
  plan.edges.reserve(reasons.size());
  for (std::size_t x = 0; x + 1 < producers.offsets.size(); ++x)
    for (auto k = producers.offsets[x]; k < producers.offsets[x + 1]; ++k) {
      const OpId in = producers.ids[static_cast<std::size_t>(k)];
      const bool fused = plan.op_group[in] == plan.op_group[x];
      plan.edges.push_back({in, static_cast<OpId>(x), fused, fused ? EdgeReason::none : reasons[static_cast<std::size_t>(k)]});
    }
}

}  // namespace

bool is_known_strategy(const std::string& name) { return name == "seed"; }

Expected<FusionPlan> FusionPlanner::plan(const FusionGraph& graph) const {
  if (!is_known_strategy(options_.strategy))
    return Error{ErrorCode::unknown_strategy,
                 "unknown strategy '" + options_.strategy + "'; the known strategy is 'seed'", {}, "/strategy",
                 {}, {}};
  if (std::vector<Error> errors = validate(graph); !errors.empty()) return errors;

  const detail::Producers producers = detail::build_producers(graph);
  const detail::Consumers consumers = detail::build_consumers(graph);
  const std::vector<OpId> order = *detail::topological_order(graph, consumers);  // validated: acyclic
  const detail::Grouping grouping = detail::form_groups(graph, producers, consumers, order, options_);

  FusionPlan plan;
  plan.options = options_;
  number_groups(graph, consumers, grouping.representative, plan);
  record_edges(producers, grouping.reasons, plan);
  price_plan(graph, plan);
  return plan;
}

}  // namespace fusion
