// verify.test.cpp — the verifier accepts the planner's plans and catches every kind of corruption.
#include "partition_plan.h"
#include "test_graphs.h"

#include <algorithm>

#include "fusion/cost.h"

using namespace fusion;
using namespace fusion::testing;

namespace {

bool has_violation(const FusionGraph& g, const FusionPlan& plan, const std::string& code,
                   const PlannerOptions& options = {}) {
  for (const Violation& v : verify_plan(g, options, plan))
    if (v.code == code) return true;
  return false;
}

// A priced plan with the given partition, as a planner with other rules might produce it; unfused
// edges get the reason their ends call for (cycle when the edge itself is legal).
FusionPlan plan_from_partition(const FusionGraph& g, const std::vector<std::int32_t>& op_group) {
  return testing::plan_from_partition(g, op_group, [&g](OpId in, OpId x) {
    if (g.op(in).is_source()) return EdgeReason::source;
    if (!is_fusible(g.op(in).kind)) return EdgeReason::barrier_producer;
    if (!is_fusible(g.op(x).kind)) return EdgeReason::barrier_consumer;
    return EdgeReason::cycle;
  });
}

const char* kSandwich = R"({"ops": [
  {"name": "x", "kind": "input",  "shape": [8, 8], "dtype": "f32"},
  {"name": "w", "kind": "input",  "shape": [8, 8], "dtype": "f32"},
  {"name": "a", "kind": "relu",   "inputs": ["x"], "shape": [8, 8], "dtype": "f32"},
  {"name": "m", "kind": "matmul", "inputs": ["a", "w"], "shape": [8, 8], "dtype": "f32"},
  {"name": "c", "kind": "add",    "inputs": ["a", "m"], "shape": [8, 8], "dtype": "f32"},
  {"name": "d", "kind": "exp",    "inputs": ["c"], "shape": [8, 8], "dtype": "f32"}]})";

}  // namespace

