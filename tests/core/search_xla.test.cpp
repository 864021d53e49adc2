// search_xla.test.cpp — plan search under `xla` (docs/design.md §17, docs/strategies.md "xla"): the fastest plan
// of XLA's fusion space, duplication (priority fusion's copies) included, checked against a brute-force enumerator
// (xla_partition_enumerator.h) on thousands of random graphs; never slower than XLA's greedy passes; larger graphs
// verify and explain every difference in XLA's terms; the gallery is solved; search needs all three passes.
#include "fusion/json_io.h"
#include "random_graphs.h"
#include "test_graphs.h"
#include "test_scale.h"
#include "timed_search_helpers.h"
#include "xla_partition_enumerator.h"

using namespace fusion;
using namespace fusion::testing;

namespace {

PlannerOptions xla_search(std::int64_t budget = kDefaultSearchNodes) { return search_options("xla", budget); }

// Some ops of g turned into scatters (in-place operand, indices, updates: three earlier ops, the operand's shape),
// when the graph stays valid; the random graphs have none otherwise.
FusionGraph with_scatters(std::mt19937_64& rng, const FusionGraph& g) {
  FusionGraph out;
  for (std::size_t x = 0; x < g.size(); ++x) {
    FusionOp op = g.op(static_cast<OpId>(x));
    if (x >= 3 && !op.is_source() && rng() % 6 == 0) {
      op.kind = OpKind::scatter;
      op.inputs = {static_cast<OpId>(rng() % x), static_cast<OpId>(rng() % x), static_cast<OpId>(rng() % x)};
      op.shape = out.op(op.inputs.front()).shape;
    }
    out.add_op(std::move(op));
  }
  return validate(out).empty() ? out : g;
}

FusionPlan greedy_plan(const FusionGraph& g, PlannerOptions options) {
  options.search = {};
  return plan_checked(g, FusionPlanner(options));
}

}  // namespace

TEST_CASE("xla: 3,000 random graphs: optimal plans are at most the brute-force fastest and greedy; never beaten") {
  std::mt19937_64 rng(20261203);
  int compared = 0, greedy_missed = 0, greedy_inside = 0, with_copies = 0, scatters = 0;
  for (int i = 0; compared < scaled(3'000); ++i) {
    const FusionGraph g = with_scatters(rng, random_strategy_graph(rng, 3 + static_cast<int>(rng() % 10)));
    PlannerOptions options = xla_search();
    if (rng() % 4 == 0) options.rules.max_group_operands = 2 + static_cast<std::int64_t>(rng() % 3);
    options.hardware = rng() % 2 ? "a100" : "h100";
    const std::optional<double> best = brute_force_min_xla_time(g, options, 8, 4);
    if (!best) continue;
    CAPTURE(i);
    ++compared;
    const FusionPlan plan = plan_checked(g, FusionPlanner(options));
    const FusionPlan greedy = greedy_plan(g, options);
    const double floor = std::min(*best, greedy.time_fused_us);
    REQUIRE(plan.search.present);
    CHECK(plan.search.objective == "time");
    CHECK(plan.search.status == "optimal");
    CHECK(plan.time_fused_us <= floor + rounding_us(g));
    CHECK(plan.search.lower_bound_us <= floor + 1e-9 * floor);
    CHECK(plan.search.greedy_time_fused_us == greedy.time_fused_us);
    if (greedy_in_space(g, options, greedy)) {  // then every plan the search can return is one of the space's
      ++greedy_inside;
      CHECK(plan.time_fused_us >= *best - 1e-9 * *best);
    }
    for (const FusionGroup& group : plan.groups) with_copies += group.recomputed.empty() ? 0 : 1;
    for (const FusionOp& op : g.ops()) scatters += op.kind == OpKind::scatter ? 1 : 0;
    if (greedy.time_fused_us > *best + rounding_us(g)) ++greedy_missed;
  }
  MESSAGE("xla: " << compared << " graphs, greedy in the space on " << greedy_inside << ", XLA's passes missed the "
                  << "optimum on " << greedy_missed << "; " << with_copies << " searched groups hold copies; "
                  << scatters << " scatters");
  CHECK(greedy_inside > compared / 2);
  CHECK(greedy_missed > 0);
  CHECK(with_copies > 0);
  CHECK(scatters > 0);
}

TEST_CASE("xla: larger random graphs verify, never lose to XLA's passes, and explain every difference") {
  const int graphs = std::max(10, scaled(40));  // at least 10, so that one improves however few the run takes
  const int improved = check_larger_random_graphs(11, graphs, xla_search(20'000), "XLA's passes");
  MESSAGE(improved << " of " << graphs << " graphs improved on XLA's passes");
  CHECK(improved > 0);
}

TEST_CASE("xla: every gallery model is solved to proven optimal") {
  for (const char* name : {"mlp-gelu", "bert-layer", "resnet18", "mobilenet-v2"}) {
    CAPTURE(name);
    const FusionGraph g = gallery(name);
    const FusionPlan plan = plan_checked(g, FusionPlanner(xla_search()));
    CHECK(plan.search.status == "optimal");
    CHECK(plan.time_fused_us <= greedy_time(g, xla_search()) * (1 + 1e-12));
  }
}

TEST_CASE("xla: search needs all three passes; with fewer it is refused naming the rule") {
  PlannerOptions options = xla_search();
  options.rules.passes = xla_priority;
  const FusionGraph g = graph_from(R"({"ops": [
    {"name": "x", "kind": "input", "shape": [8], "dtype": "f32"},
    {"name": "a", "kind": "exp", "inputs": ["x"], "shape": [8], "dtype": "f32"},
    {"name": "b", "kind": "neg", "inputs": ["a"], "shape": [8], "dtype": "f32"}]})");
  const Expected<FusionPlan> plan = FusionPlanner(options).plan(g);
  REQUIRE_FALSE(plan);
  CHECK(plan.errors().front().code == ErrorCode::invalid_options);
  CHECK(plan.errors().front().path == "/search/mode");
  CHECK(plan.errors().front().message.find("'xla' (with all three passes)") != std::string::npos);
}
