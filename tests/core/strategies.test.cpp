// strategies.test.cpp — every rule of docs/strategies.md on small graphs with hand-computed groups,
// reasons, bytes and times; every plan also passes the verifier (plan_checked).
//
// The rules drive the shared rule engine, which runs for `seed` with rule overrides and for `xla-classic`.
// engine("tvm") and engine("inductor") are `seed` with the rule tables those presets had before they ran
// their compilers' own procedures (classic_rules.h); engine("xla") is `xla-classic`. The procedures behind
// the `tvm`, `xla` and `inductor` presets are tested in presets.test.cpp.

#include "classic_rules.h"
#include "fusion/strategy.h"
#include "strategy_graphs.h"
#include "test_graphs.h"

using namespace fusion;
using namespace fusion::testing;

namespace {

using Groups = std::vector<std::vector<std::string>>;

FusionPlanner preset(const std::string& name) { return FusionPlanner().with_strategy(name); }

// The engine under an old rule table (classic_rules.h) with one change.
template <typename Change>
FusionPlanner with_rule(const std::string& name, Change&& change) {
  return with_changed_rules(engine(name), std::forward<Change>(change));
}

}  // namespace

TEST_SUITE("presets") {
  TEST_CASE("every preset name resolves, seed is all rules off, unknown names do not") {
    CHECK(std::vector<std::string_view>(strategy_names().begin(), strategy_names().end()) ==
          std::vector<std::string_view>{"seed", "xla", "xla-classic", "tvm", "inductor"});
    for (std::string_view name : strategy_names()) CHECK(preset_rules(name).has_value());
    CHECK(*preset_rules("seed") == StrategyRules{});
    CHECK_FALSE(preset_rules("glow").has_value());
    // The compiler procedures' own parameters.
    CHECK(preset_rules("tvm")->max_depth == 256);
    CHECK(preset_rules("xla")->passes == (xla_priority | xla_multi_output | xla_horizontal));
    CHECK(preset_rules("xla")->max_group_operands == 96);
    CHECK(preset_rules("inductor")->max_group_ops == 64);
    CHECK(preset_rules("inductor")->max_pointwise_cat_inputs == 8);
    CHECK_FALSE(preset_rules("inductor")->epilogue);  // extern matmul/conv, as Inductor's default config
    // xla-classic is the old xla rule table, for the shared engine.
    const StrategyRules classic = *preset_rules("xla-classic");
    CHECK(classic.horizontal);
    CHECK(classic.horizontal_small_bytes == 1u << 20);
    CHECK(classic.horizontal_max_ops == 64);
    CHECK_FALSE(classic.epilogue);
    CHECK(classic.reduction_prologue);
    CHECK_FALSE(classic.reduction_epilogue);
    CHECK(classic.recompute == Recompute::cheap);
    CHECK(classic.movement.size() == 7);
    CHECK(classic.max_group_operands == 96);
    CHECK(classic.refuse_unprofitable);
    CHECK(classic.passes == 0);
  }

  TEST_CASE("which procedure each strategy runs, and the rules it accepts") {
    CHECK(procedure_of("seed") == Procedure::rules);
    CHECK(procedure_of("xla-classic") == Procedure::rules);
    CHECK(procedure_of("tvm") == Procedure::tvm);
    CHECK(procedure_of("xla") == Procedure::xla);
    CHECK(procedure_of("inductor") == Procedure::inductor);
    using Names = std::vector<std::string_view>;
    auto accepted = [](std::string_view strategy) {
      const auto names = strategy_rule_names(strategy);
      return Names(names.begin(), names.end());
    };
    CHECK(accepted("tvm") == Names{"max_depth"});
    CHECK(accepted("xla") == Names{"passes", "max_group_operands"});
    CHECK(accepted("inductor") == Names{"max_group_ops", "max_pointwise_cat_inputs", "epilogue"});
    const Names engine_rules(rule_names().begin(), rule_names().begin() + 12);
    CHECK(accepted("seed") == engine_rules);
    CHECK(accepted("xla-classic") == engine_rules);
    CHECK(accepted("glow").empty());
    CHECK(rule_names().size() == 15);
    // A rule with the preset's value is not an override; one that differs is refused by name.
    CHECK(inapplicable_rule("tvm", *preset_rules("tvm")).empty());
    StrategyRules tvm = *preset_rules("tvm");
    tvm.max_depth = 3;
    CHECK(inapplicable_rule("tvm", tvm).empty());
    tvm.epilogue = true;
    CHECK(inapplicable_rule("tvm", tvm) == "epilogue");
    CHECK(inapplicable_rule("seed", classic_tvm_rules()).empty());
    StrategyRules seed;
    seed.max_depth = 4;
    CHECK(inapplicable_rule("seed", seed) == "max_depth");
  }

  TEST_CASE("options JSON: the preset fills the rules, then overrides apply, in any key order") {
    const auto options =
        read_options_json(R"({"rules": {"max_group_ops": 3, "recompute": "none"}, "strategy": "xla-classic"})");
    REQUIRE(options.ok());
    CHECK(options->rules.max_group_ops == 3);
    CHECK(options->rules.recompute == Recompute::none);
    CHECK(options->rules.horizontal);  // from the xla-classic preset
    CHECK(options->rules.max_group_operands == 96);
    const auto inductor =
        read_options_json(R"({"rules": {"max_pointwise_cat_inputs": 2, "epilogue": true}, "strategy": "inductor"})");
    REQUIRE(inductor.ok());
    CHECK(inductor->rules.max_pointwise_cat_inputs == 2);
    CHECK(inductor->rules.epilogue);
    CHECK(inductor->rules.max_group_ops == 64);  // from the inductor preset
    const auto xla = read_options_json(R"({"rules": {"passes": ["horizontal", "priority"]}, "strategy": "xla"})");
    REQUIRE(xla.ok());
    CHECK(xla->rules.passes == (xla_priority | xla_horizontal));
    CHECK(xla->rules.max_group_operands == 96);
  }

  TEST_CASE("bad rules and hardware are errors that say which") {
    const auto bad_rule = read_options_json(R"({"rules": {"max_ops": 3}})");
    REQUIRE_FALSE(bad_rule.ok());
    CHECK(bad_rule.errors().front().path == "/rules/max_ops");
    const auto bad_kind = read_options_json(R"({"rules": {"movement": ["reshape", "relu"]}})");
    REQUIRE_FALSE(bad_kind.ok());
    CHECK(bad_kind.errors().front().path == "/rules/movement/1");
    const auto bad_count = read_options_json(R"({"rules": {"max_group_ops": -1}})");
    REQUIRE_FALSE(bad_count.ok());
    const FusionGraph g = graph_from(kMatmulBiasRelu);
    const auto plan = FusionPlanner().with_hardware("tpu").plan(g);
    REQUIRE_FALSE(plan.ok());
    CHECK(plan.errors().front().path == "/hardware");
  }
}