TEST_SUITE("verifier") {
  TEST_CASE("the planner's plan has no violations") {
    const FusionGraph g = graph_from(kSandwich);
    CHECK(verify_plan(g, {}, *FusionPlanner().plan(g)).empty());
    CHECK(verify_plan(g, {}, plan_from_partition(g, {0, 1, 2, 3, 4, 4})).empty());
  }

  TEST_CASE("partition: an op in two groups, in none, or op_group disagreeing") {
    const FusionGraph g = graph_from(kSandwich);
    FusionPlan plan = *FusionPlanner().plan(g);
    SUBCASE("op_group disagrees with the group lists") {
      plan.op_group[2] = plan.op_group[0];
      CHECK(has_violation(g, plan, "partition"));
    }
    SUBCASE("an op listed twice") {
      plan.groups[0].ops.push_back(5);
      CHECK(has_violation(g, plan, "partition"));
    }
    SUBCASE("op_group of the wrong length") {
      plan.op_group.pop_back();
      CHECK(has_violation(g, plan, "partition"));
    }
  }

  TEST_CASE("not_fusible: a barrier or a source inside a multi-op group") {
    const FusionGraph g = graph_from(kSandwich);
    CHECK(has_violation(g, plan_from_partition(g, {0, 1, 2, 3, 3, 3}), "not_fusible"));  // m with c, d
    CHECK(has_violation(g, plan_from_partition(g, {0, 1, 0, 2, 3, 3}), "not_fusible"));  // x with a
  }

  TEST_CASE("disconnected: two members with no edge between them inside the group") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"kind": "input", "shape": [4], "dtype": "f32"},
      {"kind": "relu", "inputs": [0], "shape": [4], "dtype": "f32"},
      {"kind": "neg", "inputs": [0], "shape": [4], "dtype": "f32"}]})");
    CHECK(has_violation(g, plan_from_partition(g, {0, 1, 1}), "disconnected"));
  }

  TEST_CASE("shape: an edge inside a group whose shapes may not merge") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"kind": "input", "shape": [4, 1], "dtype": "f32"},
      {"kind": "relu", "inputs": [0], "shape": [4, 1], "dtype": "f32"},
      {"kind": "neg", "inputs": [1], "shape": [1, 3], "dtype": "f32"},
      {"kind": "add", "inputs": [2, 1], "shape": [5, 3], "dtype": "f32"}]})");
    CHECK(has_violation(g, plan_from_partition(g, {0, 1, 1, 1}), "shape"));
    PlannerOptions no_broadcast;
    no_broadcast.broadcast = false;
    CHECK(has_violation(g, plan_from_partition(g, {0, 1, 1, 2}), "shape", no_broadcast));
  }

  TEST_CASE("cycle: a group on both sides of a barrier") {
    const FusionGraph g = graph_from(kSandwich);
    const FusionPlan plan = plan_from_partition(g, {0, 1, 2, 3, 2, 2});
    CHECK(has_violation(g, plan, "cycle"));
    CHECK_FALSE(has_violation(g, plan, "disconnected"));
  }

  TEST_CASE("verify_groups: the group checks alone (a cycle), not the prices or edges") {
    const FusionGraph g = graph_from(kSandwich);
    const FusionPlan cyclic = plan_from_partition(g, {0, 1, 2, 3, 2, 2});
    const std::vector<Violation> found = verify_groups(g, {}, cyclic);
    CHECK(std::any_of(found.begin(), found.end(), [](const Violation& v) { return v.code == "cycle"; }));
    FusionPlan mispriced = *FusionPlanner().plan(g);
    mispriced.groups[2].bytes_read += 1;
    mispriced.edges.front().reason = EdgeReason::shape;
    CHECK(has_violation(g, mispriced, "bytes"));
    CHECK(verify_groups(g, {}, mispriced).empty());
  }

  TEST_CASE("inputs and outputs must be exactly the external producers and the escaping members") {
    const FusionGraph g = graph_from(kSandwich);
    FusionPlan plan = *FusionPlanner().plan(g);
    FusionGroup& cd = plan.groups[static_cast<std::size_t>(plan.op_group[4])];
    SUBCASE("a missing input") {
      cd.inputs.pop_back();
      CHECK(has_violation(g, plan, "inputs"));
    }
    SUBCASE("a dropped output") {
      cd.outputs.clear();
      CHECK(has_violation(g, plan, "outputs"));
    }
    SUBCASE("an internal value claimed as output") {
      cd.outputs.insert(cd.outputs.begin(), 4);
      CHECK(has_violation(g, plan, "outputs"));
    }
  }

  TEST_CASE("bytes: every count is recomputed") {
    const FusionGraph g = graph_from(kSandwich);
    FusionPlan plan = *FusionPlanner().plan(g);
    SUBCASE("per group") {
      plan.groups[2].bytes_read += 1;
      CHECK(has_violation(g, plan, "bytes"));
    }
    SUBCASE("totals") {
      plan.bytes_unfused -= 4;
      CHECK(has_violation(g, plan, "totals"));
    }
    SUBCASE("speedup") {
      plan.speedup_estimate = 3.0;
      CHECK(has_violation(g, plan, "totals"));
    }
    SUBCASE("kernels") {
      plan.kernels_fused = 1;
      CHECK(has_violation(g, plan, "totals"));
    }
    SUBCASE("a group's kernel flag: true exactly when a member has inputs") {
      REQUIRE(plan.groups[0].kernel == false);  // x, a source
      plan.groups[0].kernel = true;
      CHECK(has_violation(g, plan, "kernels"));
      plan.groups[0].kernel = false;
      plan.groups.back().kernel = false;
      CHECK(has_violation(g, plan, "kernels"));
    }
    SUBCASE("the source model matters") {
      PlannerOptions resident;
      resident.resident_sources = true;
      CHECK(has_violation(g, plan, "bytes", resident));
    }
  }

  TEST_CASE("edges: each listed once, fused exactly inside a group, with a fitting reason") {
    const FusionGraph g = graph_from(kSandwich);
    FusionPlan plan = *FusionPlanner().plan(g);
    auto edge = [&](OpId p, OpId c) -> EdgeDecision& {
      for (EdgeDecision& e : plan.edges)
        if (e.producer == p && e.consumer == c) return e;
      FAIL("no edge");
      return plan.edges.front();
    };
    SUBCASE("a missing edge") {
      plan.edges.pop_back();
      CHECK(has_violation(g, plan, "edges"));
    }
    SUBCASE("a duplicated edge") {
      plan.edges.push_back(plan.edges.front());
      CHECK(has_violation(g, plan, "edges"));
    }
    SUBCASE("a fused flag that contradicts the groups") {
      edge(4, 5).fused = false;
      edge(4, 5).reason = EdgeReason::cycle;
      CHECK(has_violation(g, plan, "edges"));
    }
    SUBCASE("a reason that does not fit") {
      edge(0, 2).reason = EdgeReason::cycle;  // x is a source
      CHECK(has_violation(g, plan, "edges"));
    }
    SUBCASE("an edge the graph does not have") {
      plan.edges.push_back({0, 5, false, EdgeReason::source});
      CHECK(has_violation(g, plan, "edges"));
    }
  }
}
