// presets.test.cpp — the compiler procedures behind the `tvm`, `xla` and `inductor` presets
// (core/src/presets/), on small hand-built graphs: exact groups, copies, edge reasons and the `rule` text
// that says which compiler behaviour formed each group. Then their rules (max_depth, passes,
// max_group_operands, max_group_ops, max_pointwise_cat_inputs, epilogue), the refusal of rules a strategy
// does not accept, determinism, and very large graphs (behaviour only: no timing is asserted).
// Every plan also passes the verifier (plan_checked).

#include <algorithm>
#include <random>

#include "classic_rules.h"
#include "fusion/strategy.h"
#include "random_graphs.h"
#include "strategy_graphs.h"
#include "test_graphs.h"
#include "test_scale.h"

using namespace fusion;
using namespace fusion::testing;

namespace {

using Groups = std::vector<std::vector<std::string>>;

FusionPlanner preset(const std::string& name) { return FusionPlanner().with_strategy(name); }

template <typename Change>
FusionPlanner with_rule(const std::string& name, Change&& change) {
  return with_changed_rules(preset(name), std::forward<Change>(change));
}

FusionPlanner xla_passes(std::uint8_t passes) {
  return with_rule("xla", [&](StrategyRules& r) { r.passes = passes; });
}

const std::string& rule_of(const FusionGraph& g, const FusionPlan& plan, const std::string& op) {
  return group_of_op(g, plan, op).rule;
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// sum of squares over rows, scaled, square-rooted, then summed again.
const char* kNorms = R"({"ops": [
  {"name": "x", "kind": "input", "shape": [64, 128], "dtype": "f32"},
  {"name": "scale", "kind": "input", "shape": [], "dtype": "f32"},
  {"name": "sq", "kind": "square", "inputs": ["x"], "shape": [64, 128], "dtype": "f32"},
  {"name": "sum", "kind": "reduce_sum", "inputs": ["sq"], "shape": [64], "dtype": "f32"},
  {"name": "mean", "kind": "mul", "inputs": ["sum", "scale"], "shape": [64], "dtype": "f32"},
  {"name": "root", "kind": "sqrt", "inputs": ["mean"], "shape": [64], "dtype": "f32"},
  {"name": "total", "kind": "reduce_sum", "inputs": ["root"], "shape": [], "dtype": "f32"}]})";

// p = neg(x) read by two elementwise consumers.
const char* kFork = R"({"ops": [
  {"name": "x", "kind": "input", "shape": [1024], "dtype": "f32"},
  {"name": "p", "kind": "neg", "inputs": ["x"], "shape": [1024], "dtype": "f32"},
  {"name": "c1", "kind": "relu", "inputs": ["p"], "shape": [1024], "dtype": "f32"},
  {"name": "c2", "kind": "exp", "inputs": ["p"], "shape": [1024], "dtype": "f32"}]})";

// n = neg(x) read by two row reductions.
const char* kSharedReductions = R"({"ops": [
  {"name": "x", "kind": "input", "shape": [256, 256], "dtype": "f32"},
  {"name": "n", "kind": "neg", "inputs": ["x"], "shape": [256, 256], "dtype": "f32"},
  {"name": "s", "kind": "reduce_sum", "inputs": ["n"], "shape": [256], "dtype": "f32"},
  {"name": "m", "kind": "reduce_max", "inputs": ["n"], "shape": [256], "dtype": "f32"}]})";

// a is marked output and also read by b.
const char* kOutputProducer = R"({"ops": [
  {"name": "x", "kind": "input", "shape": [256], "dtype": "f32"},
  {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [256], "dtype": "f32", "output": true},
  {"name": "b", "kind": "neg", "inputs": ["a"], "shape": [256], "dtype": "f32"}]})";

// A chain x -> r0 -> ... -> r9 of relus over [8]; `output` marks every relu as a graph output.
std::string relu_chain(bool output) {
  std::string json = R"({"ops": [{"name": "x", "kind": "input", "shape": [8], "dtype": "f32"})";
  for (int i = 0; i < 10; ++i)
    json += R"(, {"name": "r)" + std::to_string(i) + R"(", "kind": "relu", "inputs": [)" + std::to_string(i) +
            R"(], "shape": [8], "dtype": "f32")" + (output ? R"(, "output": true})" : "}");
  return json + "]}";
}

// concat of `inputs` relus r_i = relu(x_i), each over [16].
std::string relu_concat(int inputs) {
  std::string json = R"({"ops": [)";
  std::string names;
  for (int i = 0; i < inputs; ++i)
    json += R"({"name": "x)" + std::to_string(i) + R"(", "kind": "input", "shape": [16], "dtype": "f32"}, )";
  for (int i = 0; i < inputs; ++i) {
    json += R"({"name": "r)" + std::to_string(i) + R"(", "kind": "relu", "inputs": ["x)" + std::to_string(i) +
            R"("], "shape": [16], "dtype": "f32"}, )";
    names += (i ? ", \"r" : "\"r") + std::to_string(i) + "\"";
  }
  return json + R"({"name": "cat", "kind": "concat", "inputs": [)" + names + R"(], "shape": [)" +
         std::to_string(16 * inputs) + R"(], "dtype": "f32"}]})";
}

}  // namespace

