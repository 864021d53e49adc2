// json_io.test.cpp — reading graphs (names or indices, dtype or dtype_bytes, any order) and writing
// plans in the exact format of docs/design.md §10.
#include "test_graphs.h"

using namespace fusion;
using namespace fusion::testing;

TEST_CASE("inputs by name and by index read the same graph") {
  const FusionGraph by_name = graph_from(R"({"ops": [
    {"name": "x", "kind": "input", "shape": [2], "dtype": "f32"},
    {"name": "y", "kind": "relu", "inputs": ["x"], "shape": [2], "dtype": "f32"}]})");
  const FusionGraph by_index = graph_from(R"({"ops": [
    {"name": "x", "kind": "input", "shape": [2], "dtype_bytes": 4},
    {"name": "y", "kind": "relu", "inputs": [0], "shape": [2], "dtype_bytes": 4}]})");
  CHECK(by_name.op(1).inputs == by_index.op(1).inputs);
  CHECK(by_name.op(1).dtype_bytes == by_index.op(1).dtype_bytes);
  CHECK(write_plan_json(*FusionPlanner().plan(by_name)) == write_plan_json(*FusionPlanner().plan(by_index)));
}

TEST_CASE("dtype names give their element sizes") {
  CHECK(dtype_size("f32") == 4);
  CHECK(dtype_size("bf16") == 2);
  CHECK(dtype_size("f64") == 8);
  CHECK(dtype_size("i8") == 1);
  CHECK(dtype_size("bool") == 1);
  CHECK(dtype_size("i64") == 8);
  CHECK_FALSE(dtype_size("f31").has_value());
}

TEST_CASE("kind aliases are read and the canonical kind is kept") {
  const FusionGraph g = graph_from(R"({"ops": [
    {"kind": "Input", "shape": [2], "dtype": "f32"},
    {"kind": "ReLU", "inputs": [0], "shape": [2], "dtype": "f32"}]})");
  CHECK(g.op(0).kind == OpKind::input);
  CHECK(g.op(1).kind == OpKind::relu);
}

TEST_CASE("a plan is written in the documented format, byte for byte") {
  const FusionGraph g = graph_from(R"({"ops": [
    {"name": "x",    "kind": "input", "shape": [1024, 768], "dtype_bytes": 4},
    {"name": "bias", "kind": "input", "shape": [768],       "dtype_bytes": 4},
    {"name": "y",    "kind": "add",   "inputs": ["x", "bias"], "shape": [1024, 768], "dtype_bytes": 4},
    {"name": "z",    "kind": "relu",  "inputs": ["y"],         "shape": [1024, 768], "dtype_bytes": 4}]})");
  // Time of group 2 on the a100 profile: 6,294,528 B / 2.039e12 B/s = 3.0871 us against 1,572,864 flops /
  // 19.5e12 = 0.0807 us, plus 3.8 us launch = 6.8871 us; unfused: 6,294,528 and 6,291,456 B -> 3.0871 + 3.0856
  // + 2 x 3.8 = 13.7726 us.
  CHECK(write_plan_json(*FusionPlanner().plan(g)) ==
        R"({"ok":true,"options":{"broadcast":true,"resident_sources":false,"strategy":"seed","hardware":"a100",)"
        R"("rules":{"horizontal":false,"horizontal_small_bytes":0,"horizontal_max_ops":0,"epilogue":false,)"
        R"("reduction_prologue":false,"reduction_epilogue":false,"recompute":"none","movement":[],)"
        R"("max_group_ops":0,"max_group_operands":0,"max_live_values":0,"refuse_unprofitable":false}},)"
        R"("groups":[{"id":0,"ops":[0],"inputs":[],"outputs":[0],"bytes_read":0,"bytes_written":3145728,)"
        R"("recomputed":[],"label":"","rule":"","kernel":false,"flops":0,"time_us":0.0,"bytes_unfused":3145728,"bytes_saved":0},)"
        R"({"id":1,"ops":[1],"inputs":[],"outputs":[1],"bytes_read":0,"bytes_written":3072,)"
        R"("recomputed":[],"label":"","rule":"","kernel":false,"flops":0,"time_us":0.0,"bytes_unfused":3072,"bytes_saved":0},)"
        R"({"id":2,"ops":[2,3],"inputs":[0,1],"outputs":[3],"bytes_read":3148800,"bytes_written":3145728,)"
        R"("recomputed":[],"label":"","rule":"","kernel":true,"flops":1572864,"time_us":6.887066208925944,)"
        R"("bytes_unfused":12585984,"bytes_saved":6291456}],)"
        R"("op_group":[0,1,2,2],"bytes_unfused":15734784,"bytes_fused":9443328,)"
        R"("speedup_estimate":1.6662329212752114,"kernels_unfused":2,"kernels_fused":1,)"
        R"("flops_unfused":1572864,"flops_fused":1572864,"time_unfused_us":13.772625796959293,)"
        R"("time_fused_us":6.887066208925944,"time_speedup":1.999781239086878,)"
        R"("op_bytes_unfused":[3145728,3072,6294528,6291456],)"
        R"("edges":[{"producer":0,"consumer":2,"fused":false,"reason":"source"},)"
        R"({"producer":1,"consumer":2,"fused":false,"reason":"source"},{"producer":2,"consumer":3,"fused":true}]})");
}

