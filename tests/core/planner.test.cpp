// planner.test.cpp — the seed semantics on graphs small enough to check by hand: exact groups, bytes
// and reasons. Every plan here also passes the verifier (plan_checked).
#include "test_graphs.h"
#include "test_scale.h"

using namespace fusion;
using namespace fusion::testing;
using Groups = std::vector<std::vector<std::string>>;

TEST_SUITE("seed planner") {
  TEST_CASE("bias + relu fuses into one kernel that reads x and bias once") {
    // x ──┐
    //      add(y) ── relu(z)
    // bias┘
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x",    "kind": "input", "shape": [1024, 768], "dtype_bytes": 4},
      {"name": "bias", "kind": "input", "shape": [768],       "dtype_bytes": 4},
      {"name": "y",    "kind": "add",   "inputs": ["x", "bias"], "shape": [1024, 768], "dtype_bytes": 4},
      {"name": "z",    "kind": "relu",  "inputs": ["y"],         "shape": [1024, 768], "dtype_bytes": 4}]})");
    const std::uint64_t X = 1024 * 768 * 4, B = 768 * 4;

    SUBCASE("sources write their output (the literal seed model)") {
      const FusionPlan plan = plan_checked(g);
      CHECK(group_names(g, plan) == Groups{{"x"}, {"bias"}, {"y", "z"}});
      CHECK(plan.op_group == std::vector<std::int32_t>{0, 1, 2, 2});
      const FusionGroup& fused = plan.groups[2];
      CHECK(fused.inputs == std::vector<OpId>{0, 1});
      CHECK(fused.outputs == std::vector<OpId>{3});
      CHECK(fused.bytes_read == X + B);
      CHECK(fused.bytes_written == X);
      // unfused: x writes X, bias writes B, y reads X + B and writes X, z reads X and writes X
      CHECK(plan.bytes_unfused == 5 * X + 2 * B);
      CHECK(plan.bytes_unfused == 15'734'784);
      CHECK(plan.bytes_fused == 3 * X + 2 * B);
      CHECK(plan.bytes_fused == 9'443'328);
      CHECK(plan.speedup_estimate == doctest::Approx(15734784.0 / 9443328.0));
      CHECK(plan.kernels_unfused == 2);
      CHECK(plan.kernels_fused == 1);
      CHECK(edge_decision(g, plan, "x", "y") == "source");
      CHECK(edge_decision(g, plan, "bias", "y") == "source");
      CHECK(edge_decision(g, plan, "y", "z") == "fused");
    }
    SUBCASE("resident sources cost nothing") {
      const FusionPlan plan = plan_checked(g, FusionPlanner().with_resident_sources(true));
      CHECK(group_names(g, plan) == Groups{{"x"}, {"bias"}, {"y", "z"}});
      CHECK(plan.groups[0].bytes_written == 0);
      CHECK(plan.bytes_unfused == 4 * X + B);  // y reads X + B, writes X; z reads X, writes X
      CHECK(plan.bytes_fused == 2 * X + B);
    }
  }

  TEST_CASE("x -> relu -> neg saves exactly half the traffic with resident sources") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [1024], "dtype": "f32"},
      {"name": "r", "kind": "relu", "inputs": ["x"], "shape": [1024], "dtype": "f32"},
      {"name": "n", "kind": "neg",  "inputs": ["r"], "shape": [1024], "dtype": "f32"}]})");
    const std::uint64_t X = 4096;
    SUBCASE("seed model: 5X unfused, 3X fused") {
      const FusionPlan plan = plan_checked(g);
      CHECK(fused_groups(g, plan) == Groups{{"r", "n"}});
      CHECK(plan.bytes_unfused == 5 * X);
      CHECK(plan.bytes_fused == 3 * X);
    }
    SUBCASE("resident sources: 4X unfused, 2X fused, speedup exactly 2.0") {
      const FusionPlan plan = plan_checked(g, FusionPlanner().with_resident_sources(true));
      CHECK(plan.bytes_unfused == 4 * X);
      CHECK(plan.bytes_fused == 2 * X);
      CHECK(plan.speedup_estimate == 2.0);
    }
  }

  TEST_CASE("a long elementwise chain is one kernel") {
    FusionGraph g;
    OpId last = g.add_op(OpKind::input, {}, {256}, 4, "x");
    for (int i = 0; i < 100; ++i) last = g.add_op(i % 2 ? OpKind::relu : OpKind::exp, {last}, {256}, 4);
    const FusionPlan plan = plan_checked(g);
    REQUIRE(plan.groups.size() == 2);
    CHECK(plan.groups[1].ops.size() == 100);
    CHECK(plan.groups[1].outputs == std::vector<OpId>{100});
    CHECK(plan.bytes_unfused == 1024 + 100 * 2048);
    CHECK(plan.bytes_fused == 1024 + 2048);
    CHECK(plan.kernels_unfused == 100);
    CHECK(plan.kernels_fused == 1);
  }

  TEST_CASE("a diamond fuses whole and writes only its tip") {
    //        ┌ exp(b) ┐
    // x → a ─┤        add(d)
    //        └ neg(c) ┘
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [64], "dtype": "f32"},
      {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [64], "dtype": "f32"},
      {"name": "b", "kind": "exp",  "inputs": ["a"], "shape": [64], "dtype": "f32"},
      {"name": "c", "kind": "neg",  "inputs": ["a"], "shape": [64], "dtype": "f32"},
      {"name": "d", "kind": "add",  "inputs": ["b", "c"], "shape": [64], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g);
    CHECK(fused_groups(g, plan) == Groups{{"a", "b", "c", "d"}});
    CHECK(group_of_op(g, plan, "d").outputs == std::vector<OpId>{4});
    CHECK(plan.bytes_unfused == 10 * 256);  // x:1 a:2 b:2 c:2 d:3 tensors
    CHECK(plan.bytes_fused == 3 * 256);     // x written, group reads x, writes d
  }

  TEST_CASE("an intermediate consumed outside its group is a group output") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",     "shape": [16, 16], "dtype": "f32"},
      {"name": "a", "kind": "relu",      "inputs": ["x"], "shape": [16, 16], "dtype": "f32"},
      {"name": "b", "kind": "neg",       "inputs": ["a"], "shape": [16, 16], "dtype": "f32"},
      {"name": "t", "kind": "transpose", "inputs": ["a"], "shape": [16, 16], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g);
    CHECK(fused_groups(g, plan) == Groups{{"a", "b"}});
    const FusionGroup& ab = group_of_op(g, plan, "a");
    CHECK(ab.outputs == std::vector<OpId>{1, 2});  // a feeds the transpose; b is a terminal
    CHECK(ab.bytes_written == 2048);
    CHECK(edge_decision(g, plan, "a", "t") == "barrier_consumer");
    CHECK(plan.bytes_unfused == 1024 + 2048 + 2048 + 2048);
    CHECK(plan.bytes_fused == 1024 + (1024 + 2048) + 2048);
  }

  TEST_CASE("the barrier sandwich: a and c never share a kernel around the matmul") {
    // a ── matmul(m) ── add(c)
    //  └──────────────────┘     merging a and c would put m both before and after their kernel
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",  "shape": [8, 8], "dtype": "f32"},
      {"name": "w", "kind": "input",  "shape": [8, 8], "dtype": "f32"},
      {"name": "a", "kind": "relu",   "inputs": ["x"], "shape": [8, 8], "dtype": "f32"},
      {"name": "m", "kind": "matmul", "inputs": ["a", "w"], "shape": [8, 8], "dtype": "f32"},
      {"name": "c", "kind": "add",    "inputs": ["a", "m"], "shape": [8, 8], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g);
    CHECK(fused_groups(g, plan).empty());
    CHECK(edge_decision(g, plan, "a", "c") == "cycle");
    CHECK(edge_decision(g, plan, "a", "m") == "barrier_consumer");
    CHECK(edge_decision(g, plan, "m", "c") == "barrier_producer");
    CHECK(plan.bytes_unfused == plan.bytes_fused);
    CHECK(plan.speedup_estimate == 1.0);
  }

  TEST_CASE("a cycle through a multi-output group is also refused") {
    // W = {we, wl} is one group, but wl does not reach the transpose t: the cycle A -> W -> t -> C
    // exists only in the group graph. (a's shape keeps it out of W.)
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x",  "kind": "input",     "shape": [3], "dtype": "f32"},
      {"name": "x2", "kind": "input",     "shape": [2], "dtype": "f32"},
      {"name": "we", "kind": "relu",      "inputs": ["x"], "shape": [3], "dtype": "f32"},
      {"name": "t",  "kind": "transpose", "inputs": ["we"], "shape": [2], "dtype": "f32"},
      {"name": "a",  "kind": "exp",       "inputs": ["x2"], "shape": [2], "dtype": "f32"},
      {"name": "wl", "kind": "add",       "inputs": ["we", "a"], "shape": [3], "dtype": "f32"},
      {"name": "v",  "kind": "add",       "inputs": ["a", "t"], "shape": [2], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g);
    CHECK(fused_groups(g, plan) == Groups{{"we", "wl"}});
    CHECK(edge_decision(g, plan, "a", "wl") == "shape");
    CHECK(edge_decision(g, plan, "a", "v") == "cycle");
  }

  TEST_CASE("broadcast-compatible shapes fuse; incompatible ones do not") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x",  "kind": "input", "shape": [4, 3], "dtype": "f32"},
      {"name": "b",  "kind": "input", "shape": [3],    "dtype": "f32"},
      {"name": "c",  "kind": "input", "shape": [4],    "dtype": "f32"},
      {"name": "rb", "kind": "relu", "inputs": ["b"], "shape": [3], "dtype": "f32"},
      {"name": "rc", "kind": "relu", "inputs": ["c"], "shape": [4], "dtype": "f32"},
      {"name": "y",  "kind": "add",  "inputs": ["x", "rb"], "shape": [4, 3], "dtype": "f32"},
      {"name": "z",  "kind": "mul",  "inputs": ["y", "rc"], "shape": [4, 3], "dtype": "f32"}]})");
    SUBCASE("with broadcast: [3] joins [4, 3], [4] does not") {
      const FusionPlan plan = plan_checked(g);
      CHECK(fused_groups(g, plan) == Groups{{"rb", "y", "z"}});
      CHECK(edge_decision(g, plan, "rb", "y") == "fused");
      CHECK(edge_decision(g, plan, "rc", "z") == "shape");
    }
    SUBCASE("with_broadcast(false): only equal shapes merge") {
      const FusionPlan plan = plan_checked(g, FusionPlanner().with_broadcast(false));
      CHECK(fused_groups(g, plan) == Groups{{"y", "z"}});
      CHECK(edge_decision(g, plan, "rb", "y") == "shape");
    }
  }

  TEST_CASE("shape rules hold for every edge inside a group, not only the merged one") {
    // p [4,1] -> q [1,3] -> r [5,3] is legal edge by edge, but p -> r ([4,1] vs [5,3]) is not, so
    // q's group (which holds p) may not join r.
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [4, 1], "dtype": "f32"},
      {"name": "p", "kind": "relu", "inputs": ["x"], "shape": [4, 1], "dtype": "f32"},
      {"name": "q", "kind": "neg",  "inputs": ["p"], "shape": [1, 3], "dtype": "f32"},
      {"name": "r", "kind": "add",  "inputs": ["q", "p"], "shape": [5, 3], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g);
    CHECK(fused_groups(g, plan) == Groups{{"p", "q"}});
    CHECK(edge_decision(g, plan, "q", "r") == "shape");
    CHECK(edge_decision(g, plan, "p", "r") == "shape");
  }

  TEST_CASE("scalars broadcast against any shape") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [8], "dtype": "f32"},
      {"name": "s", "kind": "constant", "shape": [], "dtype": "f32"},
      {"name": "e", "kind": "exp", "inputs": ["s"], "shape": [], "dtype": "f32"},
      {"name": "y", "kind": "mul", "inputs": ["x", "e"], "shape": [8], "dtype": "f32"}]})");
    CHECK(fused_groups(g, plan_checked(g)) == Groups{{"e", "y"}});
    CHECK(fused_groups(g, plan_checked(g, FusionPlanner().with_broadcast(false))).empty());
    CHECK(plan_checked(g).bytes_unfused == 32 + 4 + 8 + (32 + 4 + 32));
  }

  TEST_CASE("a repeated input (x * x) is read once and listed as one edge") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [100], "dtype": "f16"},
      {"name": "y", "kind": "mul", "inputs": ["x", "x"], "shape": [100], "dtype": "f16"}]})");
    const FusionPlan plan = plan_checked(g);
    CHECK(plan.edges.size() == 1);
    CHECK(plan.bytes_unfused == 200 + 200 + 200);
    CHECK(plan.groups[1].bytes_read == 200);
  }

  TEST_CASE("every terminal of a group is written, however many there are") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [10], "dtype": "f32"},
      {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [10], "dtype": "f32"},
      {"name": "b", "kind": "neg",  "inputs": ["a"], "shape": [10], "dtype": "f32"},
      {"name": "c", "kind": "exp",  "inputs": ["a"], "shape": [10], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g);
    CHECK(fused_groups(g, plan) == Groups{{"a", "b", "c"}});
    CHECK(group_of_op(g, plan, "a").outputs == std::vector<OpId>{2, 3});
    CHECK(group_of_op(g, plan, "a").bytes_written == 80);
  }

  TEST_CASE("sources never merge, whatever their kind") {
    // An elementwise op without inputs is a source too.
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "s", "kind": "relu", "shape": [10], "dtype": "f32"},
      {"name": "t", "kind": "neg", "inputs": ["s"], "shape": [10], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g);
    CHECK(fused_groups(g, plan).empty());
    CHECK(edge_decision(g, plan, "s", "t") == "source");
    CHECK(plan.kernels_unfused == 1);
  }

  TEST_CASE("barriers are singletons and break chains") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [32], "dtype": "f32"},
      {"name": "a", "kind": "exp", "inputs": ["x"], "shape": [32], "dtype": "f32"},
      {"name": "s", "kind": "reduce_sum", "inputs": ["a"], "shape": [1], "dtype": "f32"},
      {"name": "b", "kind": "div", "inputs": ["a", "s"], "shape": [32], "dtype": "f32"},
      {"name": "c", "kind": "neg", "inputs": ["b"], "shape": [32], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g);
    CHECK(fused_groups(g, plan) == Groups{{"b", "c"}});
    CHECK(edge_decision(g, plan, "a", "b") == "cycle");
    CHECK(edge_decision(g, plan, "s", "b") == "barrier_producer");
  }

  TEST_CASE("ops listed out of order are planned in topological order, ids kept") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "z", "kind": "relu", "inputs": ["y"], "shape": [4], "dtype": "f32"},
      {"name": "y", "kind": "neg", "inputs": ["x"], "shape": [4], "dtype": "f32"},
      {"name": "x", "kind": "input", "shape": [4], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g);
    CHECK(group_names(g, plan) == Groups{{"x"}, {"z", "y"}});
    CHECK(plan.op_group == std::vector<std::int32_t>{1, 1, 0});
  }

  TEST_CASE("the reason for a refused merge depends on the order the inputs are tried") {
    // x -> a -> b -> c and a -> c, where a -> b may not merge ([2] vs [3]). Either way b joins c and a
    // stays out, but the reason differs: tried first, a -> c would leave b outside between a and c
    // (cycle); tried after b joined, it would put the edge a -> b inside the group (shape).
    auto graph_with_inputs = [](const char* inputs) {
      return graph_from(std::string(R"({"ops": [
        {"name": "x", "kind": "input", "shape": [2], "dtype": "f32"},
        {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [2], "dtype": "f32"},
        {"name": "b", "kind": "neg", "inputs": ["a"], "shape": [3], "dtype": "f32"},
        {"name": "c", "kind": "add", "inputs": )") + inputs + R"(, "shape": [], "dtype": "f32"}]})");
    };
    const FusionGraph ab = graph_with_inputs(R"(["a", "b"])");
    const FusionGraph ba = graph_with_inputs(R"(["b", "a"])");
    const FusionPlan plan_ab = plan_checked(ab);
    const FusionPlan plan_ba = plan_checked(ba);
    CHECK(fused_groups(ab, plan_ab) == Groups{{"b", "c"}});
    CHECK(fused_groups(ba, plan_ba) == Groups{{"b", "c"}});
    CHECK(edge_decision(ab, plan_ab, "a", "c") == "cycle");
    CHECK(edge_decision(ba, plan_ba, "a", "c") == "shape");
    CHECK(edge_decision(ab, plan_ab, "a", "b") == "shape");
  }

  TEST_CASE("an unknown strategy is an error, not a plan") {
    const FusionGraph g = graph_from(R"({"ops": [{"kind": "input", "shape": [1], "dtype": "f32"}]})");
    const Expected<FusionPlan> plan = FusionPlanner().with_strategy("glow").plan(g);
    REQUIRE_FALSE(plan.ok());
    CHECK(plan.errors().front().code == ErrorCode::unknown_strategy);
  }

  TEST_CASE("an empty graph plans to nothing") {
    const FusionPlan plan = plan_checked(graph_from(R"({"ops": []})"));
    CHECK(plan.groups.empty());
    CHECK(plan.bytes_unfused == 0);
    CHECK(plan.speedup_estimate == 1.0);
  }

  TEST_CASE("a 1,000,000-op chain plans without deep recursion" * doctest::skip(reduced_run())) {
    FusionGraph g;
    OpId last = g.add_op(OpKind::input, {}, {4}, 4);
    for (int i = 1; i < 1'000'000; ++i) last = g.add_op(i % 3 ? OpKind::relu : OpKind::transpose, {last}, {4}, 4);
    const Expected<FusionPlan> plan = FusionPlanner().plan(g);
    REQUIRE(plan.ok());
    CHECK(plan->op_group.size() == 1'000'000);
    CHECK(plan->groups.size() == 1 + 333'333 + 333'333);  // the source, each transpose, each relu pair
  }
}