TEST_SUITE("rule engine: epilogue into an anchor") {
  TEST_CASE("the tvm table fuses bias and activation into the matmul; the matmul output is never written") {
    const FusionGraph g = graph_from(kMatmulBiasRelu);
    const FusionPlan plan = plan_checked(g, engine("tvm"));
    CHECK(fused_groups(g, plan) == Groups{{"mm", "bias", "act"}});
    const FusionGroup& group = group_of_op(g, plan, "mm");
    // reads x 3,145,728 + w 2,359,296 + b 3,072; writes act 3,145,728
    CHECK(group.bytes_read == 5'508'096);
    CHECK(group.bytes_written == 3'145'728);
    CHECK(group.label == "matmul+bias+act");
    CHECK(plan.kernels_fused == 1);
    // Time on a100: 8,653,824 B / 2.039e12 B/s = 4.2442 us; compute 1,207,959,552 matrix flops / 312e12 =
    // 3.8717 us plus 1,572,864 vector flops / 19.5e12 = 0.0807 us = 3.9524 us; memory-bound, + 3.8 us launch.
    CHECK(group.time_us == doctest::Approx(8.04415).epsilon(1e-5));
    CHECK(group.flops == 1'207'959'552 + 1'572'864);
    const FusionPlan h100 = plan_checked(g, engine("tvm").with_hardware("h100"));
    // h100: 8,653,824 / 3.35e12 = 2.5832 us against 1,207,959,552 / 989.5e12 + 1,572,864 / 67e12 = 1.2442 us
    CHECK(group_of_op(g, h100, "mm").time_us == doctest::Approx(6.38323).epsilon(1e-5));
  }

  TEST_CASE("xla-classic keeps the matmul alone (epilogue off): barrier_producer") {
    const FusionGraph g = graph_from(kMatmulBiasRelu);
    const FusionPlan plan = plan_checked(g, engine("xla"));
    CHECK(fused_groups(g, plan) == Groups{{"bias", "act"}});
    CHECK(edge_decision(g, plan, "mm", "bias") == "barrier_producer");
  }

  TEST_CASE("no prologue: an elementwise producer of a matmul stays outside; two anchors never share") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [64, 64], "dtype": "f32"},
      {"name": "r", "kind": "relu", "inputs": ["x"], "shape": [64, 64], "dtype": "f32"},
      {"name": "mm1", "kind": "matmul", "inputs": ["r", "x"], "shape": [64, 64], "dtype": "f32"},
      {"name": "mm2", "kind": "matmul", "inputs": ["mm1", "x"], "shape": [64, 64], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g, engine("tvm"));
    CHECK(fused_groups(g, plan).empty());
    CHECK(edge_decision(g, plan, "r", "mm1") == "barrier_consumer");
    CHECK(edge_decision(g, plan, "mm1", "mm2") == "anchor");
  }

  TEST_CASE("an anchor's epilogue is elementwise only: a reshape after a matmul stays out") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [64, 64], "dtype": "f32"},
      {"name": "mm", "kind": "matmul", "inputs": ["x", "x"], "shape": [64, 64], "dtype": "f32"},
      {"name": "flat", "kind": "reshape", "inputs": ["mm"], "shape": [4096], "dtype": "f32"},
      {"name": "act", "kind": "relu", "inputs": ["flat"], "shape": [4096], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g, engine("tvm"));
    CHECK(fused_groups(g, plan) == Groups{{"flat", "act"}});
    CHECK(edge_decision(g, plan, "mm", "flat") == "barrier_producer");
  }
}