TEST_SUITE("tvm: FuseOps over the post-dominator tree") {
  TEST_CASE("a kOutEWiseFusable matmul takes its elementwise epilogue up to its post-dominator") {
    const FusionGraph g = graph_from(kMatmulBiasRelu);
    const FusionPlan plan = plan_checked(g, preset("tvm"));
    CHECK(fused_groups(g, plan) == Groups{{"mm", "bias", "act"}});
    CHECK(rule_of(g, plan, "mm") == "FuseOps kOutEWiseFusable: 3 ops fused into their post-dominator relu 'act'");
    CHECK(group_of_op(g, plan, "mm").bytes_read == 5'508'096);  // x, w and b; mm and bias never written
    CHECK(group_of_op(g, plan, "mm").bytes_written == 3'145'728);
    CHECK(rule_of(g, plan, "x").empty());  // a lone source: no behaviour formed it
  }

  TEST_CASE("a reduction takes producers but no consumers") {
    const FusionGraph g = graph_from(kNorms);
    const FusionPlan plan = plan_checked(g, preset("tvm"));
    CHECK(fused_groups(g, plan) == Groups{{"sq", "sum"}, {"mean", "root", "total"}});
    CHECK(edge_decision(g, plan, "sum", "mean") == "barrier_producer");
    CHECK(edge_decision(g, plan, "root", "total") == "fused");
    CHECK(rule_of(g, plan, "sum") == "FuseOps kCommReduce: 2 ops fused into their post-dominator reduce_sum 'sum'");
    CHECK(rule_of(g, plan, "total") ==
          "FuseOps kCommReduce: 3 ops fused into their post-dominator reduce_sum 'total'");
  }

  TEST_CASE("softmax: exp's post-dominator is div, past a reduction, so only sub and exp fuse") {
    const FusionGraph g = graph_from(kSoftmax);
    const FusionPlan plan = plan_checked(g, preset("tvm"));
    CHECK(fused_groups(g, plan) == Groups{{"sub", "exp"}});
    CHECK(edge_decision(g, plan, "max", "sub") == "barrier_producer");
    CHECK(edge_decision(g, plan, "exp", "sum") == "post_dominator");
    CHECK(edge_decision(g, plan, "exp", "div") == "post_dominator");
    CHECK(edge_decision(g, plan, "sum", "div") == "barrier_producer");
    CHECK(rule_of(g, plan, "exp") == "FuseOps kElemWise: 2 ops fused into their post-dominator exp 'exp'");
    CHECK(plan.kernels_fused == 4);
  }

  TEST_CASE("a diamond fuses into its join: every path to the post-dominator goes along") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [4], "dtype": "f32"},
      {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [4], "dtype": "f32"},
      {"name": "b", "kind": "neg", "inputs": ["a"], "shape": [4], "dtype": "f32"},
      {"name": "c", "kind": "add", "inputs": ["a", "b"], "shape": [4], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g, preset("tvm"));
    CHECK(fused_groups(g, plan) == Groups{{"a", "b", "c"}});
    CHECK(rule_of(g, plan, "a") == "FuseOps kBroadcast: 3 ops fused into their post-dominator add 'c'");
  }

  TEST_CASE("injective ops fuse in phase 1, and not into a group that holds a reduction") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [32, 64], "dtype": "f32"},
      {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [32, 64], "dtype": "f32"},
      {"name": "flat", "kind": "reshape", "inputs": ["a"], "shape": [2048], "dtype": "f32"},
      {"name": "n", "kind": "neg", "inputs": ["flat"], "shape": [2048], "dtype": "f32"},
      {"name": "s", "kind": "reduce_sum", "inputs": ["n"], "shape": [1], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g, preset("tvm"));
    CHECK(fused_groups(g, plan) == Groups{{"a", "flat"}, {"n", "s"}});
    CHECK(edge_decision(g, plan, "flat", "n") == "post_dominator");
    CHECK(rule_of(g, plan, "flat") == "FuseOps kInjective: 2 ops fused into their post-dominator reshape 'flat'");
    // Without the reduction the reshape joins its elementwise consumer.
    const FusionGraph open = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [32, 64], "dtype": "f32"},
      {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [32, 64], "dtype": "f32"},
      {"name": "flat", "kind": "reshape", "inputs": ["a"], "shape": [2048], "dtype": "f32"},
      {"name": "n", "kind": "neg", "inputs": ["flat"], "shape": [2048], "dtype": "f32"}]})");
    CHECK(fused_groups(open, plan_checked(open, preset("tvm"))) == Groups{{"a", "flat", "n"}});
  }

  TEST_CASE("a matmul reads its inputs from memory and takes no injective epilogue; no injective op feeds a reduction") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [64, 64], "dtype": "f32"},
      {"name": "r", "kind": "relu", "inputs": ["x"], "shape": [64, 64], "dtype": "f32"},
      {"name": "mm1", "kind": "matmul", "inputs": ["r", "x"], "shape": [64, 64], "dtype": "f32"},
      {"name": "mm2", "kind": "matmul", "inputs": ["mm1", "x"], "shape": [64, 64], "dtype": "f32"},
      {"name": "flat", "kind": "reshape", "inputs": ["mm2"], "shape": [4096], "dtype": "f32"},
      {"name": "act", "kind": "relu", "inputs": ["flat"], "shape": [4096], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g, preset("tvm"));
    CHECK(fused_groups(g, plan) == Groups{{"flat", "act"}});
    CHECK(edge_decision(g, plan, "r", "mm1") == "barrier_consumer");
    CHECK(edge_decision(g, plan, "mm1", "mm2") == "barrier_consumer");
    CHECK(edge_decision(g, plan, "mm2", "flat") == "post_dominator");  // the path to it is kInjective
    CHECK(rule_of(g, plan, "act") == "FuseOps kElemWise: 2 ops fused into their post-dominator relu 'act'");
    const FusionGraph t = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [64, 128], "dtype": "f32"},
      {"name": "e", "kind": "exp", "inputs": ["x"], "shape": [64, 128], "dtype": "f32"},
      {"name": "t", "kind": "transpose", "inputs": ["e"], "shape": [128, 64], "dtype": "f32"},
      {"name": "sum", "kind": "reduce_sum", "inputs": ["t"], "shape": [128], "dtype": "f32"}]})");
    const FusionPlan transposed = plan_checked(t, preset("tvm"));
    CHECK(fused_groups(t, transposed) == Groups{{"e", "t"}});
    CHECK(edge_decision(t, transposed, "t", "sum") == "barrier_consumer");
    CHECK(rule_of(t, transposed, "t") == "FuseOps kInjective: 2 ops fused into their post-dominator transpose 't'");
  }

  TEST_CASE("no duplication: a producer whose consumers never meet again stays alone") {
    const FusionGraph g = graph_from(kSharedReductions);
    const FusionPlan plan = plan_checked(g, preset("tvm"));
    CHECK(fused_groups(g, plan).empty());
    CHECK(edge_decision(g, plan, "n", "s") == "post_dominator");
    CHECK(edge_decision(g, plan, "n", "m") == "post_dominator");
    for (const FusionGroup& group : plan.groups) CHECK(group.recomputed.empty());
  }

  TEST_CASE("a graph output is written by its own kernel: output") {
    const FusionGraph g = graph_from(kOutputProducer);
    const FusionPlan plan = plan_checked(g, preset("tvm"));
    CHECK(fused_groups(g, plan).empty());
    CHECK(edge_decision(g, plan, "a", "b") == "output");
  }

  TEST_CASE("max_depth bounds each fusion step: a chain of 10 in 4 + 4 + 2, reason limit") {
    const FusionGraph g = graph_from(relu_chain(false));
    CHECK(fused_groups(g, plan_checked(g, preset("tvm"))) ==
          Groups{{"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9"}});
    const FusionPlan four = plan_checked(g, with_rule("tvm", [](StrategyRules& r) { r.max_depth = 4; }));
    CHECK(fused_groups(g, four) == Groups{{"r0", "r1", "r2", "r3"}, {"r4", "r5", "r6", "r7"}, {"r8", "r9"}});
    CHECK(edge_decision(g, four, "r3", "r4") == "limit");
    CHECK(edge_decision(g, four, "r7", "r8") == "limit");
    CHECK(edge_decision(g, four, "r2", "r3") == "fused");
    CHECK(rule_of(g, four, "r0") == "FuseOps kElemWise: 4 ops fused into their post-dominator relu 'r3'");
    const FusionPlan one = plan_checked(g, with_rule("tvm", [](StrategyRules& r) { r.max_depth = 1; }));
    CHECK(fused_groups(g, one).empty());
    CHECK(edge_decision(g, one, "r0", "r1") == "limit");
    const FusionPlan none = plan_checked(g, with_rule("tvm", [](StrategyRules& r) { r.max_depth = 0; }));
    CHECK(fused_groups(g, none).size() == 1);  // 0 = no limit
  }
}

