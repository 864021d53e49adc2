// cost.test.cpp — the bytes-moved model: unfused totals, both source models, per-group bytes.
#include "test_graphs.h"

#include "fusion/cost.h"

using namespace fusion;
using namespace fusion::testing;

TEST_CASE("unfused bytes: distinct inputs read once plus the output written once, per op") {
  const FusionGraph g = graph_from(R"({"ops": [
    {"name": "x", "kind": "input", "shape": [10], "dtype": "f32"},
    {"name": "y", "kind": "mul", "inputs": ["x", "x"], "shape": [10], "dtype": "f32"},
    {"name": "h", "kind": "cast", "inputs": ["y"], "shape": [10], "dtype": "f16"}]})");
  CHECK(op_bytes_unfused(g, 0, false) == 40);
  CHECK(op_bytes_unfused(g, 0, true) == 0);
  CHECK(op_bytes_unfused(g, 1, false) == 80);
  CHECK(op_bytes_unfused(g, 2, false) == 40 + 20);
  CHECK(unfused_bytes(g, false) == 40 + 80 + 60);
  CHECK(unfused_bytes(g, true) == 80 + 60);
}

TEST_CASE("a singleton group costs exactly its op's unfused bytes") {
  const FusionGraph g = graph_from(R"({"ops": [
    {"name": "x", "kind": "input", "shape": [8, 8], "dtype": "bf16"},
    {"name": "w", "kind": "input", "shape": [8, 8], "dtype": "bf16"},
    {"name": "m", "kind": "matmul", "inputs": ["x", "w"], "shape": [8, 8], "dtype": "bf16"}]})");
  for (bool resident : {false, true}) {
    const FusionPlan plan = plan_checked(g, FusionPlanner().with_resident_sources(resident));
    for (const FusionGroup& group : plan.groups)
      CHECK(group.bytes_read + group.bytes_written == op_bytes_unfused(g, group.ops.front(), resident));
    CHECK(plan.bytes_fused == plan.bytes_unfused);
    CHECK(plan.speedup_estimate == 1.0);
  }
}

TEST_CASE("fused bytes: external inputs once, outputs once, intermediates free") {
  const FusionGraph g = graph_from(R"({"ops": [
    {"name": "x", "kind": "input", "shape": [100], "dtype": "f32"},
    {"name": "a", "kind": "exp", "inputs": ["x"], "shape": [100], "dtype": "f32"},
    {"name": "b", "kind": "add", "inputs": ["a", "x"], "shape": [100], "dtype": "f32"},
    {"name": "c", "kind": "mul", "inputs": ["b", "x"], "shape": [100], "dtype": "f32"}]})");
  const FusionPlan plan = plan_checked(g);
  const FusionGroup& abc = group_of_op(g, plan, "a");
  CHECK(abc.ops.size() == 3);
  CHECK(abc.inputs == std::vector<OpId>{0});
  CHECK(abc.bytes_read == 400);    // x once, although three members read it
  CHECK(abc.bytes_written == 400);  // only c
  CHECK(plan.bytes_unfused == 400 + 800 + 1200 + 1200);
  CHECK(plan.bytes_fused == 400 + 800);
}

TEST_CASE("empty tensors move zero bytes and the speedup is 1.0") {
  const FusionGraph g = graph_from(R"({"ops": [
    {"kind": "input", "shape": [0, 5], "dtype": "f32"},
    {"kind": "relu", "inputs": [0], "shape": [0, 5], "dtype": "f32"}]})");
  const FusionPlan plan = plan_checked(g);
  CHECK(plan.bytes_unfused == 0);
  CHECK(plan.bytes_fused == 0);
  CHECK(plan.speedup_estimate == 1.0);
}
