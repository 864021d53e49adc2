// search/lowered_plan.cpp — groupings between the scheduler graph and the planned graph (lowered_plan.h).
#include "search/lowered_plan.h"

#include <algorithm>

namespace fusion::search {
namespace {

using presets::InductorNode;

// What the scheduler would say of one group's nodes (lowered_plan.h, complete_cut_reasons).
EdgeReason refusal_of(const presets::SchedulerGraph& l, const std::vector<OpId>& nodes, std::int64_t max_group_ops) {
  if (max_group_ops > 0 && static_cast<std::int64_t>(nodes.size()) > max_group_ops) return EdgeReason::limit;
  std::vector<presets::IterationRange> reductions;
  std::vector<std::uint64_t> numels;
  std::int64_t templates = 0;
  for (OpId s : nodes) {
    if (l.node[s] == InductorNode::reduction) reductions.push_back(l.range[s]);
    else numels.push_back(l.range[s].numel);
    templates += l.node[s] == InductorNode::template_kernel ? 1 : 0;
  }
  if (templates > 1 || (templates == 1 && !reductions.empty())) return EdgeReason::barrier_producer;
  std::sort(numels.begin(), numels.end());
  numels.erase(std::unique(numels.begin(), numels.end()), numels.end());
  if (reductions.empty()) return numels.size() > 1 ? EdgeReason::range : EdgeReason::cycle;
  const presets::IterationRange r = reductions.front();
  const bool ranges = std::all_of(reductions.begin(), reductions.end(), [&](const auto& x) { return x == r; });
  const bool fit = std::all_of(numels.begin(), numels.end(), [&](std::uint64_t n) { return r.takes(n); });
  return ranges && fit ? EdgeReason::cycle : EdgeReason::range;
}

}  // namespace

detail::Grouping to_scheduler(const detail::Grouping& greedy, const presets::SchedulerGraph& lowered, std::size_t edges) {
  detail::Grouping out;
  const std::size_t nodes = lowered.original.size();
  out.representative.resize(nodes);
  for (std::size_t s = 0; s < nodes; ++s)
    out.representative[s] = lowered.scheduler_id[greedy.representative[lowered.original[s]]];
  out.reasons.assign(edges, EdgeReason::none);
  for (const auto& [rep, text] : greedy.rules)
    if (rep >= 0 && lowered.scheduler_id[rep] >= 0) out.rules.emplace_back(lowered.scheduler_id[rep], text);
  return out;
}

detail::Grouping to_planned(const detail::Grouping& searched, const presets::SchedulerGraph& lowered,
                            const detail::Grouping& greedy) {
  detail::Grouping out;
  out.representative.assign(greedy.representative.size(), -1);
  out.reasons = greedy.reasons;
  std::vector<std::pair<OpId, OpId>> copies;  // (inlined op, scheduler rep of a group computing it)
  for (std::size_t s = 0; s < lowered.original.size(); ++s) {
    const OpId rep = searched.representative[s];
    out.representative[lowered.original[s]] = lowered.original[rep];
    for (OpId y : lowered.closure(static_cast<OpId>(s)))
      if (y != lowered.original[s]) copies.emplace_back(y, rep);
  }
  std::sort(copies.begin(), copies.end());
  copies.erase(std::unique(copies.begin(), copies.end()), copies.end());
  for (std::size_t k = 0; k < copies.size(); ++k) {
    const auto [op, rep] = copies[k];
    const bool alone = (k == 0 || copies[k - 1].first != op) && (k + 1 == copies.size() || copies[k + 1].first != op);
    if (alone) out.representative[op] = lowered.original[rep];  // computed by one group only: a member of it
    else out.copies.emplace_back(op, lowered.original[rep]);
  }
  for (const auto& [rep, text] : searched.rules) out.rules.emplace_back(lowered.original[rep], text);
  return out;
}

void complete_cut_reasons(const presets::SchedulerGraph& lowered, std::int64_t max_group_ops, FusionPlan& plan) {
  std::vector<std::vector<OpId>> nodes(plan.groups.size());  // per group: its realized members' scheduler ids
  for (std::size_t k = 0; k < plan.groups.size(); ++k)
    for (OpId x : plan.groups[k].ops)
      if (lowered.scheduler_id[x] >= 0 && plan.op_group[x] == static_cast<std::int32_t>(k))
        nodes[k].push_back(lowered.scheduler_id[x]);
  for (EdgeDecision& e : plan.edges) {
    if (e.fused || e.reason != EdgeReason::none) continue;
    std::vector<OpId> both = nodes[static_cast<std::size_t>(plan.op_group[e.producer])];
    const std::vector<OpId>& other = nodes[static_cast<std::size_t>(plan.op_group[e.consumer])];
    both.insert(both.end(), other.begin(), other.end());
    e.reason = refusal_of(lowered, both, max_group_ops);
  }
}

}  // namespace fusion::search