TEST_SUITE("xla: priority fusion, multi-output fusion, horizontal loop fusion") {
  TEST_CASE("priority fusion duplicates an elementwise producer into all its consumers") {
    const FusionGraph g = graph_from(kFork);
    const FusionPlan plan = plan_checked(g, xla_passes(xla_priority));
    CHECK(group_names(g, plan) == Groups{{"x"}, {"p", "c1"}, {"p", "c2"}});
    CHECK(plan.groups[1].recomputed == std::vector<OpId>{1});
    CHECK(plan.groups[2].recomputed == std::vector<OpId>{1});
    CHECK(plan.op_group[1] == 1);  // p exists only as copies: the first group holding one
    CHECK(edge_decision(g, plan, "p", "c1") == "fused");
    CHECK(edge_decision(g, plan, "p", "c2") == "fused");
    for (const char* op : {"c1", "c2"}) {
      CAPTURE(op);
      CHECK(rule_of(g, plan, op) == "loop fusion; priority fusion duplicated 1 op into this kernel (also computed in another)");
    }
    CHECK(plan.bytes_fused == 4096 + 2 * (4096 + 4096));  // x, and each kernel reads x and writes its result
    // The full pipeline then joins the two siblings, which read x, into one multi-output kernel.
    const FusionPlan full = plan_checked(g, preset("xla"));
    CHECK(fused_groups(g, full) == Groups{{"p", "c1", "c2"}});
    CHECK(!mentions(rule_of(g, full, "p"), "duplicated"));  // one kernel holds p once: nothing is duplicated
    CHECK(rule_of(g, full, "p") == "loop fusion; multi-output fusion of 2 siblings");
  }

  TEST_CASE("priority fusion duplicates expensive producers too when the time model says it pays") {
    std::string text = kSharedReductions;
    text.replace(text.find("\"neg\""), 5, "\"exp\"");
    const FusionGraph g = graph_from(text);
    const FusionPlan plan = plan_checked(g, xla_passes(xla_priority));
    CHECK(group_names(g, plan) == Groups{{"x"}, {"n", "s"}, {"n", "m"}});
    CHECK(plan.groups[2].recomputed == std::vector<OpId>{1});
    CHECK(plan.time_fused_us < plan.time_unfused_us);
  }

  TEST_CASE("movement ops are loop ops: reshape, slice and transpose fuse, into a reduction too") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [32, 64], "dtype": "f32"},
      {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [32, 64], "dtype": "f32"},
      {"name": "flat", "kind": "reshape", "inputs": ["a"], "shape": [2048], "dtype": "f32"},
      {"name": "half", "kind": "slice", "inputs": ["flat"], "shape": [1024], "dtype": "f32"},
      {"name": "n", "kind": "neg", "inputs": ["half"], "shape": [1024], "dtype": "f32"},
      {"name": "srt", "kind": "sort", "inputs": ["n"], "shape": [1024], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g, preset("xla"));
    CHECK(fused_groups(g, plan) == Groups{{"a", "flat", "half", "n"}});
    CHECK(edge_decision(g, plan, "n", "srt") == "barrier_consumer");  // sort is a kernel of its own
    const FusionGraph t = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [64, 128], "dtype": "f32"},
      {"name": "e", "kind": "exp", "inputs": ["x"], "shape": [64, 128], "dtype": "f32"},
      {"name": "t", "kind": "transpose", "inputs": ["e"], "shape": [128, 64], "dtype": "f32"},
      {"name": "sum", "kind": "reduce_sum", "inputs": ["t"], "shape": [128], "dtype": "f32"}]})");
    const FusionPlan transposed = plan_checked(t, preset("xla"));
    CHECK(fused_groups(t, transposed) == Groups{{"e", "t", "sum"}});
    CHECK(rule_of(t, transposed, "sum") == "reduction fusion");
  }

  TEST_CASE("a producer fuses into all its consumers or none: consumers") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [64, 64], "dtype": "f32"},
      {"name": "p", "kind": "neg", "inputs": ["x"], "shape": [64, 64], "dtype": "f32"},
      {"name": "r", "kind": "relu", "inputs": ["p"], "shape": [64, 64], "dtype": "f32"},
      {"name": "mm", "kind": "matmul", "inputs": ["p", "x"], "shape": [64, 64], "dtype": "f32"}]})");
    const FusionPlan priority = plan_checked(g, xla_passes(xla_priority));
    CHECK(fused_groups(g, priority).empty());
    CHECK(edge_decision(g, priority, "p", "mm") == "barrier_consumer");  // the consumer that refused
    CHECK(edge_decision(g, priority, "p", "r") == "consumers");
    // Multi-output fusion then puts p with r and keeps writing p for the matmul.
    const FusionPlan full = plan_checked(g, preset("xla"));
    CHECK(fused_groups(g, full) == Groups{{"p", "r"}});
    CHECK(group_of_op(g, full, "p").outputs == std::vector<OpId>{1, 2});
    CHECK(rule_of(g, full, "p") == "loop fusion; multi-output fusion: producer also written");
  }

  TEST_CASE("softmax: duplication into both passes over x; a reduction fuses only into an elementwise epilogue") {
    const FusionGraph g = graph_from(kSoftmax);
    const FusionPlan plan = plan_checked(g, preset("xla"));
    CHECK(group_names(g, plan) == Groups{{"x"}, {"max"}, {"sub", "exp", "sum"}, {"sub", "exp", "div"}});
    CHECK(plan.groups[2].recomputed == std::vector<OpId>{2, 3});
    CHECK(plan.groups[3].recomputed == std::vector<OpId>{2, 3});
    CHECK(edge_decision(g, plan, "max", "sub") == "consumers");  // max has two consumer fusions by then
    CHECK(edge_decision(g, plan, "sum", "div") == "multi_pass");
    CHECK(rule_of(g, plan, "sum") == "reduction fusion; priority fusion duplicated 2 ops into this kernel (also computed in another)");
    CHECK(rule_of(g, plan, "div") == "loop fusion; priority fusion duplicated 2 ops into this kernel (also computed in another)");
  }

  TEST_CASE("a reduction takes its elementwise epilogue, but never fuses into another reduction: anchor") {
    const FusionGraph g = graph_from(kNorms);
    const FusionPlan plan = plan_checked(g, preset("xla"));
    CHECK(fused_groups(g, plan) == Groups{{"sq", "sum", "mean"}, {"root", "total"}});
    CHECK(edge_decision(g, plan, "mean", "root") == "anchor");
    CHECK(rule_of(g, plan, "sum") == "reduction fusion");
  }

  TEST_CASE("a matmul is a library call: barrier_producer into its elementwise consumers") {
    const FusionGraph g = graph_from(kMatmulBiasRelu);
    const FusionPlan plan = plan_checked(g, preset("xla"));
    CHECK(fused_groups(g, plan) == Groups{{"bias", "act"}});
    CHECK(edge_decision(g, plan, "mm", "bias") == "barrier_producer");
    CHECK(rule_of(g, plan, "act") == "loop fusion");
  }

  TEST_CASE("a graph output is not fused into its consumers: output, unless multi-output fusion writes it") {
    const FusionGraph g = graph_from(kOutputProducer);
    const FusionPlan priority = plan_checked(g, xla_passes(xla_priority));
    CHECK(fused_groups(g, priority).empty());
    CHECK(edge_decision(g, priority, "a", "b") == "output");
    const FusionPlan full = plan_checked(g, preset("xla"));
    CHECK(fused_groups(g, full) == Groups{{"a", "b"}});
    CHECK(group_of_op(g, full, "a").outputs == std::vector<OpId>{1, 2});
    CHECK(rule_of(g, full, "a") == "loop fusion; multi-output fusion: producer also written");
  }

  TEST_CASE("each pass alone") {
    const FusionGraph siblings = graph_from(kSiblings);
    const FusionGraph fork = graph_from(kFork);
    const FusionGraph shared = graph_from(kSharedReductions);
    SUBCASE("none: every op is a kernel of its own, barrier_producer on every edge between ops") {
      const FusionPlan plan = plan_checked(fork, xla_passes(0));
      CHECK(fused_groups(fork, plan).empty());
      CHECK(edge_decision(fork, plan, "p", "c1") == "barrier_producer");
      CHECK(plan.kernels_fused == 3);
    }
    SUBCASE("priority: only producer -> consumer fusion") {
      CHECK(fused_groups(siblings, plan_checked(siblings, xla_passes(xla_priority))).empty());
      const FusionPlan plan = plan_checked(shared, xla_passes(xla_priority));
      CHECK(group_names(shared, plan) == Groups{{"x"}, {"n", "s"}, {"n", "m"}});
      CHECK(plan.groups[1].recomputed == std::vector<OpId>{1});
      CHECK(rule_of(shared, plan, "m") == "reduction fusion; priority fusion duplicated 1 op into this kernel (also computed in another)");
    }
    SUBCASE("multi_output: siblings with the same iteration space, and nothing else") {
      const FusionPlan plan = plan_checked(siblings, xla_passes(xla_multi_output));
      CHECK(fused_groups(siblings, plan) == Groups{{"a", "b"}});
      CHECK(rule_of(siblings, plan, "a") == "loop fusion; multi-output fusion of 2 siblings");
      const FusionPlan reductions = plan_checked(shared, xla_passes(xla_multi_output));
      CHECK(fused_groups(shared, reductions) == Groups{{"s", "m"}});
      CHECK(edge_decision(shared, reductions, "n", "s") == "barrier_producer");  // priority fusion is off
      CHECK(rule_of(shared, reductions, "s") == "reduction fusion; multi-output fusion of 2 siblings");
    }
    SUBCASE("multi_output: a producer read by two fusions joins the first of its iteration space") {
      const FusionGraph g = graph_from(R"({"ops": [
        {"name": "x", "kind": "input", "shape": [1024], "dtype": "f32"},
        {"name": "p", "kind": "neg", "inputs": ["x"], "shape": [1024], "dtype": "f32"},
        {"name": "c1", "kind": "relu", "inputs": ["p"], "shape": [1024], "dtype": "f32"},
        {"name": "c2", "kind": "slice", "inputs": ["p"], "shape": [512], "dtype": "f32"}]})");
      const FusionPlan plan = plan_checked(g, xla_passes(xla_multi_output));
      CHECK(fused_groups(g, plan) == Groups{{"p", "c1"}});
      CHECK(group_of_op(g, plan, "p").outputs == std::vector<OpId>{1, 2});
      CHECK(rule_of(g, plan, "p") == "loop fusion; multi-output fusion: producer also written");
    }
    SUBCASE("horizontal: independent loop fusions of the ROOT tuple become one kernel") {
      const FusionPlan plan = plan_checked(siblings, xla_passes(xla_horizontal));
      CHECK(fused_groups(siblings, plan) == Groups{{"a", "b", "c"}});
      CHECK(plan.kernels_fused == 1);
      CHECK(rule_of(siblings, plan, "c") == "loop fusion; horizontal loop fusion of 3 fusions");
      CHECK(fused_groups(shared, plan_checked(shared, xla_passes(xla_horizontal))).empty());  // reductions: no
    }
  }

  TEST_CASE("max_group_operands counts inputs plus outputs of the fused kernel") {
    const FusionGraph g = graph_from(kOperandChain);
    auto limited = [&](std::int64_t operands) {
      return plan_checked(g, with_rule("xla", [&](StrategyRules& r) { r.max_group_operands = operands; }));
    };
    CHECK(fused_groups(g, limited(5)) == Groups{{"s", "t", "u"}});
    const FusionPlan four = limited(4);
    CHECK(fused_groups(g, four) == Groups{{"s", "t"}});
    CHECK(edge_decision(g, four, "t", "u") == "limit");
  }

  // 0 means no limit: multi-output and horizontal merges then skip the budget but still keep the counts up to date
  // (once they applied a scan they had not made, and crashed on the first merge).
  TEST_CASE("max_group_operands 0 plans as a limit no kernel reaches") {
    std::mt19937_64 rng(1313);
    int merged = 0;
    for (int round = 0; round < 30; ++round) {
      const FusionGraph g = random_graph(rng, 80);
      const FusionPlan none = plan_checked(g, with_rule("xla", [](StrategyRules& r) { r.max_group_operands = 0; }));
      const FusionPlan huge =
          plan_checked(g, with_rule("xla", [](StrategyRules& r) { r.max_group_operands = std::int64_t{1} << 40; }));
      REQUIRE(none.groups.size() == huge.groups.size());
      for (std::size_t k = 0; k < none.groups.size(); ++k) {
        CHECK(none.groups[k].ops == huge.groups[k].ops);
        CHECK(none.groups[k].recomputed == huge.groups[k].recomputed);
        CHECK(none.groups[k].rule == huge.groups[k].rule);
        merged += none.groups[k].rule.find("multi-output") != std::string::npos ||
                  none.groups[k].rule.find("horizontal") != std::string::npos;
      }
      REQUIRE(none.edges.size() == huge.edges.size());
      for (std::size_t e = 0; e < none.edges.size(); ++e) CHECK(none.edges[e].reason == huge.edges[e].reason);
    }
    CHECK(merged > 0);  // the later passes did merge
  }
}