TEST_SUITE("rule engine: reductions") {
  TEST_CASE("softmax stays three kernels under the tvm table: the passes that need x again are multi_pass") {
    const FusionGraph g = graph_from(kSoftmax);
    const FusionPlan plan = plan_checked(g, engine("tvm"));
    CHECK(fused_groups(g, plan) == Groups{{"sub", "exp", "sum"}});
    CHECK(edge_decision(g, plan, "max", "sub") == "multi_pass");
    CHECK(edge_decision(g, plan, "exp", "div") == "multi_pass");
    CHECK(edge_decision(g, plan, "sum", "div") == "multi_pass");
    CHECK(group_of_op(g, plan, "sum").label == "softmax");
    // The sub/exp/sum kernel reads x (32,768 B) and max (256 B) and writes exp (32,768 B) and sum (256 B).
    CHECK(group_of_op(g, plan, "sum").bytes_read == 33'024);
    CHECK(group_of_op(g, plan, "sum").bytes_written == 33'024);
  }

  TEST_CASE("a reduction epilogue of the reduced size fuses; reduce -> reduce never does") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [64, 128], "dtype": "f32"},
      {"name": "scale", "kind": "input", "shape": [], "dtype": "f32"},
      {"name": "sq", "kind": "square", "inputs": ["x"], "shape": [64, 128], "dtype": "f32"},
      {"name": "sum", "kind": "reduce_sum", "inputs": ["sq"], "shape": [64], "dtype": "f32"},
      {"name": "mean", "kind": "mul", "inputs": ["sum", "scale"], "shape": [64], "dtype": "f32"},
      {"name": "root", "kind": "sqrt", "inputs": ["mean"], "shape": [64], "dtype": "f32"},
      {"name": "total", "kind": "reduce_sum", "inputs": ["root"], "shape": [], "dtype": "f32"}]})");
    const FusionPlan tvm = plan_checked(g, engine("tvm"));
    CHECK(fused_groups(g, tvm) == Groups{{"sq", "sum", "mean", "root"}});
    CHECK(edge_decision(g, tvm, "root", "total") == "anchor");
    const FusionPlan xla = plan_checked(g, engine("xla"));  // prologue only
    CHECK(fused_groups(g, xla) == Groups{{"sq", "sum"}, {"mean", "root", "total"}});
    CHECK(edge_decision(g, xla, "sum", "mean") == "barrier_producer");
  }

  TEST_CASE("a transpose does not fuse into a reduction: layout") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [64, 128], "dtype": "f32"},
      {"name": "e", "kind": "exp", "inputs": ["x"], "shape": [64, 128], "dtype": "f32"},
      {"name": "t", "kind": "transpose", "inputs": ["e"], "shape": [128, 64], "dtype": "f32"},
      {"name": "sum", "kind": "reduce_sum", "inputs": ["t"], "shape": [128], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g, engine("xla"));
    CHECK(fused_groups(g, plan) == Groups{{"e", "t"}});
    CHECK(edge_decision(g, plan, "t", "sum") == "layout");
  }
}

