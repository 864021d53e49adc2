// planner.cpp — the plan() pipeline and the numbering of groups in execution order.
#include "fusion/planner.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

#include "detail/dim_formulas.h"
#include "detail/grouping.h"
#include "detail/internal_check.h"
#include "detail/strategy_grouping.h"
#include "detail/topology.h"
#include "presets/presets.h"
#include "search/component_totals.h"
#include "search/engine_bound.h"
#include "search/engine_copies.h"
#include "search/engine_pack.h"
#include "search/lowered_plan.h"
#include "search/preset_differences.h"
#include "search/search.h"
#include "search/unpacked_groups.h"
#include "fusion/cost.h"
#include "fusion/dims.h"
#include "fusion/hardware.h"
#include "fusion/labels.h"
#include "fusion/numerics.h"
#include "fusion/strategy.h"
#include "fusion/verify.h"

namespace fusion {
namespace {

// Groups by dense index (ranked by smallest owned member): owned members, then recomputed copies.
struct DenseGroups {
  std::vector<std::int32_t> of_op;           // op -> dense index of its owner, -1 for copy-only ops
  std::vector<std::vector<OpId>> owned;
  std::vector<std::vector<OpId>> copies;     // ascending
  std::vector<std::string> rules;            // the behaviour that formed each group, "" when none
};

DenseGroups dense_groups(std::size_t n, const detail::Grouping& grouping) {
  DenseGroups d;
  d.of_op.assign(n, -1);
  std::vector<std::int32_t> dense_of_rep(n, -1);
  for (std::size_t x = 0; x < n; ++x) {
    const OpId rep = grouping.representative[x];
    if (rep < 0) continue;
    std::int32_t& index = dense_of_rep[rep];
    if (index < 0) {
      index = static_cast<std::int32_t>(d.owned.size());
      d.owned.emplace_back();
    }
    d.of_op[x] = index;
    d.owned[index].push_back(static_cast<OpId>(x));
  }
  d.copies.resize(d.owned.size());
  std::vector<std::int32_t> copy_count(d.owned.size(), 0);  // each list sized once (copies can outnumber ops)
  for (const auto& [op, rep] : grouping.copies) ++copy_count[dense_of_rep[rep]];
  for (std::size_t k = 0; k < d.copies.size(); ++k) d.copies[k].reserve(static_cast<std::size_t>(copy_count[k]));
  for (const auto& [op, rep] : grouping.copies) d.copies[dense_of_rep[rep]].push_back(op);
  for (auto& list : d.copies)  // presets list their copies by op, so mostly already in order
    if (!std::is_sorted(list.begin(), list.end())) std::sort(list.begin(), list.end());
  d.rules.resize(d.owned.size());
  for (const auto& [rep, text] : grouping.rules)
    if (rep >= 0 && dense_of_rep[rep] >= 0) d.rules[dense_of_rep[rep]] = text;
  return d;
}

// Numbers the groups in a topological order of the group graph, smallest first owned op first among
// the ready ones (Kahn's algorithm), and fills op_group and each group's ops and recomputed copies. A
// group depends on the owners of everything its members (copies included) read from outside it (an op
// it holds a copy of is computed inside, even when another group owns it). Reads come from the producer rows
// (compact, unlike the ops; a repeated input counts once, which changes no order).
void number_groups(const FusionGraph& g, const detail::Producers& producers, const detail::Grouping& grouping,
                   FusionPlan& plan) {
  const std::size_t n = g.size();
  DenseGroups d = dense_groups(n, grouping);
  const std::size_t groups = d.owned.size();
  // Group edges (owner of a read -> reading group) as compressed rows: counted, then filled.
  std::vector<std::int64_t> offsets(groups + 1, 0);
  std::vector<std::int64_t> pending(groups, 0);
  std::vector<std::int64_t> copied_in(n, -1);  // op -> the last group (k) found holding a copy of it
  auto for_each_read = [&](auto&& visit) {
    for (std::size_t k = 0; k < groups; ++k) {
      for (OpId op : d.copies[k]) copied_in[op] = static_cast<std::int64_t>(k);
      for (const auto* list : {&d.owned[k], &d.copies[k]})
        for (OpId member : *list)
          for (auto it = producers.begin(member); it != producers.end(member); ++it) {
            const OpId in = *it;
            const std::int32_t from = d.of_op[in];
            const bool copy_here = copied_in[in] == static_cast<std::int64_t>(k);
            if (from >= 0 && from != static_cast<std::int32_t>(k) && !copy_here)
              visit(from, static_cast<std::int32_t>(k));
          }
    }
  };
  std::vector<std::pair<std::int32_t, std::int32_t>> reads;  // (from, to), one walk over the members
  for_each_read([&](std::int32_t from, std::int32_t to) {
    ++offsets[from + 1], ++pending[to];
    reads.emplace_back(from, to);
  });
  for (std::size_t k = 0; k < groups; ++k) offsets[k + 1] += offsets[k];
  std::vector<std::int32_t> successors(reads.size());
  std::vector<std::int64_t> fill(offsets.begin(), offsets.end() - 1);
  for (const auto& [from, to] : reads) successors[static_cast<std::size_t>(fill[from]++)] = to;
  std::priority_queue<std::int32_t, std::vector<std::int32_t>, std::greater<>> ready;
  for (std::size_t k = 0; k < groups; ++k)
    if (pending[k] == 0) ready.push(static_cast<std::int32_t>(k));
  std::vector<std::int32_t> id_of_dense(groups, -1);
  plan.groups.clear();
  plan.groups.reserve(groups);
  while (!ready.empty()) {
    const std::int32_t k = ready.top();
    ready.pop();
    id_of_dense[k] = static_cast<std::int32_t>(plan.groups.size());
    FusionGroup group;
    group.id = id_of_dense[k];
    group.rule = std::move(d.rules[k]);
    if (d.copies[k].empty()) {
      group.ops = std::move(d.owned[k]);
    } else {  // both ascending and disjoint: one merge
      group.ops.resize(d.owned[k].size() + d.copies[k].size());
      std::merge(d.owned[k].begin(), d.owned[k].end(), d.copies[k].begin(), d.copies[k].end(), group.ops.begin());
      group.recomputed = std::move(d.copies[k]);
    }
    for (std::int64_t e = offsets[k]; e < offsets[k + 1]; ++e)
      if (const std::int32_t next = successors[static_cast<std::size_t>(e)]; --pending[next] == 0) ready.push(next);
    plan.groups.push_back(std::move(group));
  }
  FUSION_CHECK(plan.groups.size() == groups, "the group graph is acyclic (every group gets a number)");
  plan.op_group.assign(n, -1);
  for (std::size_t x = 0; x < n; ++x)
    if (d.of_op[x] >= 0) plan.op_group[x] = id_of_dense[d.of_op[x]];
  for (const FusionGroup& group : plan.groups)  // copy-only ops: the first group that recomputes them
    for (OpId op : group.recomputed)
      if (plan.op_group[op] < 0) plan.op_group[op] = group.id;
  for (std::size_t x = 0; x < n; ++x) FUSION_CHECK(plan.op_group[x] >= 0, "every op is a member of some group");
}

// Is op a member (owned or recomputed) of the group?
bool is_member(const FusionPlan& plan, OpId op, std::int32_t group) {
  return plan.op_group[op] == group || is_recomputed(plan.groups[static_cast<std::size_t>(group)], op);
}

// Lists every distinct edge with its final decision: fused exactly when the producer is a member of the
// consumer's (owner) group.
void record_edges(const detail::Producers& producers, const std::vector<EdgeReason>& reasons, FusionPlan& plan) {
  plan.edges.clear();
  plan.edges.reserve(reasons.size());
  for (std::size_t x = 0; x + 1 < producers.offsets.size(); ++x)
    for (auto k = producers.offsets[x]; k < producers.offsets[x + 1]; ++k) {
      const OpId in = producers.ids[static_cast<std::size_t>(k)];
      const bool fused = is_member(plan, in, plan.op_group[x]);
      plan.edges.push_back({in, static_cast<OpId>(x), fused, fused ? EdgeReason::none : reasons[static_cast<std::size_t>(k)]});
    }
}

// Group formation by the strategy's procedure (docs/design.md §1, step 3).
detail::Grouping form(const FusionGraph& graph, const detail::Producers& producers, const detail::Consumers& consumers,
                      const std::vector<OpId>& order, const PlannerOptions& options) {
  const presets::PresetInput in{graph, producers, consumers, order, options};
  switch (procedure_of(options.strategy)) {
    case Procedure::tvm: return presets::form_tvm_groups(in);
    case Procedure::xla: return presets::form_xla_groups(in);
    case Procedure::inductor: return presets::form_inductor_groups(in);
    case Procedure::rules: break;
  }
  if (options.rules == StrategyRules{}) return detail::form_groups(graph, producers, consumers, order, options);
  return detail::form_strategy_groups(graph, producers, consumers, order, options);
}

// A grouping numbered, priced and labelled: every plan field but the warnings and the search certificate.
FusionPlan finished_plan(const FusionGraph& graph, const detail::Producers& producers, const detail::Grouping& grouping,
                         const PlannerOptions& options) {
  FusionPlan plan;
  plan.options = options;
  number_groups(graph, producers, grouping, plan);
  record_edges(producers, grouping.reasons, plan);
  price_plan(graph, plan);
  label_groups(graph, plan);
  return plan;
}

// The gap of the certificate's objective (fusion/search.h): 0 when optimal or the objective is 0.
SearchCertificate certificate_with_gap(SearchCertificate certificate, const FusionPlan& plan) {
  if (certificate.objective == "time") {
    const double time = plan.time_fused_us;
    certificate.gap = certificate.status == "optimal" || time <= 0.0
                          ? 0.0
                          : std::max(0.0, (time - certificate.lower_bound_us) / time);
    return certificate;
  }
  const std::uint64_t bytes = plan.bytes_fused;
  certificate.gap = bytes == 0 ? 0.0 : static_cast<double>(bytes - certificate.lower_bound) / static_cast<double>(bytes);
  return certificate;
}

// Does the verifier accept the plan's groups (verify_groups: the rest is priced and recorded as for every plan)?
bool groups_verify(const FusionGraph& g, const PlannerOptions& options, const FusionPlan& plan) {
  return verify_groups(g, options, plan).empty();
}

// seed with recompute set, or xla-classic (docs/design.md §17 "Search under xla-classic and recompute"): the
// engine search without copies (the strict seed search when no other rule is set) from greedy's plan without
// copies, the rule engine's recompute pass over its plan (search/engine_copies.h), and the better of that and
// greedy's own plan under the objective (bytes; time under xla-classic). The bound covers every plan the rules
// allow, copies and packs included (search/engine_bound.h); optimal when the plan meets it.
search::SearchOutcome engine_with_copies(const presets::PresetInput& in, const detail::Grouping& greedy,
                                         const FusionPlan& greedy_plan, const HardwareProfile& hardware) {
  const PlannerOptions& options = in.options;
  const bool timed = options.strategy == "xla-classic";
  PlannerOptions plain = options;
  plain.rules.recompute = Recompute::none;
  const bool strict = plain.rules == StrategyRules{};
  const search::SearchSpace space{in.graph, in.consumers, strict ? search::SpaceKind::seed : search::SpaceKind::engine,
                                  options.broadcast, 0, hardware, nullptr, nullptr, 0, &plain.rules};
  const detail::Grouping plain_greedy = form(in.graph, in.producers, in.consumers, in.order, plain);
  const detail::Grouping start = strict ? plain_greedy : search::data_connected(space, in.producers, plain_greedy);
  const search::SearchOutcome searched = search::search_plan(space, in.producers, in.order, plain, start,
                                                             finished_plan(in.graph, in.producers, start, plain));
  const auto score = [&](const FusionPlan& p) { return timed ? search::total_time_ps(p) : p.bytes_fused; };
  detail::Grouping candidate = search::with_copies(in, searched.grouping);
  const FusionPlan unpacked_plan = finished_plan(in.graph, in.producers, candidate, options);
  std::uint64_t candidate_score = score(unpacked_plan);
  const detail::Grouping unpacked = candidate;
  // Packs save launches: each of the two plans packed by levels (search/engine_pack.h); the faster, when it beats
  // the candidate, is verified (once: the verifier is the costly step on large graphs) and kept if it passes. The
  // rule texts do not change the price or the verdict.
  std::optional<std::pair<detail::Grouping, FusionPlan>> best_packed;
  const auto try_packed = [&](const detail::Grouping& base, const FusionPlan& base_plan) {
    std::optional<detail::Grouping> packed = search::packed_by_levels(in.graph, options, base, base_plan);
    if (!packed) return;
    FusionPlan plan = finished_plan(in.graph, in.producers, *packed, options);
    if (score(plan) < candidate_score && (!best_packed || score(plan) < score(best_packed->second)))
      best_packed.emplace(std::move(*packed), std::move(plan));
  };
  if (timed) {
    try_packed(greedy, greedy_plan);
    try_packed(unpacked, unpacked_plan);
  }
  if (best_packed && groups_verify(in.graph, options, best_packed->second)) {
    candidate = search::with_search_rules(in, std::move(best_packed->first));
    candidate_score = score(best_packed->second);
  }
  const search::SearchSpace judged{in.graph, in.consumers, search::SpaceKind::engine, options.broadcast, 0, hardware,
                                   nullptr, nullptr, 0, &options.rules};
  const search::EngineBound bound = search::engine_lower_bound(judged, in.producers, greedy_plan);
  search::SearchOutcome out;
  const bool better = candidate_score < score(greedy_plan);
  out.grouping = better ? candidate : greedy;
  out.expected_score = better ? candidate_score : score(greedy_plan);
  const std::uint64_t lower = timed ? bound.time_lower_ps : bound.bytes_lower;
  FUSION_CHECK(lower <= out.expected_score, "the lower bound holds for the plan found");
  SearchCertificate& c = out.certificate;
  c.present = true;
  c.objective = timed ? "time" : "bytes";
  c.greedy_bytes_fused = greedy_plan.bytes_fused;
  c.greedy_time_fused_us = greedy_plan.time_fused_us;
  if (timed) c.lower_bound_us = static_cast<double>(lower) / 1e6;
  else c.lower_bound = lower;
  c.nodes = searched.certificate.nodes;
  const std::uint64_t tolerance = timed ? bound.time_slack_ps : 0;  // the bound's rounding (engine_bound.h)
  c.status = lower + tolerance >= out.expected_score ? "optimal" : "bounded";
  return out;
}

// The plan search finds (docs/design.md §17) from the greedy grouping and plan, numbered and priced, with its
// certificate. Seed, tvm and xla search the planned graph; inductor its scheduler graph (search/lowered_plan.h).
FusionPlan searched_plan(const presets::PresetInput& in, const detail::Grouping& greedy, const FusionPlan& greedy_plan) {
  const PlannerOptions& options = in.options;
  const HardwareProfile hardware = hardware_profile(options.hardware).value_or(HardwareProfile{});
  const Procedure procedure = procedure_of(options.strategy);
  const bool engine = procedure == Procedure::rules && options.rules != StrategyRules{};  // else seed's strict planner
  search::SearchOutcome outcome;
  std::optional<presets::SchedulerGraph> lowered;
  if (procedure == Procedure::inductor) {
    lowered = presets::lower_for_inductor(in);
    const detail::Producers producers = detail::build_producers(lowered->graph);
    const detail::Consumers consumers = detail::build_consumers(lowered->graph);
    std::vector<OpId> order(lowered->graph.size());
    for (std::size_t s = 0; s < order.size(); ++s) order[s] = static_cast<OpId>(s);
    const search::SearchSpace space{lowered->graph, consumers, search::SpaceKind::inductor, options.broadcast,
                                    options.rules.max_group_ops, hardware, &in.graph, &*lowered};
    outcome = search::search_plan(space, producers, order, options,
                                  search::to_scheduler(greedy, *lowered, producers.ids.size()), greedy_plan);
    outcome.grouping = search::to_planned(outcome.grouping, *lowered, greedy);
  } else if (engine && (options.strategy == "xla-classic" || options.rules.recompute != Recompute::none)) {
    outcome = engine_with_copies(in, greedy, greedy_plan, hardware);
  } else if (engine) {  // seed with rules set: the engine space, over greedy unpacked
    const search::SearchSpace space{in.graph, in.consumers, search::SpaceKind::engine, options.broadcast, 0, hardware,
                                    nullptr, nullptr, 0, &options.rules};
    const detail::Grouping unpacked = search::data_connected(space, in.producers, greedy);
    const FusionPlan unpacked_plan = finished_plan(in.graph, in.producers, unpacked, options);
    FUSION_CHECK(unpacked_plan.bytes_fused == greedy_plan.bytes_fused, "splitting greedy's packs keeps its bytes");
    outcome = search::search_plan(space, in.producers, in.order, options, unpacked, unpacked_plan);
    if (outcome.expected_score == greedy_plan.bytes_fused) outcome.grouping = greedy;  // nothing better: keep its packs
    outcome.certificate.greedy_time_fused_us = greedy_plan.time_fused_us;
  } else {
    const bool tvm = procedure == Procedure::tvm, xla = procedure == Procedure::xla;
    const search::SpaceKind kind = tvm ? search::SpaceKind::tvm : xla ? search::SpaceKind::xla : search::SpaceKind::seed;
    const search::SearchSpace space{in.graph, in.consumers, kind, options.broadcast, tvm ? options.rules.max_depth : 0,
                                    hardware, nullptr, nullptr, xla ? options.rules.max_group_operands : 0};
    outcome = search::search_plan(space, in.producers, in.order, options, greedy, greedy_plan);
  }
  FusionPlan plan = finished_plan(in.graph, in.producers, outcome.grouping, options);
  const bool timed = outcome.certificate.objective == "time";
  FUSION_CHECK((timed ? search::total_time_ps(plan) : plan.bytes_fused) == outcome.expected_score,
               "a searched plan prices to what the search found");
  if (lowered) search::complete_cut_reasons(*lowered, options.rules.max_group_ops, plan);
  if (engine)
    search::explain_preset_differences(in.graph, "the rule engine", greedy_plan, plan, outcome.certificate,
                                       timed ? "the fastest plan" : "the plan of fewest bytes");
  else if (timed)
    search::explain_preset_differences(in.graph,
                                       lowered                         ? "Inductor's scheduler"
                                       : procedure == Procedure::xla ? "XLA's passes"
                                                                       : "FuseOps",
                                       greedy_plan, plan, outcome.certificate);
  plan.search = certificate_with_gap(std::move(outcome.certificate), plan);
  return plan;
}

std::string joined_names(std::span<const std::string_view> names) {
  std::string text;
  for (std::string_view name : names) text += (text.empty() ? "'" : ", '") + std::string(name) + "'";
  return text;
}

// A warning per binding the graph has no use for (docs/design.md §16).
std::vector<PlanWarning> unused_dim_warnings(const FusionGraph& graph, const DimValues& dims) {
  std::vector<PlanWarning> warnings;
  for (const std::string& name : unused_dims(graph, dims))
    warnings.push_back({"unused_dim", "the options give dimension '" + name + "' a value, but no shape of the graph uses it",
                        "/dims/" + name});
  return warnings;
}

// Can plan search run under these options (fusion/search.h: every strategy but xla with passes left out)?
bool searchable(const PlannerOptions& options) {
  if (procedure_of(options.strategy) == Procedure::xla)
    return options.rules.passes == (xla_priority | xla_multi_output | xla_horizontal);
  return true;
}

}  // namespace

bool is_known_strategy(const std::string& name) { return preset_rules(name).has_value(); }

FusionPlanner& FusionPlanner::with_strategy(std::string name) {
  if (std::optional<StrategyRules> rules = preset_rules(name)) options_.rules = std::move(*rules);
  options_.strategy = std::move(name);
  return *this;
}

std::optional<Error> FusionPlanner::options_error() const {
  if (!is_known_strategy(options_.strategy))
    return Error{ErrorCode::unknown_strategy,
                 "unknown strategy '" + options_.strategy + "'; the known strategies are " +
                     joined_names(strategy_names()),
                 {}, "/strategy", {}, {}};
  if (const std::string_view rule = inapplicable_rule(options_.strategy, options_.rules); !rule.empty())
    return Error{ErrorCode::invalid_options,
                 "rule '" + std::string(rule) + "' does not apply to strategy '" + options_.strategy + "'",
                 {}, "/rules/" + std::string(rule), {}, {}};
  if (options_.search.mode == SearchMode::optimal && !searchable(options_))
    return Error{ErrorCode::invalid_options,
                 "search is available for strategies 'seed', 'xla-classic', 'tvm', 'inductor' and 'xla' (with all "
                 "three passes) so far; strategy '" +
                     options_.strategy + "' with passes left out plans greedily only",
                 {}, "/search/mode", {}, {}};
  if (options_.numerics.parity && (options_.strategy != "seed" || options_.rules != StrategyRules{} ||
                                   options_.search.mode == SearchMode::optimal))
    return Error{ErrorCode::invalid_options,
                 "eager parity is available for the greedy seed planner so far (strategy 'seed' with every rule off, "
                 "search greedy)",
                 {}, "/numerics/parity", {}, {}};
  if (!hardware_profile(options_.hardware))
    return Error{ErrorCode::invalid_options,
                 "unknown hardware '" + options_.hardware + "'; the known profiles are " +
                     joined_names(hardware_names()),
                 {}, "/hardware", {}, {}};
  return std::nullopt;
}

Expected<FusionPlan> FusionPlanner::plan(const FusionGraph& graph) const {
  if (std::optional<Error> error = options_error()) return *error;
  std::vector<PlanWarning> warnings = unused_dim_warnings(graph, options_.dims);
  if (!graph.has_dim_names()) return plan_bound(graph, std::move(warnings));
  Expected<FusionGraph> bound = bind_dims(graph, options_.dims);
  if (!bound) return bound.errors();
  Expected<FusionPlan> plan = plan_bound(*bound, std::move(warnings));
  if (plan) detail::describe_dims(*bound, plan.value());
  return plan;
}

Expected<FusionPlan> FusionPlanner::plan_numbers(const FusionGraph& graph) const {
  if (std::optional<Error> error = options_error()) return *error;
  if (!graph.has_dim_names()) return plan_bound(graph, {});
  Expected<FusionGraph> bound = bind_dims(graph, options_.dims);
  if (!bound) return bound.errors();
  return plan_bound(*bound, {});
}

Expected<FusionPlan> FusionPlanner::plan_bound(const FusionGraph& graph, std::vector<PlanWarning> warnings) const {
  if (std::vector<Error> errors = validate(graph); !errors.empty()) return errors;

  const detail::Producers producers = detail::build_producers(graph);
  const detail::Consumers consumers = detail::build_consumers(graph);
  const std::optional<std::vector<OpId>> order = detail::topological_order(graph, consumers);
  FUSION_CHECK(order.has_value(), "a validated graph has a topological order");
  const detail::Grouping grouping = form(graph, producers, consumers, *order, options_);

  FusionPlan plan = finished_plan(graph, producers, grouping, options_);
  if (options_.search.mode == SearchMode::optimal)
    plan = searched_plan(presets::PresetInput{graph, producers, consumers, *order, options_}, grouping, plan);
  if (options_.search.budget_capped)
    warnings.push_back({"search_budget_capped",
                        "the search budget was capped at " + std::to_string(kMaxSearchNodes) + " nodes",
                        "/search/budget_nodes"});
  if (options_.search.budget_ms_capped)
    warnings.push_back({"search_budget_capped",
                        "the search time budget was capped at " + std::to_string(kMaxSearchMs) + " ms",
                        "/search/budget_ms"});
  if (options_.numerics.enabled) {  // docs/design.md §18
    std::vector<std::vector<NumericsNote>> notes = fusion_notes(graph, plan);
    for (std::size_t k = 0; k < plan.groups.size(); ++k) plan.groups[k].numerics = std::move(notes[k]);
    if (options_.numerics.evaluate) plan.numerics = evaluate_numerics(graph, plan, options_.numerics);
    plan.numerics.present = true;
    plan.numerics.evaluated = options_.numerics.evaluate;
    if (options_.numerics.parity) {  // what parity costs: the plan without it
      PlannerOptions without = options_;
      without.numerics = {};
      const Expected<FusionPlan> free = FusionPlanner(without).plan_numbers(graph);
      FUSION_CHECK(static_cast<bool>(free), "a graph that plans with eager parity plans without it");
      plan.numerics.parity_cost_bytes =
          static_cast<std::int64_t>(plan.bytes_fused) - static_cast<std::int64_t>(free->bytes_fused);
    }
  }
  plan.warnings = std::move(warnings);
  return plan;
}

}  // namespace fusion
