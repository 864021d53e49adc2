// search/preset_differences.cpp — the differing edges of a preset's greedy and searched plans, in words
// (preset_differences.h).
#include "search/preset_differences.h"

#include "search/op_name.h"

namespace fusion::search {
namespace {


// What a procedure's reason for leaving an edge apart means (docs/strategies.md, each preset's Reasons).
std::string meaning(const FusionGraph& g, const EdgeDecision& e) {
  const std::string p = op_name(g, e.producer), c = op_name(g, e.consumer);
  switch (e.reason) {
    case EdgeReason::post_dominator: return c + " is not on a fusible path to " + p + "'s post-dominator";
    case EdgeReason::output: return p + " is a graph output, which never fuses into the output tuple";
    case EdgeReason::limit: return "the group would pass its size limit";
    case EdgeReason::barrier_producer: return p + " takes no consumers";
    case EdgeReason::barrier_consumer: return c + " takes no producers";
    case EdgeReason::range: return "their iteration ranges do not fit one kernel";
    case EdgeReason::cycle: return "fusing them would close a cycle";
    default: return std::string(to_string(e.reason));
  }
}

std::string group_rule(const FusionPlan& plan, OpId x) {
  const std::string& rule = plan.groups[static_cast<std::size_t>(plan.op_group[x])].rule;
  return rule.empty() ? "" : " (" + rule + ")";
}

std::string why(const FusionGraph& g, std::string_view who, const FusionPlan& greedy, const EdgeDecision& e,
                EdgeReason searched_reason, std::string_view best) {
  const std::string edge = op_name(g, e.producer) + " → " + op_name(g, e.consumer);
  if (e.fused)
    return std::string(who) + " fused " + edge + " into one kernel" + group_rule(greedy, e.consumer) +
           "; " + std::string(best) + " keeps them apart (" + std::string(to_string(searched_reason)) + ")";
  return std::string(who) + " left " + edge + " apart (" + meaning(g, e) + "); " + std::string(best) + " fuses them";
}

}  // namespace

void explain_preset_differences(const FusionGraph& graph, std::string_view who, const FusionPlan& greedy_plan,
                                const FusionPlan& searched, SearchCertificate& into, std::string_view best) {
  into.differences.clear();
  into.differences_total = 0;
  for (std::size_t k = 0; k < greedy_plan.edges.size(); ++k) {
    const EdgeDecision& e = greedy_plan.edges[k];
    const EdgeDecision& now = searched.edges[k];
    if (now.fused == e.fused) continue;
    if (++into.differences_total > static_cast<std::int64_t>(kMaxExplainedDifferences)) continue;
    into.differences.push_back({e.producer, e.consumer, e.fused, why(graph, who, greedy_plan, e, now.reason, best)});
  }
}

}  // namespace fusion::search