TEST_SUITE("inductor: lowering and the scheduler") {
  TEST_CASE("softmax written as amax, sub, exp, sum, div is one persistent-reduction kernel") {
    const FusionGraph g = graph_from(kSoftmax);
    const FusionPlan plan = plan_checked(g, preset("inductor"));
    CHECK(fused_groups(g, plan) == Groups{{"max", "sub", "exp", "sum", "div"}});
    CHECK(plan.kernels_fused == 1);
    const FusionGroup& group = group_of_op(g, plan, "sum");
    CHECK(group.recomputed.empty());
    CHECK(group.bytes_read == 32'768);     // x once
    CHECK(group.bytes_written == 32'768);  // div
    CHECK(group.rule == "persistent reduction over 64×128: 2 reductions, 3 nodes fused, 2 inlined");
  }

  TEST_CASE("a reduction over more than 1024 elements per row is a looped reduction") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [8, 4096], "dtype": "f32"},
      {"name": "e", "kind": "exp", "inputs": ["x"], "shape": [8, 4096], "dtype": "f32"},
      {"name": "s", "kind": "reduce_sum", "inputs": ["e"], "shape": [8], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g, preset("inductor"));
    CHECK(fused_groups(g, plan) == Groups{{"e", "s"}});
    CHECK(rule_of(g, plan, "s") == "looped reduction over 8×4096: 1 reduction, 1 node fused, 1 inlined");
  }

  TEST_CASE("an inlined pointwise op is recomputed in every kernel that reads it") {
    // Two reductions of different ranges, (256, 256) and (1, 65536), cannot share a kernel.
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [256, 256], "dtype": "f32"},
      {"name": "n", "kind": "neg", "inputs": ["x"], "shape": [256, 256], "dtype": "f32"},
      {"name": "s", "kind": "reduce_sum", "inputs": ["n"], "shape": [256], "dtype": "f32"},
      {"name": "t", "kind": "reduce_max", "inputs": ["n"], "shape": [1], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g, preset("inductor"));
    CHECK(group_names(g, plan) == Groups{{"x"}, {"n", "s"}, {"n", "t"}});
    CHECK(plan.groups[1].recomputed == std::vector<OpId>{1});
    CHECK(plan.groups[2].recomputed == std::vector<OpId>{1});
    CHECK(rule_of(g, plan, "s") == "persistent reduction over 256×256: 1 reduction, 1 node fused, 1 inlined");
    CHECK(rule_of(g, plan, "t") == "looped reduction over 1×65536: 1 reduction, 1 node fused, 1 inlined");
    // Reductions of one range share the kernel and read x once.
    const FusionGraph same = graph_from(kSharedReductions);
    const FusionPlan one = plan_checked(same, preset("inductor"));
    CHECK(fused_groups(same, one) == Groups{{"n", "s", "m"}});
    CHECK(rule_of(same, one, "s") == "persistent reduction over 256×256: 2 reductions, 2 nodes fused, 1 inlined");
  }

  TEST_CASE("movement ops are pointwise and inlined; nodes joined by a path through an extern stay apart") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [32, 64], "dtype": "f32"},
      {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [32, 64], "dtype": "f32"},
      {"name": "flat", "kind": "reshape", "inputs": ["a"], "shape": [2048], "dtype": "f32"},
      {"name": "half", "kind": "slice", "inputs": ["flat"], "shape": [1024], "dtype": "f32"},
      {"name": "n", "kind": "neg", "inputs": ["half"], "shape": [1024], "dtype": "f32"},
      {"name": "srt", "kind": "sort", "inputs": ["n"], "shape": [1024], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g, preset("inductor"));
    CHECK(fused_groups(g, plan) == Groups{{"a", "flat", "half", "n"}});
    CHECK(edge_decision(g, plan, "n", "srt") == "barrier_consumer");
    CHECK(rule_of(g, plan, "n") == "pointwise kernel over 1024 elements, 1 node fused, 3 inlined");
    // a and b both read x, but a -> mm -> b: one kernel for a and b would be a cycle.
    const FusionGraph path = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [64, 64], "dtype": "f32"},
      {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [64, 64], "dtype": "f32"},
      {"name": "mm", "kind": "matmul", "inputs": ["a", "x"], "shape": [64, 64], "dtype": "f32"},
      {"name": "b", "kind": "add", "inputs": ["x", "mm"], "shape": [64, 64], "dtype": "f32"}]})");
    const FusionPlan apart = plan_checked(path, preset("inductor"));
    CHECK(fused_groups(path, apart).empty());
    CHECK(edge_decision(path, apart, "a", "mm") == "barrier_consumer");
    CHECK(edge_decision(path, apart, "mm", "b") == "barrier_producer");
  }

  TEST_CASE("iteration ranges: a pointwise node of another size does not join a reduction: range") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [64, 128], "dtype": "f32"},
      {"name": "r", "kind": "reduce_sum", "inputs": ["x"], "shape": [64], "dtype": "f32"},
      {"name": "b", "kind": "broadcast", "inputs": ["r"], "shape": [32, 64], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g, preset("inductor"));
    CHECK(fused_groups(g, plan).empty());
    CHECK(edge_decision(g, plan, "r", "b") == "range");
    const FusionGraph norms = graph_from(kNorms);  // (64, 128) and (1, 64)
    const FusionPlan two = plan_checked(norms, preset("inductor"));
    CHECK(fused_groups(norms, two) == Groups{{"sq", "sum"}, {"mean", "root", "total"}});
    CHECK(edge_decision(norms, two, "sum", "mean") == "range");
  }

  TEST_CASE("epilogue: an extern matmul by default, a template with pointwise epilogues when on") {
    const FusionGraph g = graph_from(kMatmulBiasRelu);
    const FusionPlan extern_call = plan_checked(g, preset("inductor"));
    CHECK(fused_groups(g, extern_call) == Groups{{"bias", "act"}});
    CHECK(edge_decision(g, extern_call, "mm", "bias") == "barrier_producer");
    CHECK(rule_of(g, extern_call, "act") == "pointwise kernel over 786432 elements, 1 node fused, 1 inlined");
    const FusionPlan templated = plan_checked(g, with_rule("inductor", [](StrategyRules& r) { r.epilogue = true; }));
    CHECK(fused_groups(g, templated) == Groups{{"mm", "bias", "act"}});
    CHECK(rule_of(g, templated, "mm") == "template epilogue: matmul with pointwise nodes, 2 nodes fused, 1 inlined");
  }

  TEST_CASE("max_pointwise_cat_inputs: a wider concat is a copy kernel whose inputs are realized") {
    const FusionGraph g = graph_from(relu_concat(10));
    const FusionPlan wide = plan_checked(g, preset("inductor"));  // 10 inputs > 8
    CHECK(fused_groups(g, wide).empty());
    CHECK(edge_decision(g, wide, "r0", "cat") == "range");
    CHECK(edge_decision(g, wide, "r9", "cat") == "range");
    CHECK(wide.kernels_fused == 11);
    auto with_cap = [&](std::int64_t cap) {
      return plan_checked(g, with_rule("inductor", [&](StrategyRules& r) { r.max_pointwise_cat_inputs = cap; }));
    };
    const FusionPlan ten = with_cap(10);  // 10 inputs fit: pointwise, the relus inlined into it
    CHECK(fused_groups(g, ten) == Groups{{"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "cat"}});
    CHECK(rule_of(g, ten, "cat") == "pointwise kernel over 160 elements, 1 node fused, 10 inlined");
    CHECK(fused_groups(g, with_cap(9)).empty());
    // Up to 8 inputs a concat is always pointwise (MAX_COMPLEX_POINTWISE_CAT), whatever the rule says.
    const FusionGraph eight = graph_from(relu_concat(8));
    CHECK(plan_checked(eight, with_rule("inductor", [](StrategyRules& r) { r.max_pointwise_cat_inputs = 0; }))
              .kernels_fused == 1);
  }

  TEST_CASE("max_group_ops counts scheduler nodes: realized outputs 4 + 4 + 2, reason limit") {
    const FusionGraph g = graph_from(relu_chain(true));  // every relu is an output, so realized
    const FusionPlan all = plan_checked(g, preset("inductor"));
    CHECK(all.kernels_fused == 1);
    CHECK(rule_of(g, all, "r0") == "pointwise kernel over 8 elements, 10 nodes fused");
    const FusionPlan four = plan_checked(g, with_rule("inductor", [](StrategyRules& r) { r.max_group_ops = 4; }));
    CHECK(fused_groups(g, four) == Groups{{"r0", "r1", "r2", "r3"}, {"r4", "r5", "r6", "r7"}, {"r8", "r9"}});
    CHECK(edge_decision(g, four, "r3", "r4") == "limit");
    CHECK(edge_decision(g, four, "r7", "r8") == "limit");
    // Inlined ops are not nodes: the plain chain is one node, whatever the cap.
    const FusionGraph inlined = graph_from(relu_chain(false));
    const FusionPlan one = plan_checked(inlined, with_rule("inductor", [](StrategyRules& r) { r.max_group_ops = 2; }));
    CHECK(one.kernels_fused == 1);
    CHECK(rule_of(inlined, one, "r9") == "pointwise kernel over 8 elements, 1 node fused, 9 inlined");
  }
}

TEST_SUITE("rules a strategy does not accept") {
  // A valid JSON value for each rule.
  std::string sample_value(std::string_view rule) {
    if (rule == "recompute") return R"("all")";
    if (rule == "movement") return R"(["reshape"])";
    if (rule == "passes") return R"(["priority"])";
    if (rule == "horizontal" || rule == "epilogue" || rule == "reduction_prologue" || rule == "reduction_epilogue" ||
        rule == "refuse_unprofitable")
      return "true";
    return "5";
  }

  // Changes one rule to a value unlike the preset's.
  void change(StrategyRules& r, std::string_view rule) {
    if (rule == "horizontal") r.horizontal = !r.horizontal;
    else if (rule == "horizontal_small_bytes") r.horizontal_small_bytes += 7;
    else if (rule == "horizontal_max_ops") r.horizontal_max_ops += 7;
    else if (rule == "epilogue") r.epilogue = !r.epilogue;
    else if (rule == "reduction_prologue") r.reduction_prologue = !r.reduction_prologue;
    else if (rule == "reduction_epilogue") r.reduction_epilogue = !r.reduction_epilogue;
    else if (rule == "recompute") r.recompute = r.recompute == Recompute::all ? Recompute::none : Recompute::all;
    else if (rule == "movement") r.movement = r.movement.empty() ? std::vector<OpKind>{OpKind::pad} : std::vector<OpKind>{};
    else if (rule == "max_group_ops") r.max_group_ops += 7;
    else if (rule == "max_group_operands") r.max_group_operands += 7;
    else if (rule == "max_live_values") r.max_live_values += 7;
    else if (rule == "refuse_unprofitable") r.refuse_unprofitable = !r.refuse_unprofitable;
    else if (rule == "passes") r.passes ^= xla_horizontal;
    else if (rule == "max_depth") r.max_depth += 7;
    else if (rule == "max_pointwise_cat_inputs") r.max_pointwise_cat_inputs += 7;
    else FAIL("no rule " << rule);
  }

  bool accepts(std::string_view strategy, std::string_view rule) {
    const auto names = strategy_rule_names(strategy);
    return std::find(names.begin(), names.end(), rule) != names.end();
  }

  TEST_CASE("options JSON: refused with invalid_options naming the rule and the strategy, in any key order") {
    int refused = 0;
    for (std::string_view strategy : strategy_names())
      for (std::string_view rule : rule_names()) {
        CAPTURE(strategy);
        CAPTURE(rule);
        const std::string rules = R"({")" + std::string(rule) + R"(": )" + sample_value(rule) + "}";
        const std::string name = R"(")" + std::string(strategy) + R"(")";
        for (const std::string& text : {R"({"strategy": )" + name + R"(, "rules": )" + rules + "}",
                                        R"({"rules": )" + rules + R"(, "strategy": )" + name + "}"}) {
          const Expected<PlannerOptions> options = read_options_json(text);
          if (accepts(strategy, rule)) {
            CHECK(options.ok());
            continue;
          }
          ++refused;
          REQUIRE_FALSE(options.ok());
          const Error& error = options.errors().front();
          CHECK(error.code == ErrorCode::invalid_options);
          CHECK(error.path == "/rules/" + std::string(rule));
          CHECK(mentions(error.message, "'" + std::string(rule) + "'"));
          CHECK(mentions(error.message, "'" + std::string(strategy) + "'"));
        }
      }
    // seed and xla-classic refuse the 3 procedure rules; tvm 14, xla 13, inductor 12; each in two key orders.
    CHECK(refused == 2 * (3 + 13 + 3 + 14 + 12));
  }

  TEST_CASE("even a refused rule's preset value is refused by name in options JSON") {
    const Expected<PlannerOptions> options = read_options_json(R"({"strategy": "tvm", "rules": {"epilogue": false}})");
    REQUIRE_FALSE(options.ok());
    CHECK(options.errors().front().path == "/rules/epilogue");
  }

  TEST_CASE("C++ API: with_rules changing a rule the strategy does not accept makes plan() return invalid_options") {
    const FusionGraph g = graph_from(kFork);
    for (std::string_view strategy : strategy_names()) {
      CAPTURE(strategy);
      CHECK(preset(std::string(strategy)).plan(g).ok());  // the preset itself is fine
      for (std::string_view rule : rule_names()) {
        CAPTURE(rule);
        FusionPlanner planner = preset(std::string(strategy));
        StrategyRules rules = planner.options().rules;
        change(rules, rule);
        const Expected<FusionPlan> plan = planner.with_rules(rules).plan(g);
        if (accepts(strategy, rule)) {
          CHECK(plan.ok());
          continue;
        }
        REQUIRE_FALSE(plan.ok());
        const Error& error = plan.errors().front();
        CHECK(error.code == ErrorCode::invalid_options);
        CHECK(error.path == "/rules/" + std::string(rule));
        CHECK(mentions(error.message, "'" + std::string(rule) + "'"));
        CHECK(mentions(error.message, "'" + std::string(strategy) + "'"));
      }
    }
  }

  TEST_CASE("C++ API: the old rule tables run only under seed") {
    const FusionGraph g = graph_from(kFork);
    const Expected<FusionPlan> tvm = preset("tvm").with_rules(classic_tvm_rules()).plan(g);
    REQUIRE_FALSE(tvm.ok());
    CHECK(tvm.errors().front().code == ErrorCode::invalid_options);
    CHECK(preset("seed").with_rules(classic_tvm_rules()).plan(g).ok());
    const Expected<FusionPlan> inductor = preset("inductor").with_rules(classic_inductor_rules()).plan(g);
    REQUIRE_FALSE(inductor.ok());
    CHECK(inductor.errors().front().code == ErrorCode::invalid_options);
  }
}

TEST_SUITE("every procedure") {
  TEST_CASE("seed leaves rule empty; xla-classic and the procedures describe every multi-op group") {
    std::mt19937_64 rng(20240611);
    for (int i = 0; i < 200; ++i) {
      const FusionGraph g = random_strategy_graph(rng, 40);
      for (std::string_view name : strategy_names()) {
        CAPTURE(name);
        const FusionPlan plan = plan_checked(g, preset(std::string(name)));
        const bool seed = name == "seed";
        for (const FusionGroup& group : plan.groups) {
          CAPTURE(group.id);
          if (seed || group.ops.size() < 2)
            CHECK(group.rule.empty());
          else
            CHECK_FALSE(group.rule.empty());
        }
      }
    }
  }

  TEST_CASE("planning is deterministic: the same graph and options give the same bytes, whatever ran before") {
    std::mt19937_64 rng(7);
    std::vector<FusionGraph> graphs;
    for (int i = 0; i < 20; ++i) graphs.push_back(random_strategy_graph(rng, 120));
    graphs.push_back(graph_from(kSoftmax));
    graphs.push_back(graph_from(kNorms));
    for (std::string_view name : strategy_names()) {
      CAPTURE(name);
      std::vector<std::string> first;
      for (const FusionGraph& g : graphs) first.push_back(write_plan_json(plan_checked(g, preset(std::string(name)))));
      for (std::size_t k = graphs.size(); k-- > 0;) {  // again, in the other order, with a fresh planner
        CAPTURE(k);
        const FusionPlanner planner = preset(std::string(name));
        CHECK(write_plan_json(*planner.plan(graphs[k])) == first[k]);
      }
    }
  }
}

TEST_SUITE("large graphs, each preset (behaviour only)") {
  // x -> op_1 -> ... -> op_{n-1}, alternating relu and neg.
  FusionGraph chain(int n) {
    FusionGraph g;
    OpId prev = g.add_op(OpKind::input, {}, {64});
    for (int i = 1; i < n; ++i) prev = g.add_op(i % 2 ? OpKind::relu : OpKind::neg, {prev}, {64});
    return g;
  }

  // x read by `width` ops a_i, joined by a chain of adds s_k = s_{k-1} + a_k (s_1 = a_0 + a_1): every a_i
  // and every add is a diamond over x; 1 + width + (width - 1) ops.
  FusionGraph wide(int width) {
    FusionGraph g;
    const OpId x = g.add_op(OpKind::input, {}, {64});
    std::vector<OpId> a;
    for (int i = 0; i < width; ++i) a.push_back(g.add_op(i % 2 ? OpKind::relu : OpKind::exp, {x}, {64}));
    OpId sum = a[0];
    for (int i = 1; i < width; ++i) sum = g.add_op(OpKind::add, {sum, a[static_cast<std::size_t>(i)]}, {64});
    return g;
  }

  std::size_t largest_group(const FusionPlan& plan) {
    std::size_t out = 0;
    for (const FusionGroup& group : plan.groups) out = std::max(out, group.ops.size());
    return out;
  }

  TEST_CASE("a 100,000-op chain" * doctest::skip(reduced_run())) {
    const FusionGraph g = chain(100'000);
    for (std::string_view name : strategy_names()) {
      CAPTURE(name);
      const FusionPlan plan = plan_checked(g, preset(std::string(name)));
      CHECK(plan.kernels_unfused == 99'999);
      if (name == "tvm") {
        // Groups of max_depth = 256 ops: 99,999 = 390 x 256 + 159.
        CHECK(plan.kernels_fused == 391);
        CHECK(largest_group(plan) == 256);
      } else if (name == "inductor") {
        // A pointwise chain is realized every 31 ops (realize_opcount_threshold 30): 3,226 nodes, fused 64 at a
        // time (max_fusion_size): 51 kernels of at most 64 x 31 = 1,984 ops.
        CHECK(plan.kernels_fused == 51);
        CHECK(largest_group(plan) == 1'984);
      } else {
        CHECK(plan.kernels_fused == 1);  // seed, xla-classic and xla fuse the whole chain
      }
    }
  }

  TEST_CASE("a 20,000-op wide diamond graph" * doctest::skip(reduced_run())) {
    const FusionGraph g = wide(10'000);
    REQUIRE(g.size() == 20'000);
    for (std::string_view name : strategy_names()) {
      CAPTURE(name);
      const FusionPlan plan = plan_checked(g, preset(std::string(name)));
      CHECK(plan.kernels_unfused == 19'999);
      for (const FusionGroup& group : plan.groups) CHECK(group.recomputed.empty());
      if (name == "tvm") {
        // Each a_i joins its add; the adds then chain 2 ops at a time: 3 + 2k <= 256 gives a first group of
        // 255 ops, then 77 of 256, then the last 32.
        CHECK(plan.kernels_fused == 79);
        CHECK(largest_group(plan) == 256);
      } else if (name == "inductor") {
        // Realized every 31 (first) then 32 ops: 625 nodes, 64 per kernel: 10 kernels of at most 2,048 ops.
        CHECK(plan.kernels_fused == 10);
        CHECK(largest_group(plan) == 2'048);
      } else {
        CHECK(plan.kernels_fused == 1);
      }
    }
  }
}
