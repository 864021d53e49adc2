// search/search.cpp — decomposition into parts, per-part search, assembly and reasons (search.h).
#include "search/search.h"

#include <algorithm>
#include <bit>
#include <optional>

#include "detail/internal_check.h"
#include "search/branch_and_bound.h"
#include "search/component_totals.h"
#include "search/components.h"
#include "search/differences.h"
#include "search/group_cycles.h"

namespace fusion::search {
namespace {

struct Improvement {
  LocalProblem problem;
  Partition partition;
  std::uint64_t saving = 0;  // greedy's bytes minus the partition's, for this part
};

// A component of fusible edges, or the union of components whose best partitions together closed a cycle.
struct Part {
  std::vector<OpId> members;  // in topological order
  bool solved = false;
  std::uint64_t slack = 0;    // greedy's bytes minus the proven lower bound
  std::optional<Improvement> improvement;
};

struct Search {
  const FusionGraph& g;
  const detail::Producers& producers;
  const detail::Consumers& consumers;
  const PlannerOptions& options;
  const detail::Grouping& greedy;
  const FusionPlan& greedy_plan;
  std::vector<std::int64_t> position;  // op -> index in the topological order
  std::vector<std::int32_t> part_of;   // op -> index in parts, -1 for ops in no part
  std::vector<Part> parts;
  std::int64_t nodes = 0;
};

// Greedy's partition of the part, as merged fusible edges.
Partition greedy_partition(const LocalProblem& p, const detail::Grouping& greedy) {
  return partition_of(p, [&](std::size_t e) {
    return greedy.representative[p.ops[p.edges[e].producer]] == greedy.representative[p.ops[p.edges[e].consumer]];
  });
}

void solve(Search& s, Part& part) {
  part.solved = true;
  part.improvement.reset();
  const std::uint64_t greedy_bytes = plan_bytes(s.greedy_plan, part.members);
  const std::uint64_t merged = merged_bytes(s.g, s.producers, s.consumers, part.members, s.part_of);
  FUSION_CHECK(merged <= greedy_bytes, "merging a whole part never adds bytes");
  part.slack = greedy_bytes - merged;
  const std::int64_t left = s.options.search.budget_nodes - s.nodes;
  if (part.slack == 0 || left <= 0) return;  // greedy already meets the bound, or no budget left
  std::optional<LocalProblem> problem =
      build_local_problem(s.g, s.producers, s.consumers, part.members, s.position, s.options.broadcast);
  if (!problem) return;
  FUSION_CHECK(bytes(*problem, greedy_partition(*problem, s.greedy)) == greedy_bytes,
               "the search prices greedy's grouping of a part as the cost model does");
  ComponentResult result = search_component(*problem, greedy_bytes, left);
  s.nodes += result.nodes;
  part.slack = greedy_bytes - result.lower_bound;
  if (result.better)
    part.improvement = Improvement{std::move(*problem), std::move(*result.better), greedy_bytes - result.best_bytes};
}

std::vector<OpId> representatives(const Search& s) {
  std::vector<OpId> rep = s.greedy.representative;
  for (const Part& part : s.parts) {
    if (!part.improvement) continue;
    const LocalProblem& p = part.improvement->problem;
    const Partition& partition = part.improvement->partition;
    for (std::size_t i = 0; i < p.ops.size(); ++i)
      rep[p.ops[i]] = p.ops[static_cast<std::size_t>(std::countr_zero(partition.groups[partition.group_of[i]]))];
  }
  return rep;
}

// The parts holding an op of a group on a cycle, ascending.
std::vector<std::int32_t> parts_on_cycles(const Search& s, const std::vector<bool>& on_cycle) {
  std::vector<std::int32_t> involved;
  for (std::size_t x = 0; x < on_cycle.size(); ++x)
    if (on_cycle[x] && s.part_of[x] >= 0) involved.push_back(s.part_of[x]);
  std::sort(involved.begin(), involved.end());
  involved.erase(std::unique(involved.begin(), involved.end()), involved.end());
  return involved;
}

// Replaces the involved parts by their union (to be searched jointly), when it fits one local problem.
bool join(Search& s, const std::vector<std::int32_t>& involved) {
  std::vector<OpId> members;
  for (std::int32_t k : involved) members.insert(members.end(), s.parts[k].members.begin(), s.parts[k].members.end());
  if (involved.size() < 2 || members.size() > kMaxLocalOps) return false;
  std::sort(members.begin(), members.end(), [&](OpId a, OpId b) { return s.position[a] < s.position[b]; });
  for (std::size_t k = involved.size(); k-- > 1;) s.parts.erase(s.parts.begin() + involved[k]);
  s.parts[static_cast<std::size_t>(involved[0])] = Part{std::move(members), false, 0, std::nullopt};
  std::fill(s.part_of.begin(), s.part_of.end(), -1);
  for (std::size_t k = 0; k < s.parts.size(); ++k)
    for (OpId x : s.parts[k].members) s.part_of[x] = static_cast<std::int32_t>(k);
  return true;
}

// Solves every part, then joins (or, when too large, sends back to greedy) the parts whose choices together close
// a cycle, until the whole group graph is acyclic. Answers the final representatives.
std::vector<OpId> solve_all(Search& s) {
  while (true) {
    for (Part& part : s.parts)
      if (!part.solved) solve(s, part);
    std::vector<OpId> rep = representatives(s);
    const std::vector<bool> on_cycle = ops_in_cyclic_groups(s.g, s.producers, rep);
    if (on_cycle.empty()) return rep;
    const std::vector<std::int32_t> involved = parts_on_cycles(s, on_cycle);
    if (join(s, involved)) continue;
    bool reverted = false;
    for (std::int32_t k : involved) {
      Part& part = s.parts[static_cast<std::size_t>(k)];
      reverted = reverted || part.improvement.has_value();
      part.improvement.reset();
    }
    FUSION_CHECK(reverted, "a cycle of combined parts runs through an improved part");
  }
}

// Reasons of an improved part's fusible edges in its chosen partition (search.h, step 4).
void set_reasons(const Improvement& improvement, std::vector<EdgeReason>& reasons) {
  const LocalProblem& p = improvement.problem;
  const Partition& partition = improvement.partition;
  for (const LocalEdge& edge : p.edges) {
    const Mask a = partition.groups[partition.group_of[edge.producer]];
    const Mask b = partition.groups[partition.group_of[edge.consumer]];
    bool apart = false;
    for (Mask s = a; s && a != b; s &= s - 1) apart = apart || (p.shape_apart[std::countr_zero(s)] & b);
    reasons[static_cast<std::size_t>(edge.plan_edge)] =
        a == b ? EdgeReason::none : apart ? EdgeReason::shape : EdgeReason::cycle;
  }
}

std::vector<std::int64_t> positions(const std::vector<OpId>& order) {
  std::vector<std::int64_t> position(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = static_cast<std::int64_t>(i);
  return position;
}

}  // namespace

SearchOutcome search_seed_plan(const FusionGraph& g, const detail::Producers& producers,
                               const detail::Consumers& consumers, const std::vector<OpId>& order,
                               const PlannerOptions& options, const detail::Grouping& greedy,
                               const FusionPlan& greedy_plan) {
  Components components = fusible_components(g, producers, order, options.broadcast);
  Search s{g, producers, consumers, options, greedy, greedy_plan, positions(order), std::move(components.of_op), {}, 0};
  for (std::vector<OpId>& members : components.members) s.parts.push_back(Part{std::move(members), false, 0, std::nullopt});
  SearchOutcome out;
  out.grouping = greedy;
  out.grouping.representative = solve_all(s);
  std::uint64_t saving = 0, slack = 0;
  for (const Part& part : s.parts) {
    slack += part.slack;
    if (!part.improvement) continue;
    set_reasons(*part.improvement, out.grouping.reasons);
    saving += part.improvement->saving;
  }
  out.expected_bytes = greedy_plan.bytes_fused - saving;
  out.certificate.present = true;
  out.certificate.greedy_bytes_fused = greedy_plan.bytes_fused;
  out.certificate.lower_bound = greedy_plan.bytes_fused - slack;
  out.certificate.nodes = s.nodes;
  FUSION_CHECK(out.certificate.lower_bound <= out.expected_bytes, "the lower bound holds for the plan found");
  out.certificate.status = out.certificate.lower_bound == out.expected_bytes ? "optimal" : "bounded";
  explain_differences(g, producers, consumers, order, options.broadcast, greedy, out.grouping.representative,
                      out.certificate);
  return out;
}

}  // namespace fusion::search
