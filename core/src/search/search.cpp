// search/search.cpp — decomposition into parts, per-part search, assembly and reasons (search.h).
#include "search/search.h"

#include <algorithm>
#include <optional>

#include "detail/internal_check.h"
#include "search/branch_and_bound.h"
#include "search/component_totals.h"
#include "search/components.h"
#include "search/differences.h"
#include "search/group_cycles.h"

namespace fusion::search {
namespace {

// A part's searched partition, whatever its width: the representative of each member's group, and the reason of
// each of the part's fusible edges (step 4).
struct Improvement {
  std::vector<OpId> ops;                                     // the part's members
  std::vector<OpId> rep;                                     // per member
  std::vector<std::pair<std::int64_t, EdgeReason>> reasons;  // (plan edge, reason)
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
  std::int64_t nodes = 0;  // search-tree nodes visited
  std::int64_t units = 0;  // budget used (branch_and_bound.h: node_cost per node)
};

// Greedy's partition of the part, as merged fusible edges.
template <std::size_t W>
Partition<W> greedy_partition(const LocalProblem<W>& p, const detail::Grouping& greedy) {
  return partition_of(p, [&](std::size_t e) {
    return greedy.representative[p.ops[p.edges[e].producer]] == greedy.representative[p.ops[p.edges[e].consumer]];
  });
}

// The searched partition as representatives and reasons: an edge left apart gets `shape` when a shape-apart pair
// lies between its two groups, else `cycle` (search.h, step 4).
template <std::size_t W>
Improvement improvement_of(const LocalProblem<W>& p, const Partition<W>& partition, std::uint64_t saving) {
  Improvement out{p.ops, std::vector<OpId>(p.ops.size()), {}, saving};
  for (std::size_t i = 0; i < p.ops.size(); ++i) out.rep[i] = p.ops[partition.groups[partition.group_of[i]].first()];
  for (const LocalEdge& edge : p.edges) {
    const Bits<W>& a = partition.groups[partition.group_of[edge.producer]];
    const Bits<W>& b = partition.groups[partition.group_of[edge.consumer]];
    bool apart = false;
    if (!(a == b)) a.each([&](std::size_t s) { apart = apart || p.shape_apart[s].intersects(b); });
    out.reasons.emplace_back(edge.plan_edge, a == b ? EdgeReason::none : apart ? EdgeReason::shape : EdgeReason::cycle);
  }
  return out;
}

// Searches the part with sets of W words; false when it does not fit one local problem.
template <std::size_t W>
bool search_width(Search& s, Part& part, std::uint64_t greedy_bytes, std::int64_t left) {
  std::optional<LocalProblem<W>> problem =
      build_local_problem<W>(s.g, s.producers, s.consumers, part.members, s.position, s.options.broadcast);
  if (!problem) return false;
  FUSION_CHECK(bytes(*problem, greedy_partition(*problem, s.greedy)) == greedy_bytes,
               "the search prices greedy's grouping of a part as the cost model does");
  const PartResult<W> result = search_part(*problem, greedy_bytes, left);
  s.nodes += result.nodes;
  s.units += result.units;
  part.slack = greedy_bytes - result.lower_bound;
  if (result.better) part.improvement = improvement_of(*problem, *result.better, greedy_bytes - result.best_bytes);
  return true;
}

void solve(Search& s, Part& part) {
  part.solved = true;
  part.improvement.reset();
  const std::uint64_t greedy_bytes = plan_bytes(s.greedy_plan, part.members);
  const std::uint64_t merged = merged_bytes(s.g, s.producers, s.consumers, part.members, s.part_of);
  FUSION_CHECK(merged <= greedy_bytes, "merging a whole part never adds bytes");
  part.slack = greedy_bytes - merged;
  const std::int64_t left = s.options.search.budget_nodes - s.units;
  if (part.slack == 0 || left <= 0) return;  // greedy already meets the bound, or no budget left
  switch (width_for(part.members.size())) {
    case 1: search_width<1>(s, part, greedy_bytes, left); break;
    case 4: search_width<4>(s, part, greedy_bytes, left); break;
    case 16: search_width<16>(s, part, greedy_bytes, left); break;
    default: break;  // more than kMaxPartOps: greedy's grouping and the merged bound
  }
}

std::vector<OpId> representatives(const Search& s) {
  std::vector<OpId> rep = s.greedy.representative;
  for (const Part& part : s.parts)
    if (part.improvement)
      for (std::size_t i = 0; i < part.improvement->ops.size(); ++i) rep[part.improvement->ops[i]] = part.improvement->rep[i];
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
  if (involved.size() < 2 || members.size() > kMaxPartOps) return false;
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
// Parts are solved smallest first (ties in topological order of their first op), so one large part cannot take
// the budget the small ones would have settled cheaply.
std::vector<OpId> solve_all(Search& s) {
  while (true) {
    std::vector<std::size_t> waiting;
    for (std::size_t k = 0; k < s.parts.size(); ++k)
      if (!s.parts[k].solved) waiting.push_back(k);
    std::stable_sort(waiting.begin(), waiting.end(), [&](std::size_t a, std::size_t b) {
      return s.parts[a].members.size() < s.parts[b].members.size();
    });
    for (std::size_t k : waiting) solve(s, s.parts[k]);
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
    for (const auto& [edge, reason] : part.improvement->reasons) out.grouping.reasons[static_cast<std::size_t>(edge)] = reason;
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
