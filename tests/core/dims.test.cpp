// dims.test.cpp — named dimensions (docs/design.md §16): binding, the bound plan equal to the plan of the same graph
// with the numbers written in (random graphs, every strategy), formulas checked by the verifier, the independence
// claim held up against other values, and sweeps with exact change points.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <random>

#include "fusion/dims.h"
#include "fusion/formula.h"
#include "fusion/json_io.h"
#include "fusion/planner.h"
#include "fusion/strategy.h"
#include "fusion/sweep.h"
#include "fusion/verify.h"
#include "random_graphs.h"

using namespace fusion;
using nlohmann::json;

namespace {

// Names some dimensions of a numeric graph: each value in `names` becomes its name in about 4 of 5 places (the
// others keep the number, so a name also meets its own value written out). The graph's defaults are the values.
FusionGraph with_names(const FusionGraph& numeric, const std::map<std::int64_t, std::string>& names, std::mt19937_64& rng) {
  std::vector<FusionOp> ops = numeric.ops();
  DimValues defaults;
  for (FusionOp& op : ops)
    for (std::size_t d = 0; d < op.shape.size(); ++d) {
      const auto it = names.find(op.shape[d]);
      if (it == names.end() || rng() % 5 == 0) continue;
      op.dim_names.resize(op.shape.size());
      const bool square = op.shape[d] == 16 && rng() % 2 == 0;  // 16 is also seq*seq (seq = 4)
      op.dim_names[d] = square ? "seq*seq" : it->second;
      defaults[square ? "seq" : it->second] = square ? 4 : op.shape[d];
    }
  return FusionGraph::from_ops(std::move(ops), defaults);
}

// The numeric graph with every name replaced by its value in `values`.
FusionGraph substituted(const FusionGraph& named, const DimValues& values) {
  std::vector<FusionOp> ops = named.ops();
  for (FusionOp& op : ops) {
    for (std::size_t d = 0; d < op.dim_names.size(); ++d)
      if (!op.dim_names[d].empty()) op.shape[d] = *dim_product_value(*parse_dim_product(op.dim_names[d]), values);
    op.dim_names.clear();
  }
  return FusionGraph::from_ops(std::move(ops));
}

// The plan JSON without the keys of §16, for comparing with a plan of numbers.
json without_dims(const std::string& text) {
  json plan = json::parse(text);
  for (const char* key : {"dims", "grouping_independent_of_dims", "bytes_unfused_formula", "bytes_fused_formula",
                          "bytes_saved_formula", "warnings"})
    plan.erase(key);
  plan["options"].erase("dims");
  for (json& group : plan["groups"]) group.erase("bytes_read_formula"), group.erase("bytes_written_formula");
  return plan;
}

std::vector<std::vector<OpId>> grouping(const FusionPlan& plan) {
  std::vector<std::vector<OpId>> out;
  for (const FusionGroup& g : plan.groups) out.push_back(g.ops);
  return out;
}

const std::map<std::int64_t, std::string> kNames = {{3, "N"}, {4, "seq"}, {16, "H"}};

DimValues random_values(const FusionGraph& named, std::mt19937_64& rng) {
  static const std::array<std::int64_t, 7> kValues = {0, 1, 2, 3, 4, 7, 16};
  DimValues values;
  for (const std::string& name : used_dim_names(named)) values[name] = kValues[rng() % kValues.size()];
  return values;
}

}  // namespace