TEST_SUITE("rule engine: data movement") {
  TEST_CASE("reshape and slice are barriers under seed and loop ops under xla-classic, without a shape check") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [32, 64], "dtype": "f32"},
      {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [32, 64], "dtype": "f32"},
      {"name": "flat", "kind": "reshape", "inputs": ["a"], "shape": [2048], "dtype": "f32"},
      {"name": "half", "kind": "slice", "inputs": ["flat"], "shape": [1024], "dtype": "f32"},
      {"name": "n", "kind": "neg", "inputs": ["half"], "shape": [1024], "dtype": "f32"},
      {"name": "srt", "kind": "sort", "inputs": ["n"], "shape": [1024], "dtype": "f32"}]})");
    const FusionPlan seed = plan_checked(g);
    CHECK(fused_groups(g, seed).empty());
    CHECK(edge_decision(g, seed, "a", "flat") == "barrier_consumer");
    const FusionPlan xla = plan_checked(g, engine("xla"));
    CHECK(fused_groups(g, xla) == Groups{{"a", "flat", "half", "n"}});
    CHECK(edge_decision(g, xla, "n", "srt") == "barrier_consumer");  // sort is always a barrier
    const FusionPlan no_slice = plan_checked(g, with_rule("xla", [](StrategyRules& r) { r.movement = {OpKind::reshape}; }));
    CHECK(fused_groups(g, no_slice) == Groups{{"a", "flat"}});
  }
}

