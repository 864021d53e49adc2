// search_presets.test.cpp — plan search under `tvm` and `inductor` (docs/design.md §17, fusion/search.h): the
// fastest partition FuseOps' invariants allow, checked against a brute-force enumerator on thousands of random
// graphs; never slower than FuseOps' greedy plan; max_depth; differences explained in FuseOps' terms; the gallery
// solved under both; the verifier on a time certificate.
#include <algorithm>
#include <fstream>
#include <sstream>

#include "fusion/json_io.h"
#include "random_graphs.h"
#include "test_graphs.h"
#include "test_scale.h"
#include "tvm_partition_enumerator.h"

using namespace fusion;
using namespace fusion::testing;

namespace {

PlannerOptions tvm_search(std::int64_t budget = kDefaultSearchNodes) {
  PlannerOptions options = *read_options_json(R"({"strategy": "tvm"})");
  options.search = {SearchMode::optimal, budget, false};
  return options;
}

double greedy_time(const FusionGraph& g, PlannerOptions options) {
  options.search = {};
  return plan_checked(g, FusionPlanner(options)).time_fused_us;
}

// The search's rounding and tolerance: at most 2 ps per op (fusion/search.h).
double rounding_us(const FusionGraph& g) { return 2e-6 * static_cast<double>(g.size() + 1); }

FusionGraph gallery(const char* name) {
  std::ifstream in(std::string(FUSION_SOURCE_DIR) + "/examples/models/" + name + ".json");
  std::stringstream text;
  text << in.rdbuf();
  return *read_graph_json(text.str());
}

}  // namespace