TEST_SUITE("named dimensions") {
  TEST_CASE("reading: names in shapes, defaults, and the bound graph") {
    const auto graph = read_graph_json(R"({"dims": {"N": 8}, "ops": [
      {"name": "x", "kind": "input", "shape": ["N", 768], "dtype": "f32"},
      {"name": "y", "kind": "relu", "inputs": ["x"], "shape": ["N", 768], "dtype": "f32"}]})");
    REQUIRE(graph.ok());
    CHECK(graph->has_dim_names());
    CHECK(graph->op(0).dim_names == std::vector<std::string>{"N", ""});
    CHECK(used_dim_names(*graph) == std::vector<std::string>{"N"});
    const auto bound = bind_dims(*graph, {{"N", 32}, {"unused", 1}});
    REQUIRE(bound.ok());
    CHECK(bound->op(1).shape == Shape{32, 768});
    CHECK(bound->dims() == DimValues{{"N", 32}});
    CHECK(unused_dims(*graph, {{"N", 1}, {"unused", 1}}) == std::vector<std::string>{"unused"});
    CHECK(is_dim_name("_a9"));
    CHECK_FALSE(is_dim_name("9a"));
    CHECK_FALSE(is_dim_name("a-b"));
  }

  TEST_CASE("products of names and numbers: read in canonical form, bound, priced as formulas") {
    const auto graph = read_graph_json(R"({"dims": {"batch": 2, "seq": 8}, "ops": [
      {"name": "x", "kind": "input", "shape": ["batch", "seq", 64], "dtype": "f16"},
      {"name": "flat", "kind": "reshape", "inputs": ["x"], "shape": ["seq*batch", 64], "dtype": "f16"},
      {"name": "both", "kind": "concat", "inputs": ["flat", "flat"], "shape": ["2*batch*seq", 64], "dtype": "f16"},
      {"name": "y", "kind": "relu", "inputs": ["both"], "shape": ["batch*2*seq", 64], "dtype": "f16"}]})");
    REQUIRE(graph.ok());
    CHECK(graph->op(1).dim_names[0] == "batch*seq");
    CHECK(graph->op(2).dim_names[0] == "2*batch*seq");
    CHECK(graph->op(3).dim_names[0] == "2*batch*seq");
    CHECK(used_dim_names(*graph) == std::vector<std::string>{"batch", "seq"});
    const auto plan = FusionPlanner().with_dims({{"seq", 100}}).plan(*graph);
    REQUIRE(plan.ok());
    CHECK(plan->dims == DimValues{{"batch", 2}, {"seq", 100}});
    CHECK(plan->bytes_unfused_formula == "1280*batch*seq");  // per batch*seq: written 128+128+256+256, read 128+128+256
    CHECK(plan->bytes_unfused == 1280 * 200);
    CHECK(verify_plan(*graph, FusionPlanner().with_dims({{"seq", 100}}).options(), *plan).empty());
    for (const char* bad : {"\"2*3\"", "\"batch**seq\"", "\"batch*\"", "\"-2*seq\"", "\"seq*99999999999999999\""}) {
      const auto read = read_graph_json(std::string(R"({"ops": [{"kind": "input", "shape": [)") + bad + R"(], "dtype": "f32"}]})");
      REQUIRE_FALSE(read.ok());
      CHECK(read.errors().front().code == ErrorCode::invalid_dimension);
    }
    const auto huge = FusionPlanner().with_dims({{"batch", 1 << 30}, {"seq", 1 << 30}}).plan(*graph);
    REQUIRE_FALSE(huge.ok());
    CHECK(huge.errors().front().code == ErrorCode::invalid_dimension);
    CHECK(huge.errors().front().path == "/ops/1/shape/0");
  }

  TEST_CASE("a bound plan is the plan of the graph with the numbers written in: random graphs, every strategy") {
    std::mt19937_64 rng(14);
    int plans = 0;
    for (int round = 0; round < 120; ++round) {
      const FusionGraph numeric = round % 2 ? testing::random_graph(rng, 6 + static_cast<int>(rng() % 20))
                                            : testing::random_strategy_graph(rng, 6 + static_cast<int>(rng() % 20));
      const FusionGraph named = with_names(numeric, kNames, rng);
      if (!named.has_dim_names()) continue;
      for (std::string_view strategy : strategy_names())
        for (int binding = 0; binding < 2; ++binding) {
          const DimValues values = binding == 0 ? named.dims() : random_values(named, rng);
          FusionPlanner planner;
          planner.with_strategy(std::string(strategy)).with_dims(values);
          const auto from_names = planner.plan(named);
          const auto from_numbers = planner.with_dims({}).plan(substituted(named, values));
          REQUIRE(from_names.ok() == from_numbers.ok());
          if (!from_names.ok()) continue;
          CHECK_MESSAGE(without_dims(write_plan_json(*from_names)) == without_dims(write_plan_json(*from_numbers)),
                        "strategy ", strategy, ", round ", round);
          CHECK(from_names->dims == values);
          FusionPlanner with_values;
          with_values.with_strategy(std::string(strategy)).with_dims(values);
          CHECK(verify_plan(named, with_values.options(), *from_names).empty());  // formulas included
          ++plans;
        }
    }
    CHECK(plans > 1000);
  }

  TEST_CASE("grouping_independent_of_dims holds up against other values, and is not always claimed") {
    std::mt19937_64 rng(16);
    int independent = 0, dependent = 0;
    for (int round = 0; round < 300; ++round) {
      const FusionGraph named = with_names(testing::random_graph(rng, 5 + static_cast<int>(rng() % 15)), kNames, rng);
      if (!named.has_dim_names()) continue;
      const auto plan = FusionPlanner().plan(named);
      REQUIRE(plan.ok());
      if (!plan->grouping_independent_of_dims) {
        ++dependent;
        continue;
      }
      ++independent;
      for (int k = 0; k < 4; ++k) {
        const auto other = FusionPlanner().with_dims(random_values(named, rng)).plan(named);
        REQUIRE(other.ok());
        CHECK(grouping(*other) == grouping(*plan));
        CHECK(other->bytes_fused_formula == plan->bytes_fused_formula);  // the same polynomial at every value
      }
    }
    CHECK(independent > 20);
    CHECK(dependent > 20);
    int tvm_independent = 0;
    for (int round = 0; round < 200; ++round) {  // tvm's claim, against other values
      const FusionGraph named = with_names(testing::random_graph(rng, 5 + static_cast<int>(rng() % 15)), kNames, rng);
      if (!named.has_dim_names()) continue;
      FusionPlanner tvm;
      tvm.with_strategy("tvm");
      const auto plan = tvm.plan(named);
      REQUIRE(plan.ok());
      if (!plan->grouping_independent_of_dims) continue;
      ++tvm_independent;
      for (int k = 0; k < 3; ++k) {
        FusionPlanner other = tvm;
        CHECK(grouping(*other.with_dims(random_values(named, rng)).plan(named)) == grouping(*plan));
      }
    }
    CHECK(tvm_independent > 20);
    for (std::string_view strategy : {"xla", "inductor", "xla-classic"}) {
      const auto graph = read_graph_json(R"({"dims": {"N": 8}, "ops": [
        {"kind": "input", "shape": ["N"], "dtype": "f32"}, {"kind": "relu", "inputs": [0], "shape": ["N"], "dtype": "f32"}]})");
      CHECK_FALSE(FusionPlanner().with_strategy(std::string(strategy)).plan(*graph)->grouping_independent_of_dims);
    }
  }

  TEST_CASE("formulas: exact polynomials beside the numbers, in the documented text form") {
    const auto graph = read_graph_json(R"({"dims": {"N": 8}, "ops": [
      {"name": "x", "kind": "input", "shape": ["N", 768], "dtype": "f32"},
      {"name": "b", "kind": "input", "shape": [768], "dtype": "f32"},
      {"name": "y", "kind": "add", "inputs": ["x", "b"], "shape": ["N", 768], "dtype": "f32"},
      {"name": "z", "kind": "relu", "inputs": ["y"], "shape": ["N", 768], "dtype": "f32"}]})");
    const auto plan = FusionPlanner().plan(*graph);
    REQUIRE(plan.ok());
    CHECK(plan->bytes_unfused_formula == "15360*N + 6144");
    CHECK(plan->bytes_fused_formula == "9216*N + 6144");
    CHECK(plan->bytes_saved_formula == "6144*N");
    CHECK(plan->bytes_fused == 9216 * 8 + 6144);
    CHECK(plan->groups.back().bytes_read_formula == "3072*N + 3072");
    CHECK(plan->grouping_independent_of_dims);
    const json text = json::parse(write_plan_json(*plan));
    CHECK(text["dims"] == json{{"N", 8}});
    CHECK(text["bytes_fused_formula"] == "9216*N + 6144");
    CHECK(text["warnings"] == json::array());
    const auto read_back = read_plan_json(write_plan_json(*plan));
    REQUIRE(read_back.ok());
    CHECK(verify_plan(*graph, PlannerOptions{}, *read_back).empty());
    FusionPlan wrong = *read_back;
    wrong.bytes_fused_formula = "9216*N + 6145";
    const auto violations = verify_plan(*graph, PlannerOptions{}, wrong);
    REQUIRE_FALSE(violations.empty());
    CHECK(violations.front().code == "formulas");
    wrong.bytes_fused_formula = "9215*N + 6152";  // right at N = 8, wrong as a polynomial
    CHECK_FALSE(verify_plan(*graph, PlannerOptions{}, wrong).empty());
    CHECK(json::parse(write_plan_json(*FusionPlanner().plan(substituted(*graph, {{"N", 8}})))).count("dims") == 0);
  }

  TEST_CASE("Polynomial: text form, parsing, arithmetic and overflow") {
    const auto p = Polynomial::parse("3 + 4*seq*N^2 - 2*N*N*seq + N");
    REQUIRE(p);
    CHECK(p->to_string() == "2*N^2*seq + N + 3");
    CHECK(p->evaluate({{"N", 2}, {"seq", 5}}) == 2 * 4 * 5 + 2 + 3);
    CHECK_FALSE(p->evaluate({{"N", 2}}));
    CHECK(Polynomial::parse("0")->to_string() == "0");
    CHECK(Polynomial::parse("-4*N")->to_string() == "-4*N");
    for (const char* bad : {"", "N +", "2**N", "N^", "N^x", "1e3", "a-b-", "*N", "9999999999999999999*N"})
      CHECK_MESSAGE(!Polynomial::parse(bad), bad);
    Polynomial big = *Polynomial::parse("9223372036854775807*N");
    CHECK_FALSE(big.add(*Polynomial::parse("N")));
    CHECK(big.to_string() == "9223372036854775807*N");  // unchanged after a failed add
  }

  TEST_CASE("sweep: rows equal single plans, and every change point is exact") {
    // relu(x[N]) -> add with c[4]: the edge fuses only for N = 1 or N = 4.
    const auto graph = read_graph_json(R"({"dims": {"N": 1}, "ops": [
      {"kind": "input", "shape": ["N"], "dtype": "f32"}, {"kind": "input", "shape": [4], "dtype": "f32"},
      {"kind": "relu", "inputs": [0], "shape": ["N"], "dtype": "f32"},
      {"kind": "add", "inputs": [2, 1], "shape": [4], "dtype": "f32"}]})");
    REQUIRE(graph.ok());
    for (std::string_view strategy : {"seed", "xla", "inductor"}) {
      FusionPlanner planner;
      planner.with_strategy(std::string(strategy));
      const auto result = sweep(*graph, planner, SweepSpec{"N", 1, 8, 0});
      REQUIRE(result.ok());
      std::vector<std::int64_t> values;
      for (const SweepRow& row : result->rows) {
        values.push_back(row.value);
        FusionPlanner at = planner;
        const auto plan = at.with_dims({{"N", row.value}}).plan(*graph);
        CHECK(row.bytes_fused == plan->bytes_fused);
        CHECK(row.kernels_fused == plan->kernels_fused);
        CHECK(row.time_fused_us == plan->time_fused_us);
      }
      CHECK(values == std::vector<std::int64_t>{1, 2, 4, 8});
      for (const SweepChange& change : result->changes) {
        FusionPlanner before = planner, after = planner;
        CHECK(grouping(*before.with_dims({{"N", change.at - 1}}).plan(*graph)) !=
              grouping(*after.with_dims({{"N", change.at}}).plan(*graph)));
      }
      if (strategy == "seed") {
        std::vector<std::int64_t> at;
        for (const SweepChange& change : result->changes) at.push_back(change.at);
        CHECK(at == std::vector<std::int64_t>{2, 4, 5});
        CHECK(result->rows[1].changed);
        CHECK(result->rows[1].change_at == 2);
      }
    }
  }

  TEST_CASE("sweep: a grouping proven independent is priced at every value, not re-planned") {
    const auto graph = read_graph_json(R"({"dims": {"N": 1}, "ops": [
      {"kind": "input", "shape": ["N", 8], "dtype": "f16"}, {"kind": "exp", "inputs": [0], "shape": ["N", 8], "dtype": "f16"},
      {"kind": "neg", "inputs": [1], "shape": ["N", 8], "dtype": "f16"}]})");
    const auto result = sweep(*graph, FusionPlanner(), SweepSpec{"N", 0, 100, 7});
    REQUIRE(result.ok());
    CHECK(result->changes.empty());
    for (const SweepRow& row : result->rows) {
      const auto plan = FusionPlanner().with_dims({{"N", row.value}}).plan(*graph);
      CHECK(row.bytes_unfused == plan->bytes_unfused);
      CHECK(row.time_unfused_us == plan->time_unfused_us);
      CHECK(row.time_speedup == plan->time_speedup);
    }
    CHECK(result->rows.back().value == 100);
  }

  TEST_CASE("sweep: bad ranges and a value that overflows are errors with their place") {
    const auto graph = read_graph_json(R"({"dims": {"N": 1}, "ops": [
      {"kind": "input", "shape": ["N", 4294967296], "dtype": "f32"}, {"kind": "relu", "inputs": [0], "shape": ["N", 4294967296], "dtype": "f32"}]})");
    REQUIRE(graph.ok());
    const auto path_of = [&](SweepSpec spec) {
      const auto result = sweep(*graph, FusionPlanner(), spec);
      return result.ok() ? std::string("ok") : result.errors().front().path;
    };
    CHECK(path_of({"M", 1, 4, 0}) == "/sweep/dim");
    CHECK(path_of({"N", 5, 4, 0}) == "/sweep/to");
    CHECK(path_of({"N", 0, 1 << 20, 1}) == "/sweep/step");
    CHECK(path_of({"N", 0, 2, 1}) == "ok");
    const auto overflow = sweep(*graph, FusionPlanner(), SweepSpec{"N", 1, 1 << 22, 0});
    REQUIRE_FALSE(overflow.ok());
    CHECK(overflow.errors().front().code == ErrorCode::byte_overflow);
    CHECK(overflow.errors().front().message.rfind("at N = ", 0) == 0);
    CHECK(read_sweep_json(R"({"dim": "N", "from": 1, "to": 8})").ok());
    CHECK(read_sweep_json(R"({"from": 1})").errors().front().path == "/sweep/dim");
    CHECK(read_sweep_json(R"({"dim": "N", "bogus": 1})").errors().front().path == "/sweep/bogus");
  }
}
