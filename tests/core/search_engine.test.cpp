// search_engine.test.cpp — plan search under `seed` with rules set (docs/design.md §17 "Search under seed with
// rules"): the plan of fewest bytes the shared rule engine allows, checked against a brute force that tries every
// set partition of the ops the rules let share a group and judges each with the verifier (fusion/verify.h), on
// random graphs under random rule settings (recompute none); recompute stays refused.
#include <algorithm>
#include <random>

#include "partition_plan.h"
#include "random_graphs.h"
#include "test_graphs.h"
#include "test_scale.h"

using namespace fusion;
using namespace fusion::testing;

namespace {

// May the rules let this op share a group at all (the verifier's kind check)? Others stay alone.
bool may_share(const FusionOp& op, const StrategyRules& r) {
  if (op.is_source()) return false;
  if (is_loop_kind(op.kind, r)) return true;
  if (is_anchor_kind(op.kind)) return r.epilogue;
  return is_reduction_kind(op.kind) && (r.reduction_prologue || r.reduction_epilogue);
}

// Does the verifier accept the plan's groups (unfused edges carry `cycle`: the edge reasons are not judged here) (membership, group shapes, parts, limits, acyclic)?
bool groups_legal(const FusionGraph& g, const PlannerOptions& options, const FusionPlan& plan) {
  for (const Violation& v : verify_plan(g, options, plan))
    if (v.code != "edges" && v.code != "code") return false;
  return true;
}

// The fewest bytes over every legal partition, or nullopt when more than max_ops ops may share a group.
std::optional<std::uint64_t> brute_force_min_bytes(const FusionGraph& g, const PlannerOptions& options, std::size_t max_ops) {
  std::vector<OpId> free;
  for (std::size_t x = 0; x < g.size(); ++x)
    if (may_share(g.op(static_cast<OpId>(x)), options.rules)) free.push_back(static_cast<OpId>(x));
  if (free.size() > max_ops || free.size() < 2) return std::nullopt;
  std::vector<int> label(free.size(), 0);  // a restricted growth string: each set partition once
  std::optional<std::uint64_t> best;
  while (true) {
    std::vector<std::int32_t> op_group(g.size(), -1);
    std::int32_t next = 0;
    std::vector<std::int32_t> of_label(free.size(), -1);
    for (std::size_t x = 0; x < g.size(); ++x) {
      const auto it = std::find(free.begin(), free.end(), static_cast<OpId>(x));
      if (it == free.end()) { op_group[x] = next++; continue; }
      std::int32_t& slot = of_label[static_cast<std::size_t>(label[static_cast<std::size_t>(it - free.begin())])];
      if (slot < 0) slot = next++;
      op_group[x] = slot;
    }
    const FusionPlan plan = plan_from_partition(g, op_group, [](OpId, OpId) { return EdgeReason::cycle; }, options);
    if ((!best || plan.bytes_fused < *best) && groups_legal(g, options, plan)) best = plan.bytes_fused;
    std::size_t i = free.size();  // the next restricted growth string
    while (i-- > 1) {
      const int top = *std::max_element(label.begin(), label.begin() + static_cast<std::ptrdiff_t>(i));
      if (label[i] <= top) { ++label[i]; break; }
      label[i] = 0;
    }
    if (i == 0) return best;
  }
}

PlannerOptions random_rules(std::mt19937_64& rng) {
  PlannerOptions options;
  options.strategy = "seed";
  StrategyRules& r = options.rules;
  r.horizontal = rng() % 2;
  // 1 MiB packs every group of these small graphs; 200 bytes only some (their tensors hold at most 128 bytes).
  const std::uint64_t small[] = {0, 0, 0, 1u << 20, 200};
  r.horizontal_small_bytes = small[rng() % 5];
  r.epilogue = rng() % 2;
  r.reduction_prologue = rng() % 2;
  r.reduction_epilogue = rng() % 2;
  for (OpKind kind : {OpKind::reshape, OpKind::broadcast, OpKind::slice, OpKind::transpose, OpKind::concat})
    if (rng() % 2) r.movement.push_back(kind);
  if (rng() % 4 == 0) r.max_group_ops = 2 + static_cast<std::int64_t>(rng() % 3);
  if (rng() % 4 == 0) r.max_group_operands = 3 + static_cast<std::int64_t>(rng() % 3);
  if (rng() % 4 == 0) r.max_live_values = 3 + static_cast<std::int64_t>(rng() % 4);
  if (r == StrategyRules{}) r.horizontal = true;  // rules set: the engine, not the strict planner
  options.search.mode = SearchMode::optimal;
  return options;
}

}  // namespace