TEST_SUITE("rule engine: limits") {
  TEST_CASE("max_group_ops cuts a chain of 10 into 4 + 4 + 2 with reason limit") {
    std::string json = R"({"ops": [{"name": "x", "kind": "input", "shape": [8], "dtype": "f32"})";
    for (int i = 0; i < 10; ++i)
      json += R"(, {"name": "r)" + std::to_string(i) + R"(", "kind": "relu", "inputs": [)" + std::to_string(i) +
              R"(], "shape": [8], "dtype": "f32"})";
    const FusionGraph g = graph_from(json + "]}");
    const FusionPlan plan = plan_checked(g, with_rule("tvm", [](StrategyRules& r) { r.max_group_ops = 4; }));
    CHECK(fused_groups(g, plan) == Groups{{"r0", "r1", "r2", "r3"}, {"r4", "r5", "r6", "r7"}, {"r8", "r9"}});
    CHECK(edge_decision(g, plan, "r3", "r4") == "limit");
    CHECK(edge_decision(g, plan, "r7", "r8") == "limit");
  }

  TEST_CASE("max_group_operands counts external inputs plus outputs exactly") {
    const FusionGraph g = graph_from(kOperandChain);
    auto limited = [&](std::int64_t operands) {
      return plan_checked(g, with_rule("tvm", [&](StrategyRules& r) { r.max_group_operands = operands; }));
    };
    CHECK(fused_groups(g, limited(5)) == Groups{{"s", "t", "u"}});
    const FusionPlan four = limited(4);  // {s, t}: a, b, c + t = 4; adding u makes 5
    CHECK(fused_groups(g, four) == Groups{{"s", "t"}});
    CHECK(edge_decision(g, four, "t", "u") == "limit");
  }

  TEST_CASE("max_live_values also counts members read twice inside the group") {
    // y = relu(x); sq = y * y; z = sq + y.
    //   {y, sq}: reads x, writes y (z reads it) and sq: 3 live values.
    //   {sq, z}: reads y, writes z: 2.   {y, sq, z}: reads x, writes z, y read by sq and z: 3.
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [8], "dtype": "f32"},
      {"name": "y", "kind": "relu", "inputs": ["x"], "shape": [8], "dtype": "f32"},
      {"name": "sq", "kind": "mul", "inputs": ["y", "y"], "shape": [8], "dtype": "f32"},
      {"name": "z", "kind": "add", "inputs": ["sq", "y"], "shape": [8], "dtype": "f32"}]})");
    auto limited = [&](std::int64_t live) {
      return plan_checked(g, with_rule("tvm", [&](StrategyRules& r) { r.max_live_values = live; }));
    };
    const FusionPlan two = limited(2);
    CHECK(fused_groups(g, two) == Groups{{"sq", "z"}});
    CHECK(edge_decision(g, two, "y", "sq") == "limit");
    CHECK(edge_decision(g, two, "y", "z") == "limit");
    CHECK(fused_groups(g, limited(3)) == Groups{{"y", "sq", "z"}});
  }
}

TEST_SUITE("structural blockers, in every strategy") {
  TEST_CASE("ops of different regions never share a group: region") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [8], "dtype": "f32"},
      {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [8], "dtype": "f32"},
      {"name": "b", "kind": "neg", "inputs": ["a"], "shape": [8], "dtype": "f32", "region": "if/then"},
      {"name": "c", "kind": "exp", "inputs": ["b"], "shape": [8], "dtype": "f32", "region": "if/then"}]})");
    for (std::string_view name : strategy_names()) {
      CAPTURE(name);
      const FusionPlan plan = plan_checked(g, preset(std::string(name)));
      CHECK(fused_groups(g, plan) == Groups{{"b", "c"}});
      CHECK(edge_decision(g, plan, "a", "b") == "region");
    }
    for (const char* table : {"tvm", "inductor"}) {  // the engine under the old tables
      CAPTURE(table);
      const FusionPlan plan = plan_checked(g, engine(table));
      CHECK(fused_groups(g, plan) == Groups{{"b", "c"}});
      CHECK(edge_decision(g, plan, "a", "b") == "region");
    }
  }

  TEST_CASE("an op marked output is written even when only its own group reads it") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [256], "dtype": "f32"},
      {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [256], "dtype": "f32", "output": true},
      {"name": "b", "kind": "neg", "inputs": ["a"], "shape": [256], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g);
    CHECK(fused_groups(g, plan) == Groups{{"a", "b"}});
    const FusionGroup& group = group_of_op(g, plan, "a");
    CHECK(group.outputs == std::vector<OpId>{1, 2});
    CHECK(group.bytes_written == 2048);  // a and b, 1,024 B each
  }
}

