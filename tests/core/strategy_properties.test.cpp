// strategy_properties.test.cpp — every preset on thousands of seeded random DAGs (plus random variations of
// the rules each one accepts): every plan passes the verifier, planning is deterministic, no plan has more
// kernels than unfused, and each procedure keeps its own promise: the rule engine and tvm (no duplication)
// never move more bytes than unfused; the rule engine with refuse_unprofitable and xla (priority fusion
// only fuses when the time model says it saves time) are never slower than unfused, on every profile.
// Inductor may move more bytes (it recomputes inlined expressions in several kernels), as it does.

#include "fusion/hardware.h"
#include "fusion/strategy.h"
#include "random_graphs.h"
#include "test_graphs.h"
#include "test_scale.h"

using namespace fusion;
using namespace fusion::testing;

namespace {

void check_plan(const FusionGraph& g, const FusionPlanner& planner) {
  const FusionPlan plan = plan_checked(g, planner);
  CHECK(write_plan_json(plan) == write_plan_json(*planner.plan(g)));  // deterministic
  CHECK(plan.kernels_fused <= plan.kernels_unfused);
  const Procedure procedure = procedure_of(planner.options().strategy);
  if (procedure == Procedure::rules || procedure == Procedure::tvm) CHECK(plan.bytes_fused <= plan.bytes_unfused);
  if (procedure == Procedure::xla || (procedure == Procedure::rules && planner.options().rules.refuse_unprofitable))
    CHECK(plan.time_fused_us <= plan.time_unfused_us * (1 + 1e-12));
}

std::string describe(const PlannerOptions& o) {
  const StrategyRules& r = o.rules;
  return o.strategy + " " + o.hardware + " depth<=" + std::to_string(r.max_depth) + " passes=" +
         std::to_string(r.passes) + " cat<=" + std::to_string(r.max_pointwise_cat_inputs) + " ops<=" +
         std::to_string(r.max_group_ops) + " operands<=" +
         std::to_string(r.max_group_operands) + " live<=" + std::to_string(r.max_live_values) + " recompute=" +
         std::string(to_string(r.recompute)) + " horizontal=" + std::to_string(r.horizontal) + " small=" +
         std::to_string(r.horizontal_small_bytes) + " epilogue=" + std::to_string(r.epilogue);
}

// Random limits and switches for the shared rule engine (seed with overrides, xla-classic).
void vary_engine_rules(std::mt19937_64& rng, StrategyRules& rules) {
  if (rng() % 3 == 0) rules.max_group_ops = 2 + static_cast<std::int64_t>(rng() % 5);
  if (rng() % 3 == 0) rules.max_group_operands = 2 + static_cast<std::int64_t>(rng() % 6);
  if (rng() % 4 == 0) rules.max_live_values = 2 + static_cast<std::int64_t>(rng() % 6);
  if (rng() % 4 == 0) rules.recompute = Recompute::all;
  if (rng() % 4 == 0) rules.horizontal = !rules.horizontal;
  if (rng() % 4 == 0) rules.horizontal_small_bytes = rng() % 2 ? 64 : 0;
  if (rng() % 4 == 0) rules.epilogue = !rules.epilogue;
}

// A random variation of a preset's own rules: limits, passes, rules switched, another device.
FusionPlanner varied(std::mt19937_64& rng, std::string_view name) {
  FusionPlanner planner = FusionPlanner().with_strategy(std::string(name));
  StrategyRules rules = planner.options().rules;
  switch (procedure_of(name)) {
    case Procedure::tvm:
      if (rng() % 2 == 0) rules.max_depth = 1 + static_cast<std::int64_t>(rng() % 8);
      break;
    case Procedure::xla:
      if (rng() % 2 == 0) rules.passes = static_cast<std::uint8_t>(rng() % 8);
      if (rng() % 3 == 0) rules.max_group_operands = 2 + static_cast<std::int64_t>(rng() % 6);
      break;
    case Procedure::inductor:
      if (rng() % 3 == 0) rules.max_group_ops = 1 + static_cast<std::int64_t>(rng() % 5);
      if (rng() % 3 == 0) rules.max_pointwise_cat_inputs = static_cast<std::int64_t>(rng() % 3);
      if (rng() % 3 == 0) rules.epilogue = !rules.epilogue;
      break;
    case Procedure::rules:
      vary_engine_rules(rng, rules);
      break;
  }
  planner.with_rules(rules);
  planner.with_hardware(std::string(hardware_names()[rng() % hardware_names().size()]));
  return planner;
}


}  // namespace

TEST_CASE("every preset on 2,000 random DAGs: verified, deterministic, never costlier") {
  std::mt19937_64 rng(1129);
  for (int i = 0; i < scaled(2'000); ++i) {
    const FusionGraph g = random_strategy_graph(rng, 1 + static_cast<int>(rng() % 50));
    for (std::string_view name : strategy_names()) {
      CAPTURE(i);
      CAPTURE(name);
      check_plan(g, FusionPlanner().with_strategy(std::string(name)));
    }
  }
}

TEST_CASE("random rule variations of every preset on 2,000 random DAGs") {
  std::mt19937_64 rng(2026);
  for (int i = 0; i < scaled(2'000); ++i) {
    const FusionGraph g = random_strategy_graph(rng, 1 + static_cast<int>(rng() % 50));
    for (std::string_view name : strategy_names()) {
      const FusionPlanner planner = varied(rng, name);
      CAPTURE(i);
      CAPTURE(describe(planner.options()));
      check_plan(g, planner);
    }
  }
}

TEST_CASE("the seed-era random graphs under every preset, and 600-op graphs") {
  std::mt19937_64 rng(99);
  for (int i = 0; i < scaled(1'000); ++i) {
    const FusionGraph g = random_graph(rng, 1 + static_cast<int>(rng() % 60));
    for (std::string_view name : strategy_names()) {
      CAPTURE(i);
      CAPTURE(name);
      check_plan(g, FusionPlanner().with_strategy(std::string(name)));
    }
  }
  for (int i = 0; i < scaled(20); ++i) {
    const FusionGraph g = random_strategy_graph(rng, 600);
    for (std::string_view name : strategy_names()) {
      CAPTURE(i);
      CAPTURE(name);
      check_plan(g, FusionPlanner().with_strategy(std::string(name)));
    }
  }
}
