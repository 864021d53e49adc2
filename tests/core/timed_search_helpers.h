// timed_search_helpers.h — what the tests of plan search under a time objective share (search_presets.test.cpp,
// search_xla.test.cpp): greedy's time, the search's rounding, the gallery models, and the larger-graph check.
// Needs FUSION_SOURCE_DIR (the repository root) for the gallery.
#pragma once

#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "fusion/json_io.h"
#include "random_graphs.h"
#include "test_graphs.h"
#include "test_scale.h"

namespace fusion::testing {

// Options for plan search under a strategy, with a node budget.
inline PlannerOptions search_options(const std::string& strategy, std::int64_t budget = kDefaultSearchNodes) {
  PlannerOptions options = *read_options_json(R"({"strategy": ")" + strategy + R"("})");
  options.search = {SearchMode::optimal, budget, false};
  return options;
}

inline double greedy_time(const FusionGraph& g, PlannerOptions options) {
  options.search = {};
  return plan_checked(g, FusionPlanner(options)).time_fused_us;
}

// The search's rounding and tolerance: at most 2 ps per op (fusion/search.h).
inline double rounding_us(const FusionGraph& g) { return 2e-6 * static_cast<double>(g.size() + 1); }

inline FusionGraph gallery(const char* name) {
  std::ifstream in(std::string(FUSION_SOURCE_DIR) + "/examples/models/" + name + ".json");
  std::stringstream text;
  text << in.rdbuf();
  return *read_graph_json(text.str());
}

// Searched plans of `count` random graphs of 60-199 ops under `options` verify (plan_checked), are never slower than
// greedy, carry a bound below their time, and explain every difference in the procedure's words (`who`, e.g.
// "FuseOps"). Answers how many improved on greedy.
inline int check_larger_random_graphs(std::uint64_t seed, int count, const PlannerOptions& options, const std::string& who) {
  std::mt19937_64 rng(seed);
  int improved = 0;
  for (int i = 0; i < count; ++i) {
    CAPTURE(i);
    const FusionGraph g = random_strategy_graph(rng, 60 + static_cast<int>(rng() % 140));
    const FusionPlan plan = plan_checked(g, FusionPlanner(options));
    CHECK(plan.time_fused_us <= plan.search.greedy_time_fused_us * (1 + 1e-12));
    CHECK(plan.search.lower_bound_us <= plan.time_fused_us * (1 + 1e-12));
    if (plan.search.differences_total == 0) continue;
    ++improved;
    for (const SearchDifference& d : plan.search.differences) {
      CHECK(d.why.find(name_of(g, d.producer) + " → " + name_of(g, d.consumer)) != std::string::npos);
      CHECK(d.why.find(who + (d.greedy_fused ? " fused" : " left")) == 0);
    }
  }
  return improved;
}

}  // namespace fusion::testing