TEST_SUITE("rule engine: horizontal fusion") {
  TEST_CASE("siblings reading one tensor become one kernel that reads it once (xla-classic, the inductor table)") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [1024], "dtype": "f32"},
      {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [1024], "dtype": "f32"},
      {"name": "b", "kind": "exp", "inputs": ["x"], "shape": [1024], "dtype": "f32"},
      {"name": "c", "kind": "neg", "inputs": ["x"], "shape": [512], "dtype": "f32"}]})");
    const FusionPlan seed = plan_checked(g);
    CHECK(fused_groups(g, seed).empty());
    for (const char* name : {"xla", "inductor"}) {
      CAPTURE(name);
      const FusionPlan plan = plan_checked(g, with_rule(name, [](StrategyRules& r) { r.horizontal_small_bytes = 0; }));  // siblings only
      CHECK(fused_groups(g, plan) == Groups{{"a", "b"}});  // c has another element count
      const FusionGroup& group = group_of_op(g, plan, "a");
      CHECK(group.bytes_read == 4096);      // x once
      CHECK(group.bytes_written == 8192);   // a and b
    }
  }

  TEST_CASE("horizontal_max_ops caps sibling merges") {
    std::string json = R"({"ops": [{"name": "x", "kind": "input", "shape": [64], "dtype": "f32"})";
    for (int i = 0; i < 5; ++i)
      json += R"(, {"name": "s)" + std::to_string(i) + R"(", "kind": "relu", "inputs": ["x"], "shape": [64], "dtype": "f32"})";
    const FusionGraph g = graph_from(json + "]}");
    const FusionPlan plan = plan_checked(g, with_rule("inductor", [](StrategyRules& r) { r.horizontal_max_ops = 3; }));
    CHECK(fused_groups(g, plan) == Groups{{"s0", "s1", "s2"}, {"s3", "s4"}});
  }

  TEST_CASE("siblings with a path between them are not merged (it would close a cycle)") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [64, 64], "dtype": "f32"},
      {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [64, 64], "dtype": "f32"},
      {"name": "mm", "kind": "matmul", "inputs": ["a", "x"], "shape": [64, 64], "dtype": "f32"},
      {"name": "b", "kind": "add", "inputs": ["x", "mm"], "shape": [64, 64], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g, engine("inductor"));
    CHECK(group_of_op(g, plan, "a").id != group_of_op(g, plan, "b").id);
  }

  TEST_CASE("small independent kernels are packed to save launches (xla-classic horizontal_small_bytes)") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [16], "dtype": "f32"},
      {"name": "y", "kind": "input", "shape": [16], "dtype": "f32"},
      {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [16], "dtype": "f32"},
      {"name": "b", "kind": "neg", "inputs": ["y"], "shape": [16], "dtype": "f32"}]})");
    const FusionPlan xla = plan_checked(g, engine("xla"));
    CHECK(fused_groups(g, xla) == Groups{{"a", "b"}});
    CHECK(xla.kernels_fused == 1);
    CHECK(plan_checked(g, engine("tvm")).kernels_fused == 2);
  }
}