TEST_CASE("a written plan reads back and verifies") {
  const FusionGraph g = graph_from(R"({"ops": [
    {"name": "x", "kind": "input", "shape": [8], "dtype": "f32"},
    {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [8], "dtype": "f32"},
    {"name": "t", "kind": "transpose", "inputs": ["a"], "shape": [8], "dtype": "f32"},
    {"name": "c", "kind": "add", "inputs": ["a", "t"], "shape": [8], "dtype": "f32"}]})");
  const FusionPlan plan = plan_checked(g);
  const Expected<FusionPlan> back = read_plan_json(write_plan_json(plan));
  REQUIRE(back.ok());
  CHECK(write_plan_json(*back) == write_plan_json(plan));
  CHECK(verify_plan(g, {}, *back).empty());
}

TEST_CASE("a procedure's plan writes the group's rule after its label, and only the strategy's rules") {
  const FusionGraph g = graph_from(R"({"ops": [
    {"name": "x", "kind": "input", "shape": [8], "dtype": "f32"},
    {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [8], "dtype": "f32"},
    {"name": "b", "kind": "neg", "inputs": ["a"], "shape": [8], "dtype": "f32"}]})");
  const FusionPlanner tvm = FusionPlanner().with_strategy("tvm");
  const FusionPlan plan = plan_checked(g, tvm);
  const std::string text = write_plan_json(plan);
  CHECK(text.find(R"("options":{"broadcast":true,"resident_sources":false,"strategy":"tvm","hardware":"a100",)"
                  R"("rules":{"max_depth":256}},)") != std::string::npos);
  CHECK(text.find(R"("ops":[1,2],"inputs":[0],"outputs":[2],"bytes_read":32,"bytes_written":32,"recomputed":[],)"
                  R"("label":"","rule":"FuseOps kElemWise: 2 ops fused into their post-dominator neg 'b'","kernel":true,)") !=
        std::string::npos);
  const Expected<FusionPlan> back = read_plan_json(text);
  REQUIRE(back.ok());
  CHECK(back->groups[1].rule == plan.groups[1].rule);
  CHECK(back->options.strategy == "tvm");
  CHECK(back->options.rules == plan.options.rules);
  CHECK(write_plan_json(*back) == text);
  CHECK(verify_plan(g, tvm.options(), *back).empty());
  const std::string xla = write_plan_json(plan_checked(g, FusionPlanner().with_strategy("xla")));
  CHECK(xla.find(R"("rules":{"passes":["priority","multi_output","horizontal"],"max_group_operands":96}})") !=
        std::string::npos);
  const std::string inductor = write_plan_json(plan_checked(g, FusionPlanner().with_strategy("inductor")));
  CHECK(inductor.find(R"("rules":{"max_group_ops":64,"max_pointwise_cat_inputs":8,"epilogue":false}})") !=
        std::string::npos);
}

TEST_CASE("options read from JSON") {
  const auto options = read_options_json(R"({"broadcast": false, "resident_sources": true, "strategy": "seed"})");
  REQUIRE(options.ok());
  CHECK_FALSE(options->broadcast);
  CHECK(options->resident_sources);
  CHECK(options->strategy == "seed");
}

TEST_CASE("unicode names survive the round trip") {
  const FusionGraph g = graph_from(R"({"ops": [{"name": "вход ✓", "kind": "input", "shape": [1], "dtype": "f32"},
                                                {"name": "出力", "kind": "relu", "inputs": ["вход ✓"], "shape": [1], "dtype": "f32"}]})");
  CHECK(g.op(0).name == "вход ✓");
  CHECK(g.op(1).inputs == std::vector<OpId>{0});
}

TEST_CASE("op fields output, region and label are read; wrong types are located errors") {
  const FusionGraph g = graph_from(R"({"ops": [
    {"kind": "input", "shape": [2], "dtype": "f32"},
    {"kind": "opaque", "inputs": [0], "shape": [2], "dtype": "f32", "output": true, "region": "if/then",
     "label": "NonMaxSuppression"}]})");
  CHECK(g.op(1).output);
  CHECK(g.op(1).region == "if/then");
  CHECK(g.op(1).label == "NonMaxSuppression");
  CHECK_FALSE(g.op(0).output);
  const auto bad = read_graph_json(R"({"ops": [{"kind": "input", "shape": [2], "dtype": "f32", "output": 1}]})");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.errors().front().path == "/ops/0/output");
  const auto bad_region = read_graph_json(R"({"ops": [{"kind": "input", "shape": [2], "dtype": "f32", "region": []}]})");
  REQUIRE_FALSE(bad_region.ok());
  CHECK(bad_region.errors().front().path == "/ops/0/region");
}
