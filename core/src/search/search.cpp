// search/search.cpp — decomposition into parts, per-part search, assembly and reasons (search.h).
#include "search/search.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "detail/internal_check.h"
#include "search/branch_and_bound.h"
#include "search/component_totals.h"
#include "search/components.h"
#include "search/differences.h"
#include "search/group_cycles.h"
#include "search/group_rules.h"
#include "search/xla_part.h"
#include "presets/xla_kinds.h"

namespace fusion::search {
namespace {

// A part's searched partition, whatever its width: the representative of each member's group, and the reason of
// each of the part's fusible edges (step 4).
struct Improvement {
  std::vector<OpId> ops;                                     // the part's members
  std::vector<OpId> rep;                                     // per member
  std::vector<std::pair<std::int64_t, EdgeReason>> reasons;  // (plan edge, reason)
  std::uint64_t saving = 0;  // greedy's score minus the partition's, for this part
  std::vector<std::pair<OpId, OpId>> copies;  // xla: (op, representative of a group computing it); rep -1 for the op
};

// A component of fusible edges, or the union of components whose best partitions together closed a cycle.
struct Part {
  std::vector<OpId> members;  // in topological order
  bool solved = false;
  std::uint64_t slack = 0;    // greedy's score minus the proven lower bound
  std::optional<Improvement> improvement;
  std::uint64_t tolerance = 0;  // timed spaces: a partition must beat greedy by more than this (ps) to replace it
};

struct SearchState {
  const SearchSpace& space;
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

// engine: the reason the verifier accepts for a fusible edge between groups a and b that the plan leaves cut:
// the rule table's reason for an edge between them that it refuses on its own (any such reason fits), `anchor` for two heavy ops, `limit`
// for max_group_ops passed, else `cycle` (docs/strategies.md: an edge legal on its own that the groups refuse).
template <std::size_t W>
EdgeReason engine_cut_reason(const LocalProblem<W>& p, const Bits<W>& a, const Bits<W>& b) {
  for (const LocalEdge& e : p.refused) {
    const auto u = static_cast<std::size_t>(e.producer), v = static_cast<std::size_t>(e.consumer);
    if ((a.test(u) && b.test(v)) || (a.test(v) && b.test(u))) return static_cast<EdgeReason>(e.plan_edge);
  }
  if (((a | b) & p.heavy).several()) return EdgeReason::anchor;
  if (p.max_depth > 0 && (a | b).count() > p.max_depth) return EdgeReason::limit;
  return EdgeReason::cycle;
}

// Why a fusible edge between groups a and b stays cut in a maximal partition (search.h, step 4): under seed
// `shape` when a shape-apart pair lies between them, else `cycle`; under a timed space `limit` when together they
// pass the limit, `cycle` when they could form one group, else (they could not) `post_dominator` under tvm and
// `range` under inductor.
template <std::size_t W>
EdgeReason cut_reason(const LocalProblem<W>& p, const Bits<W>& a, const Bits<W>& b) {
  if (p.kind == SpaceKind::seed) return has_apart_pair(p, a, b) ? EdgeReason::shape : EdgeReason::cycle;
  if (p.kind == SpaceKind::engine) return engine_cut_reason(p, a, b);
  if (p.max_depth > 0 && (a | b).count() > p.max_depth) return EdgeReason::limit;
  if (may_join(p, a, b) && legal_group(p, a | b)) return EdgeReason::cycle;
  return p.kind == SpaceKind::tvm ? EdgeReason::post_dominator : EdgeReason::range;
}

// Do the candidate edges greedy merged rebuild its groups of the part? Not when greedy joined two members through
// no candidate of the space (a space narrower than the procedure): the part then keeps greedy's grouping. Under a
// timed space the part also keeps it when the procedure's groups of the part do not price as the part's partition
// (a group reaching outside the part); seed's greedy always does, and that is checked.
template <std::size_t W>
bool represents_greedy(const LocalProblem<W>& p, const Partition<W>& partition, const detail::Grouping& greedy) {
  std::vector<OpId> reps;
  for (OpId x : p.ops) reps.push_back(greedy.representative[x]);
  std::sort(reps.begin(), reps.end());
  return static_cast<std::size_t>(std::unique(reps.begin(), reps.end()) - reps.begin()) == partition.groups.size();
}

// The searched partition as representatives and reasons.
template <std::size_t W>
Improvement improvement_of(const LocalProblem<W>& p, const Partition<W>& partition, std::uint64_t saving) {
  Improvement out{p.ops, std::vector<OpId>(p.ops.size()), {}, saving, {}};
  for (std::size_t i = 0; i < p.ops.size(); ++i) out.rep[i] = p.ops[partition.groups[partition.group_of[i]].first()];
  for (const LocalEdge& edge : p.edges) {
    if (edge.plan_edge < 0) continue;  // a pair of readers of one buffer: no edge of the graph
    const Bits<W>& a = partition.groups[partition.group_of[edge.producer]];
    const Bits<W>& b = partition.groups[partition.group_of[edge.consumer]];
    out.reasons.emplace_back(edge.plan_edge, a == b ? EdgeReason::none : cut_reason(p, a, b));
  }
  return out;
}

// Searches the part with sets of W words; false when it does not fit one local problem.
template <std::size_t W>
bool search_width(SearchState& s, Part& part, std::uint64_t greedy_score, std::int64_t left) {
  std::optional<LocalProblem<W>> problem = build_local_problem<W>(s.space, s.producers, part.members, s.position);
  if (!problem) return false;
  const Partition<W> greedy = greedy_partition(*problem, s.greedy);
  if (!represents_greedy(*problem, greedy, s.greedy)) return false;  // keep greedy's grouping and the merged bound
  const bool priced_alike = score(*problem, greedy) == greedy_score;
  if (s.space.timed() && !priced_alike) return false;  // a procedure's group reaching outside the part: keep it
  FUSION_CHECK(priced_alike, "the search prices greedy's grouping of a part as the cost model does");
  const PartResult<W> result = search_part(*problem, greedy_score - part.tolerance, left);
  s.nodes += result.nodes;
  s.units += result.units;
  part.slack = greedy_score - result.lower_bound;
  if (result.better) part.improvement = improvement_of(*problem, *result.better, greedy_score - result.best_bytes);
  return true;
}

// xla: greedy's members of the part held only as copies.
template <std::size_t W>
Bits<W> greedy_duplicated(const LocalProblem<W>& p, const detail::Grouping& greedy) {
  Bits<W> out;
  for (std::size_t i = 0; i < p.ops.size(); ++i)
    if (greedy.representative[p.ops[i]] < 0) out.set(i);
  return out;
}

// xla: why a plan edge of an improved part is not fused, if it is not (the reasons the verifier accepts from XLA's
// passes, docs/strategies.md): the edge rules first, then `cycle` when both ends' groups could form one legal
// group (the partition is maximal), else `unprofitable` (the fastest plan keeps them apart).
template <std::size_t W>
EdgeReason xla_reason(const SearchSpace& space, const LocalProblem<W>& p, const Partition<W>& partition, int u, int v) {
  const OpId a = p.ops[static_cast<std::size_t>(u)], b = p.ops[static_cast<std::size_t>(v)];
  const FusionOp& consumer = space.graph.op(b);
  const presets::XlaRole ra = presets::xla_role(space.graph, a), rb = presets::xla_role(space.graph, b);
  if (space.graph.op(a).region != consumer.region) return EdgeReason::region;
  if (ra == presets::XlaRole::scatter || !space.fusible_node(a)) return EdgeReason::barrier_producer;
  if (!space.fusible_node(b) || rb == presets::XlaRole::scatter || consumer.kind == OpKind::reshape ||
      (space.graph.op(a).kind == OpKind::concat && rb == presets::XlaRole::reduction))
    return EdgeReason::barrier_consumer;
  if (ra == presets::XlaRole::reduction) return rb == presets::XlaRole::reduction ? EdgeReason::anchor : EdgeReason::multi_pass;
  if (p.duplicated.test(static_cast<std::size_t>(u)) || p.duplicated.test(static_cast<std::size_t>(v)))
    return EdgeReason::unprofitable;
  const Bits<W>& x = partition.groups[partition.group_of[static_cast<std::size_t>(u)]];
  const Bits<W>& y = partition.groups[partition.group_of[static_cast<std::size_t>(v)]];
  if (x == y) return EdgeReason::none;
  return may_join(p, x, y) && legal_group(p, x | y) ? EdgeReason::cycle : EdgeReason::unprofitable;
}

// xla: the searched partition under its duplicated set as representatives, copies and reasons (every plan edge
// between two members of the part; record_edges keeps a reason only for an edge left unfused).
template <std::size_t W>
Improvement xla_improvement_of(const SearchSpace& space, const detail::Producers& producers, const LocalProblem<W>& p,
                               const Partition<W>& partition, std::uint64_t saving) {
  Improvement out{p.ops, std::vector<OpId>(p.ops.size(), -1), {}, saving, {}};
  std::unordered_map<OpId, int> local;
  for (std::size_t i = 0; i < p.ops.size(); ++i) local.emplace(p.ops[i], static_cast<int>(i));
  for (const Bits<W>& group : partition.groups) {
    if (!group.minus(p.duplicated).any()) continue;
    const OpId rep = p.ops[group.first()];
    Bits<W> copies;
    group.each([&](std::size_t i) {
      out.rep[i] = rep;
      copies |= p.copy_of[i];
    });
    copies.each([&](std::size_t d) { out.copies.emplace_back(p.ops[d], rep); });
  }
  for (std::size_t j = 0; j < p.ops.size(); ++j)
    for (const OpId* in = producers.begin(p.ops[j]); in != producers.end(p.ops[j]); ++in)
      if (const auto it = local.find(*in); it != local.end())
        out.reasons.emplace_back(producers.offsets[p.ops[j]] + (in - producers.begin(p.ops[j])),
                                 xla_reason(space, p, partition, it->second, static_cast<int>(j)));
  return out;
}

// xla: searches the part over duplication and partitions (xla_part.h), greedy's duplicated members first. Greedy's
// grouping is the incumbent even where it is not one of the space's plans (its passes reach wider), so the bound
// covers it too (it never exceeds greedy's time).
template <std::size_t W>
bool search_xla_width(SearchState& s, Part& part, std::uint64_t greedy_score, std::int64_t left) {
  std::optional<LocalProblem<W>> base = build_local_problem<W>(s.space, s.producers, part.members, s.position);
  if (!base) return false;
  XlaPartResult<W> result = search_xla_part(*base, greedy_duplicated(*base, s.greedy), greedy_score - part.tolerance, left);
  s.nodes += result.nodes;
  s.units += result.units;
  part.slack = greedy_score - result.lower_bound;
  if (result.better)
    part.improvement = xla_improvement_of(s.space, s.producers, *result.problem, *result.better, greedy_score - result.best);
  return true;
}

// Searches the part with sets of W words, over duplication too under xla.
template <std::size_t W>
void search_any_width(SearchState& s, Part& part, std::uint64_t greedy_score, std::int64_t left) {
  if (s.space.kind == SpaceKind::xla) search_xla_width<W>(s, part, greedy_score, left);
  else search_width<W>(s, part, greedy_score, left);
}

void solve(SearchState& s, Part& part) {
  part.solved = true;
  part.improvement.reset();
  const bool timed = s.space.timed();
  const std::uint64_t greedy_score =
      timed ? plan_time_ps(s.greedy_plan, s.space, part.members) : plan_bytes(s.greedy_plan, s.space, part.members);
  const std::uint64_t bytes = merged_bytes(s.space, s.producers, part.members, s.part_of);
  const std::uint64_t merged = timed ? merged_time_ps(s.space, bytes, part.members) : bytes;
  FUSION_CHECK(merged <= greedy_score, "merging a whole part never adds bytes or time");
  part.slack = greedy_score - merged;
  part.tolerance = s.space.timed() ? std::min<std::uint64_t>(part.members.size(), part.slack) : 0;
  const std::int64_t left = s.options.search.budget_nodes - s.units;
  if (part.slack <= part.tolerance || left <= 0) return;  // greedy already meets the bound, or no budget left
  switch (width_for(part.members.size())) {
    case 1: search_any_width<1>(s, part, greedy_score, left); break;
    case 4: search_any_width<4>(s, part, greedy_score, left); break;
    case 16: search_any_width<16>(s, part, greedy_score, left); break;
    default: break;  // more than kMaxPartOps: greedy's grouping and the merged bound
  }
}

std::vector<OpId> representatives(const SearchState& s) {
  std::vector<OpId> rep = s.greedy.representative;
  for (const Part& part : s.parts)
    if (part.improvement)
      for (std::size_t i = 0; i < part.improvement->ops.size(); ++i) rep[part.improvement->ops[i]] = part.improvement->rep[i];
  return rep;
}

// Greedy's copies but those of improved parts, and the improved parts' copies (xla; none otherwise).
std::vector<std::pair<OpId, OpId>> copies_of(const SearchState& s) {
  std::vector<char> improved(s.g.size(), 0);
  for (const Part& part : s.parts)
    if (part.improvement)
      for (OpId x : part.members) improved[x] = 1;
  std::vector<std::pair<OpId, OpId>> copies;
  for (const auto& copy : s.greedy.copies)
    if (!improved[copy.first]) copies.push_back(copy);
  for (const Part& part : s.parts)
    if (part.improvement) copies.insert(copies.end(), part.improvement->copies.begin(), part.improvement->copies.end());
  return copies;
}

// The parts holding an op of a group on a cycle, ascending.
std::vector<std::int32_t> parts_on_cycles(const SearchState& s, const std::vector<bool>& on_cycle) {
  std::vector<std::int32_t> involved;
  for (std::size_t x = 0; x < on_cycle.size(); ++x)
    if (on_cycle[x] && s.part_of[x] >= 0) involved.push_back(s.part_of[x]);
  std::sort(involved.begin(), involved.end());
  involved.erase(std::unique(involved.begin(), involved.end()), involved.end());
  return involved;
}

// Replaces the involved parts by their union (to be searched jointly), when it fits one local problem.
bool join(SearchState& s, const std::vector<std::int32_t>& involved) {
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
std::vector<OpId> solve_all(SearchState& s) {
  while (true) {
    std::vector<std::size_t> waiting;
    for (std::size_t k = 0; k < s.parts.size(); ++k)
      if (!s.parts[k].solved) waiting.push_back(k);
    std::stable_sort(waiting.begin(), waiting.end(), [&](std::size_t a, std::size_t b) {
      return s.parts[a].members.size() < s.parts[b].members.size();
    });
    for (std::size_t k : waiting) solve(s, s.parts[k]);
    std::vector<OpId> rep = representatives(s);
    const std::vector<bool> on_cycle = ops_in_cyclic_groups(s.g, s.producers, rep, copies_of(s));
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

// Rule texts for the groups of improved parts (timed spaces): greedy's texts of those parts' groups go, and each
// multi-op group the search formed says so (its ops counted with its copies).
void replace_rules(const SearchState& s, detail::Grouping& grouping) {
  const std::string what = s.space.kind == SpaceKind::tvm ? "ops, the fastest grouping FuseOps' invariants allow"
                           : s.space.kind == SpaceKind::xla ? "ops, the fastest grouping XLA's fusion passes allow"
                                                            : "nodes, the fastest grouping Inductor's scheduler rules allow";
  std::vector<char> improved(s.g.size(), 0);
  for (const Part& part : s.parts)
    if (part.improvement)
      for (OpId x : part.members) improved[x] = 1;
  std::erase_if(grouping.rules, [&](const auto& rule) { return rule.first >= 0 && improved[rule.first]; });
  std::vector<std::int32_t> size(s.g.size(), 0);
  for (std::size_t x = 0; x < s.g.size(); ++x)
    if (improved[x] && grouping.representative[x] >= 0) ++size[grouping.representative[x]];
  for (const auto& [op, rep] : grouping.copies)  // xla: an improved group's copies count as its ops
    if (improved[op]) ++size[rep];
  for (std::size_t rep = 0; rep < s.g.size(); ++rep)
    if (size[rep] > 1)
      grouping.rules.emplace_back(static_cast<OpId>(rep), "plan search: " + std::to_string(size[rep]) + " " + what);
}

}  // namespace

SearchOutcome search_plan(const SearchSpace& space, const detail::Producers& producers, const std::vector<OpId>& order,
                          const PlannerOptions& options, const detail::Grouping& greedy, const FusionPlan& greedy_plan) {
  Components components = fusible_components(space, producers, order, space.kind == SpaceKind::xla ? &greedy : nullptr);
  SearchState s{space, space.graph, producers, space.consumers, options, greedy, greedy_plan, positions(order),
           std::move(components.of_op), {}, 0};
  for (std::vector<OpId>& members : components.members) s.parts.push_back(Part{std::move(members), false, 0, std::nullopt});
  SearchOutcome out;
  out.grouping = greedy;
  out.grouping.representative = solve_all(s);
  out.grouping.copies = copies_of(s);
  std::uint64_t saving = 0, slack = 0, tolerance = 0;
  for (const Part& part : s.parts) {
    slack += part.slack;
    tolerance += part.tolerance;
    if (!part.improvement) continue;
    for (const auto& [edge, reason] : part.improvement->reasons) out.grouping.reasons[static_cast<std::size_t>(edge)] = reason;
    saving += part.improvement->saving;
  }
  const std::uint64_t greedy_score = space.timed() ? total_time_ps(greedy_plan) : greedy_plan.bytes_fused;
  out.expected_score = greedy_score - saving;
  const std::uint64_t bound = greedy_score - slack;
  FUSION_CHECK(bound <= out.expected_score, "the lower bound holds for the plan found");
  SearchCertificate& c = out.certificate;
  c.present = true;
  c.objective = space.timed() ? "time" : "bytes";
  c.greedy_bytes_fused = greedy_plan.bytes_fused;
  c.greedy_time_fused_us = greedy_plan.time_fused_us;
  if (space.timed()) c.lower_bound_us = static_cast<double>(bound) / 1e6;
  else c.lower_bound = bound;
  c.nodes = s.nodes;
  c.status = bound + tolerance >= out.expected_score ? "optimal" : "bounded";
  if (space.timed()) {
    replace_rules(s, out.grouping);  // differences: the caller's, once the plan is priced (preset_differences.h)
  } else if (space.kind == SpaceKind::seed) {  // engine: the caller's, against greedy's packed plan
    explain_differences(space.graph, producers, space.consumers, order, options.broadcast, greedy,
                        out.grouping.representative, c);
  }
  return out;
}

}  // namespace fusion::search