TEST_CASE("seed with rules: 2,000 random graphs: the searched plan has the brute-force fewest bytes, never above greedy") {
  std::mt19937_64 rng(20261202);
  int compared = 0, greedy_missed = 0;
  for (int i = 0; compared < scaled(2'000); ++i) {
    const FusionGraph g = random_strategy_graph(rng, 3 + static_cast<int>(rng() % 9));
    const PlannerOptions options = random_rules(rng);
    const std::optional<std::uint64_t> best = brute_force_min_bytes(g, options, 7);
    if (!best) continue;
    CAPTURE(i);
    ++compared;
    const FusionPlan plan = plan_checked(g, FusionPlanner(options));
    PlannerOptions greedy_options = options;
    greedy_options.search = {};
    const FusionPlan greedy = plan_checked(g, FusionPlanner(greedy_options));
    REQUIRE(plan.search.present);
    CHECK(plan.search.objective == "bytes");
    CHECK(plan.search.status == "optimal");
    CHECK(plan.bytes_fused == *best);
    CHECK(plan.bytes_fused <= greedy.bytes_fused);
    CHECK(plan.search.lower_bound <= plan.bytes_fused);
    CHECK(plan.search.greedy_bytes_fused == greedy.bytes_fused);
    if (greedy.bytes_fused > *best) ++greedy_missed;
  }
  MESSAGE("seed with rules: " << compared << " graphs, the rule engine missed the fewest bytes on " << greedy_missed);
  CHECK(greedy_missed > 0);
}

TEST_CASE("seed with rules: recompute cheap or all is still refused at /search/mode") {
  const FusionGraph g = graph_from(R"({"ops": [
    {"name": "x", "kind": "input", "shape": [8], "dtype": "f32"},
    {"name": "a", "kind": "exp", "inputs": ["x"], "shape": [8], "dtype": "f32"},
    {"name": "b", "kind": "neg", "inputs": ["a"], "shape": [8], "dtype": "f32"}]})");
  for (Recompute recompute : {Recompute::cheap, Recompute::all}) {
    PlannerOptions options;
    options.rules.recompute = recompute;
    options.search.mode = SearchMode::optimal;
    const Expected<FusionPlan> plan = FusionPlanner(options).plan(g);
    REQUIRE_FALSE(plan);
    CHECK(plan.errors().front().code == ErrorCode::invalid_options);
    CHECK(plan.errors().front().path == "/search/mode");
    CHECK(plan.errors().front().message.find("'seed' (with recompute none)") != std::string::npos);
  }
}

TEST_CASE("seed with rules: larger random graphs verify, never move more bytes than greedy, and explain differences") {
  std::mt19937_64 rng(20261204);
  int improved = 0, optimal = 0;
  for (int i = 0; i < scaled(40); ++i) {
    CAPTURE(i);
    const FusionGraph g = random_strategy_graph(rng, 60 + static_cast<int>(rng() % 140));
    PlannerOptions options = random_rules(rng);
    options.search.budget_nodes = 20'000;
    const FusionPlan plan = plan_checked(g, FusionPlanner(options));  // verified, differences included
    CHECK(plan.bytes_fused <= plan.search.greedy_bytes_fused);
    CHECK(plan.search.lower_bound <= plan.bytes_fused);
    optimal += plan.search.status == "optimal" ? 1 : 0;
    if (plan.bytes_fused < plan.search.greedy_bytes_fused) ++improved;
    for (const SearchDifference& d : plan.search.differences) {
      CHECK(d.why.find(name_of(g, d.producer) + " → " + name_of(g, d.consumer)) != std::string::npos);
      CHECK(d.why.find(std::string("the rule engine") + (d.greedy_fused ? " fused" : " left")) == 0);
    }
  }
  MESSAGE(improved << " of " << scaled(40) << " larger graphs improved on the rule engine, " << optimal << " proven optimal");
  CHECK(improved > 0);
}