TEST_SUITE("rule engine: recomputation") {
  // n = neg(x) feeds two reductions: under xla it joins the first and is recomputed in the second.
  const char* kShared = R"({"ops": [
    {"name": "x", "kind": "input", "shape": [256, 256], "dtype": "f32"},
    {"name": "n", "kind": "neg", "inputs": ["x"], "shape": [256, 256], "dtype": "f32"},
    {"name": "s", "kind": "reduce_sum", "inputs": ["n"], "shape": [256], "dtype": "f32"},
    {"name": "m", "kind": "reduce_max", "inputs": ["n"], "shape": [256], "dtype": "f32"}]})";

  TEST_CASE("a cheap producer read by two reductions is recomputed in the second: no write, no re-read") {
    const FusionGraph g = graph_from(kShared);
    const FusionPlan plan = plan_checked(g, engine("xla"));
    CHECK(group_names(g, plan) == Groups{{"x"}, {"n", "s"}, {"n", "m"}});
    CHECK(plan.groups[2].recomputed == std::vector<OpId>{1});
    CHECK(plan.op_group[1] == 1);
    CHECK(edge_decision(g, plan, "n", "m") == "fused");
    // each reduction kernel reads x (262,144 B) and writes 1,024 B; x itself writes 262,144 B
    CHECK(plan.bytes_fused == 262'144 + 2 * (262'144 + 1'024));
    // flops: neg 65,536 twice, each reduction 65,536
    CHECK(plan.flops_fused == 4 * 65'536);
    CHECK(plan.time_fused_us < plan.time_unfused_us);
  }

  TEST_CASE("without recomputation the second reduction reads n from memory") {
    const FusionGraph g = graph_from(kShared);
    const FusionPlan plan = plan_checked(g, with_rule("xla", [](StrategyRules& r) { r.recompute = Recompute::none; }));
    CHECK(group_names(g, plan) == Groups{{"x"}, {"n", "s"}, {"m"}});
    CHECK(edge_decision(g, plan, "n", "m") == "anchor");
    CHECK(plan.bytes_fused == 262'144 + (262'144 + 262'144 + 1'024) + (262'144 + 1'024));
  }

  TEST_CASE("expensive producers are not recomputed under cheap, but are under all") {
    std::string json = kShared;
    json.replace(json.find("\"neg\""), 5, "\"exp\"");
    const FusionGraph g = graph_from(json);
    CHECK(plan_checked(g, engine("xla")).groups.back().recomputed.empty());
    const FusionPlan all = plan_checked(g, with_rule("xla", [](StrategyRules& r) { r.recompute = Recompute::all; }));
    CHECK(all.groups.back().recomputed == std::vector<OpId>{1});
  }

  TEST_CASE("a copy that would cost time is refused as unprofitable when the rule table says so") {
    // Two compute-bound matmul kernels (2*512*512*8192 = 4.3 GFLOP at 312 TFLOP/s = 13.8 us against
    // 9 MB at 2 TB/s = 4.5 us) with epilogues reading p = neg(x). p joins the first; copying it into the
    // second saves 256 KiB of traffic but adds 262,144 vector flops to a kernel whose time is its flops.
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "a1", "kind": "input", "shape": [512, 8192], "dtype": "i8"},
      {"name": "a2", "kind": "input", "shape": [512, 8192], "dtype": "i8"},
      {"name": "b", "kind": "input", "shape": [8192, 512], "dtype": "i8"},
      {"name": "x", "kind": "input", "shape": [512, 512], "dtype": "i8"},
      {"name": "mm1", "kind": "matmul", "inputs": ["a1", "b"], "shape": [512, 512], "dtype": "i8"},
      {"name": "mm2", "kind": "matmul", "inputs": ["a2", "b"], "shape": [512, 512], "dtype": "i8"},
      {"name": "p", "kind": "neg", "inputs": ["x"], "shape": [512, 512], "dtype": "i8"},
      {"name": "add1", "kind": "add", "inputs": ["mm1", "p"], "shape": [512, 512], "dtype": "i8"},
      {"name": "add2", "kind": "add", "inputs": ["mm2", "p"], "shape": [512, 512], "dtype": "i8"}]})");
    const FusionPlan refused = plan_checked(g, engine("inductor"));
    CHECK(fused_groups(g, refused) == Groups{{"mm1", "p", "add1"}, {"mm2", "add2"}});
    CHECK(edge_decision(g, refused, "p", "add2") == "unprofitable");
    CHECK(refused.time_fused_us <= refused.time_unfused_us);

    const FusionPlan copied = plan_checked(g, with_rule("inductor", [](StrategyRules& r) { r.refuse_unprofitable = false; }));
    CHECK(fused_groups(g, copied) == Groups{{"mm1", "p", "add1"}, {"mm2", "p", "add2"}});
    CHECK(copied.bytes_fused == refused.bytes_fused - 262'144);
    CHECK(copied.time_fused_us > refused.time_fused_us);
  }
}
