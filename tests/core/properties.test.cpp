// properties.test.cpp — the planner on 10,000+ seeded random DAGs: every plan passes the verifier,
// fused bytes never exceed unfused, planning is deterministic, and the groups and reasons equal those
// of a deliberately naive reference (merge iff the whole contracted graph stays acyclic), which shows
// the fast cycle check is exact.

#include "random_graphs.h"
#include "reference_planner.h"
#include "test_graphs.h"
#include "test_scale.h"

using namespace fusion;
using namespace fusion::testing;

namespace {

void check_against_reference(const FusionGraph& g, const PlannerOptions& options) {
  const FusionPlanner planner(options);
  const FusionPlan plan = plan_checked(g, planner);
  CHECK(plan.bytes_fused <= plan.bytes_unfused);
  CHECK(write_plan_json(plan) == write_plan_json(*planner.plan(g)));  // deterministic

  const Reference ref = reference_plan(g, options.broadcast);
  for (std::size_t x = 0; x < g.size(); ++x)
    for (std::size_t y = x + 1; y < g.size(); ++y)
      REQUIRE_MESSAGE((plan.op_group[x] == plan.op_group[y]) == (ref.group[x] == ref.group[y]),
                      "ops " << x << " and " << y << " are grouped differently from the reference");
  for (const EdgeDecision& e : plan.edges)
    if (!e.fused) CHECK(to_string(e.reason) == std::string(to_string(ref.reason.at({e.producer, e.consumer}))));
}

}  // namespace

TEST_CASE("10,000 random DAGs: verified, never costlier, deterministic, equal to the naive reference") {
  std::mt19937_64 rng(20261129);
  for (int i = 0; i < scaled(10'000); ++i) {
    const FusionGraph g = random_graph(rng, 1 + static_cast<int>(rng() % 60));
    PlannerOptions options;
    options.broadcast = rng() % 4 != 0;
    options.resident_sources = rng() % 2 == 0;
    CAPTURE(i);
    check_against_reference(g, options);
  }
}

TEST_CASE("larger random DAGs (600 ops) agree with the reference too") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 40; ++i) {
    CAPTURE(i);
    check_against_reference(random_graph(rng, 600), PlannerOptions{});
  }
}