TEST_CASE("tvm: 3,000 random graphs: optimal plans equal the brute-force fastest; never slower than FuseOps") {
  std::mt19937_64 rng(20261202);
  int compared = 0, greedy_missed = 0;
  double worst = 1.0;
  for (int i = 0; compared < scaled(3'000); ++i) {
    const FusionGraph g = random_strategy_graph(rng, 3 + static_cast<int>(rng() % 12));
    PlannerOptions options = tvm_search();
    if (rng() % 4 == 0) options.rules.max_depth = 2 + static_cast<std::int64_t>(rng() % 3);
    options.hardware = rng() % 2 ? "a100" : "h100";
    const std::optional<double> best = brute_force_min_tvm_time(g, options, 12);
    if (!best) continue;
    CAPTURE(i);
    ++compared;
    const FusionPlan plan = plan_checked(g, FusionPlanner(options));
    const double greedy = greedy_time(g, options);
    REQUIRE(plan.search.present);
    CHECK(plan.search.objective == "time");
    CHECK(plan.search.status == "optimal");
    CHECK(plan.time_fused_us <= *best + rounding_us(g));
    CHECK(plan.time_fused_us >= *best - 1e-9 * *best);  // nothing beats the brute-force optimum
    CHECK(plan.search.lower_bound_us <= *best + 1e-9 * *best);
    CHECK(plan.search.greedy_time_fused_us == greedy);
    CHECK(plan.time_fused_us <= greedy + 1e-9 * greedy);
    if (greedy > *best + rounding_us(g)) {
      ++greedy_missed;
      worst = std::max(worst, greedy / *best);
    }
  }
  MESSAGE("compared " << compared << " graphs; FuseOps missed the fastest plan on " << greedy_missed << ", by up to "
                      << worst << "x its time");
  CHECK(greedy_missed > 0);
}

TEST_CASE("tvm: larger random graphs verify, never lose to FuseOps, and explain every difference") {
  std::mt19937_64 rng(7);
  int improved = 0;
  for (int i = 0; i < scaled(40); ++i) {
    CAPTURE(i);
    const FusionGraph g = random_strategy_graph(rng, 60 + static_cast<int>(rng() % 140));
    const PlannerOptions options = tvm_search(20'000);
    const FusionPlan plan = plan_checked(g, FusionPlanner(options));
    CHECK(plan.time_fused_us <= plan.search.greedy_time_fused_us * (1 + 1e-12));
    CHECK(plan.search.lower_bound_us <= plan.time_fused_us * (1 + 1e-12));
    if (plan.search.differences_total == 0) continue;
    ++improved;
    for (const SearchDifference& d : plan.search.differences) {
      CHECK(d.why.find(name_of(g, d.producer) + " → " + name_of(g, d.consumer)) != std::string::npos);
      CHECK(d.why.find(d.greedy_fused ? "FuseOps fused" : "FuseOps left") == 0);
    }
  }
  MESSAGE(improved << " of " << scaled(40) << " graphs improved on FuseOps");
  CHECK(improved > 0);
}

TEST_CASE("tvm: max_depth bounds every searched group") {
  std::mt19937_64 rng(3);
  for (int i = 0; i < scaled(200); ++i) {
    const FusionGraph g = random_strategy_graph(rng, 10 + static_cast<int>(rng() % 30));
    PlannerOptions options = tvm_search();
    options.rules.max_depth = 2;
    const FusionPlan plan = plan_checked(g, FusionPlanner(options));
    for (const FusionGroup& group : plan.groups) CHECK(group.ops.size() <= 2);
  }
}

TEST_CASE("tvm: every gallery model is solved to proven optimal") {
  for (const char* name : {"resnet18", "mobilenet-v2", "bert-layer", "mlp-gelu"}) {
    CAPTURE(name);
    const FusionGraph g = gallery(name);
    const FusionPlan plan = plan_checked(g, FusionPlanner(tvm_search()));
    CHECK(plan.search.status == "optimal");
    CHECK(plan.search.gap == 0.0);
    CHECK(plan.time_fused_us <= plan.search.greedy_time_fused_us);
  }
}

TEST_CASE("inductor: every gallery model is solved to proven optimal, over the scheduler's own lowering") {
  PlannerOptions options = *read_options_json(R"({"strategy": "inductor"})");
  options.search = {SearchMode::optimal, kDefaultSearchNodes, false};
  for (const char* name : {"resnet18", "mobilenet-v2", "bert-layer", "mlp-gelu"}) {
    CAPTURE(name);
    const FusionGraph g = gallery(name);
    const FusionPlan plan = plan_checked(g, FusionPlanner(options));
    CHECK(plan.search.objective == "time");
    CHECK(plan.search.status == "optimal");
    CHECK(plan.time_fused_us <= plan.search.greedy_time_fused_us);
  }
}

TEST_CASE("inductor: searched plans of larger random graphs verify and never lose to the scheduler") {
  std::mt19937_64 rng(5);
  int improved = 0;
  for (int i = 0; i < scaled(40); ++i) {
    CAPTURE(i);
    const FusionGraph g = random_strategy_graph(rng, 40 + static_cast<int>(rng() % 100));
    PlannerOptions options = *read_options_json(R"({"strategy": "inductor"})");
    if (i % 3 == 0) options.rules.max_group_ops = 3;
    options.search = {SearchMode::optimal, 20'000, false};
    const FusionPlan plan = plan_checked(g, FusionPlanner(options));
    options.search = {};
    const FusionPlan greedy = plan_checked(g, FusionPlanner(options));
    CHECK(plan.time_fused_us <= greedy.time_fused_us * (1 + 1e-12));
    CHECK(plan.search.lower_bound_us <= plan.time_fused_us * (1 + 1e-12));
    if (plan.search.differences_total == 0) continue;
    ++improved;
    for (const SearchDifference& d : plan.search.differences) CHECK(d.why.find("Inductor's scheduler ") == 0);
  }
  MESSAGE(improved << " of " << scaled(40) << " graphs improved on the scheduler");
}

TEST_CASE("tvm: the verifier checks a time certificate") {
  std::mt19937_64 rng(11);
  FusionGraph g;
  FusionPlan plan;
  const PlannerOptions options = tvm_search();
  for (int i = 0; plan.search.differences_total == 0; ++i) {  // a graph where the search beats FuseOps
    REQUIRE(i < 2000);
    g = random_strategy_graph(rng, 40);
    plan = plan_checked(g, FusionPlanner(options));
  }
  auto codes = [&](const FusionPlan& p) {
    std::vector<std::string> out;
    for (const Violation& v : verify_plan(g, options, p)) out.push_back(v.code);
    return out;
  };
  FusionPlan above = plan;
  above.search.lower_bound_us = plan.time_fused_us * 1.01;
  CHECK(!codes(above).empty());
  FusionPlan slower = plan;
  slower.search.greedy_time_fused_us = plan.time_fused_us * 0.99;
  CHECK(codes(slower) == std::vector<std::string>{"search", "search"});  // slower than greedy; not greedy's time
  FusionPlan claimed = plan;
  claimed.search.status = "optimal";
  claimed.search.gap = 0.0;
  claimed.search.lower_bound_us = plan.time_fused_us * 0.5;
  CHECK(codes(claimed) == std::vector<std::string>{"search"});
  const std::string text = write_plan_json(plan);
  CHECK(text.find("\"objective\":\"time\"") != std::string::npos);
  CHECK(text.find("\"lower_bound_us\":") != std::string::npos);
  CHECK(text.find("\"lower_bound\":") == std::string::npos);
}
