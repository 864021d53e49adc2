// verify_strategies.test.cpp — the verifier under the rules of docs/strategies.md: for each rule, a hand-made
// plan it accepts and corrupted plans it rejects with exactly the violation code that rule calls for.
// The rule checks apply to the shared rule engine's strategies: `seed` (with the old `tvm` and `inductor`
// tables, classic_rules.h) and `xla-classic`. The last suites check the per-procedure contracts of the
// `tvm`, `xla` and `inductor` presets (core/src/verify/procedures.cpp).
#include <algorithm>
#include <map>
#include <set>

#include "classic_rules.h"
#include "fusion/cost.h"
#include "fusion/strategy.h"
#include "strategy_graphs.h"
#include "test_graphs.h"

using namespace fusion;
using namespace fusion::testing;

namespace {

using Codes = std::set<std::string>;

// The shared rule engine under a rule table: "seed" (all off), or the old "tvm", "xla" (xla-classic) and
// "inductor" tables.
PlannerOptions preset(const char* table) { return engine_options(table); }

// A strategy with its preset rules, as the planner resolves it (for the compiler procedures).
PlannerOptions strategy(const char* name) {
  PlannerOptions options;
  options.strategy = name;
  options.rules = *preset_rules(name);
  return options;
}

// A plan written as groups of op names, in plan order; "a*" is a recomputed copy of a. op_group names the
// owner, else the first group holding a copy. An unfused edge gets the reason `reasons` gives it, else
// `source` from a source and `cycle` otherwise. Priced by price_plan (cost.cpp), which the verifier does not
// share code with, under the options given.
struct Hand {
  std::vector<std::vector<std::string>> groups;
  std::map<std::pair<std::string, std::string>, EdgeReason> reasons = {};
};

OpId id_of(const FusionGraph& g, const std::string& name) {
  for (std::size_t x = 0; x < g.size(); ++x)
    if (g.op(static_cast<OpId>(x)).name == name) return static_cast<OpId>(x);
  FAIL("no op named " << name);
  return -1;
}

void fill_groups(const FusionGraph& g, const Hand& hand, FusionPlan& plan) {
  plan.op_group.assign(g.size(), -1);
  plan.groups.resize(hand.groups.size());
  for (std::size_t i = 0; i < hand.groups.size(); ++i) {
    FusionGroup& group = plan.groups[i];
    group.id = static_cast<std::int32_t>(i);
    for (std::string name : hand.groups[i]) {
      const bool copy = name.back() == '*';
      if (copy) name.pop_back();
      const OpId x = id_of(g, name);
      group.ops.push_back(x);
      if (copy)
        group.recomputed.push_back(x);
      else
        plan.op_group[x] = group.id;
    }
    std::sort(group.ops.begin(), group.ops.end());
    std::sort(group.recomputed.begin(), group.recomputed.end());
  }
  for (const FusionGroup& group : plan.groups)
    for (OpId x : group.recomputed)
      if (plan.op_group[x] < 0) plan.op_group[x] = group.id;
}

FusionPlan hand_plan(const FusionGraph& g, const PlannerOptions& options, const Hand& hand) {
  FusionPlan plan;
  plan.options = options;
  fill_groups(g, hand, plan);
  for (std::size_t x = 0; x < g.size(); ++x) {
    std::vector<OpId> seen;
    const FusionGroup& owner = plan.groups[static_cast<std::size_t>(plan.op_group[x])];
    for (OpId in : g.op(static_cast<OpId>(x)).inputs) {
      if (std::find(seen.begin(), seen.end(), in) != seen.end()) continue;
      seen.push_back(in);
      const bool fused = std::binary_search(owner.ops.begin(), owner.ops.end(), in);
      const auto given = hand.reasons.find({g.op(in).name, g.op(static_cast<OpId>(x)).name});
      EdgeReason reason = g.op(in).is_source() ? EdgeReason::source : EdgeReason::cycle;
      if (given != hand.reasons.end()) reason = given->second;
      plan.edges.push_back({in, static_cast<OpId>(x), fused, fused ? EdgeReason::none : reason});
    }
  }
  price_plan(g, plan);
  return plan;
}

Codes codes(const FusionGraph& g, const PlannerOptions& options, const FusionPlan& plan) {
  Codes out;
  for (const Violation& v : verify_plan(g, options, plan)) out.insert(v.code);
  return out;
}

Codes codes(const FusionGraph& g, const PlannerOptions& options, const Hand& hand) {
  return codes(g, options, hand_plan(g, options, hand));
}

EdgeDecision& edge(FusionPlan& plan, const FusionGraph& g, const std::string& p, const std::string& c) {
  for (EdgeDecision& e : plan.edges)
    if (e.producer == id_of(g, p) && e.consumer == id_of(g, c)) return e;
  FAIL("no edge " << p << " -> " << c);
  return plan.edges.front();
}

// x feeds a (read by two reductions) and s: a is the op worth recomputing.
const char* kShared = R"({"ops": [
  {"name": "x",  "kind": "input",      "shape": [1024], "dtype": "f32"},
  {"name": "a",  "kind": "neg",        "inputs": ["x"], "shape": [1024], "dtype": "f32"},
  {"name": "r1", "kind": "reduce_sum", "inputs": ["a"], "shape": [1], "dtype": "f32"},
  {"name": "r2", "kind": "reduce_max", "inputs": ["a"], "shape": [1], "dtype": "f32"},
  {"name": "s",  "kind": "relu",       "inputs": ["x"], "shape": [1024], "dtype": "f32"}]})";

const Hand kCopiesOnly{{{"x"}, {"a*", "r1"}, {"a*", "r2"}, {"s"}}};
const Hand kOwnedAndCopy{{{"x"}, {"a", "r1"}, {"a*", "r2"}, {"s"}}};

const char* kEpilogue = R"({"ops": [
  {"name": "x", "kind": "input",  "shape": [8, 16], "dtype": "f32"},
  {"name": "w", "kind": "input",  "shape": [16, 8], "dtype": "f32"},
  {"name": "b", "kind": "input",  "shape": [8], "dtype": "f32"},
  {"name": "m", "kind": "matmul", "inputs": ["x", "w"], "shape": [8, 8], "dtype": "f32"},
  {"name": "y", "kind": "add",    "inputs": ["m", "b"], "shape": [8, 8], "dtype": "f32"},
  {"name": "z", "kind": "relu",   "inputs": ["y"], "shape": [8, 8], "dtype": "f32"}]})";

const char* kPrologue = R"({"ops": [
  {"name": "x", "kind": "input",      "shape": [8, 16], "dtype": "f32"},
  {"name": "a", "kind": "exp",        "inputs": ["x"], "shape": [8, 16], "dtype": "f32"},
  {"name": "r", "kind": "reduce_sum", "inputs": ["a"], "shape": [8], "dtype": "f32"}]})";

const char* kReshape = R"({"ops": [
  {"name": "x",  "kind": "input",   "shape": [4, 8], "dtype": "f32"},
  {"name": "a",  "kind": "relu",    "inputs": ["x"], "shape": [4, 8], "dtype": "f32"},
  {"name": "rs", "kind": "reshape", "inputs": ["a"], "shape": [32], "dtype": "f32"},
  {"name": "n",  "kind": "neg",     "inputs": ["rs"], "shape": [32], "dtype": "f32"}]})";

const char* kDiamond = R"({"ops": [
  {"name": "x", "kind": "input", "shape": [4], "dtype": "f32"},
  {"name": "a", "kind": "relu",  "inputs": ["x"], "shape": [4], "dtype": "f32"},
  {"name": "b", "kind": "neg",   "inputs": ["a"], "shape": [4], "dtype": "f32"},
  {"name": "c", "kind": "add",   "inputs": ["a", "b"], "shape": [4], "dtype": "f32"}]})";

const char* kMatmul = R"({"ops": [
  {"name": "x", "kind": "input",  "shape": [64, 4096], "dtype": "f32"},
  {"name": "w", "kind": "input",  "shape": [4096, 64], "dtype": "f32"},
  {"name": "m", "kind": "matmul", "inputs": ["x", "w"], "shape": [64, 64], "dtype": "f32"}]})";

std::string with(std::string text, const std::string& from, const std::string& to) {
  return text.replace(text.find(from), from.size(), to);
}

}  // namespace

TEST_SUITE("verifier: recomputation") {
  TEST_CASE("a cheap producer recomputed in each reader, with or without an owner, is accepted") {
    const FusionGraph g = graph_from(kShared);
    CHECK(codes(g, preset("xla"), kCopiesOnly) == Codes{});
    CHECK(codes(g, preset("xla"), kOwnedAndCopy) == Codes{});
    CHECK(codes(g, preset("inductor"), kCopiesOnly) == Codes{});
  }

  TEST_CASE("recompute: copies the rules do not allow") {
    const FusionGraph g = graph_from(kShared);
    SUBCASE("recompute is none") {
      PlannerOptions options = preset("xla");
      options.rules.recompute = Recompute::none;
      CHECK(codes(g, options, kCopiesOnly) == Codes{"recompute"});
    }
    SUBCASE("an expensive kind under cheap, but not under all") {
      const FusionGraph e = graph_from(with(kShared, R"("kind": "neg")", R"("kind": "exp")"));
      CHECK(codes(e, preset("xla"), kCopiesOnly) == Codes{"recompute"});
      PlannerOptions all = preset("xla");
      all.rules.recompute = Recompute::all;
      CHECK(codes(e, all, kCopiesOnly) == Codes{});
    }
    SUBCASE("a source (which also may not share a group)") {
      CHECK(codes(g, preset("xla"), Hand{{{"x"}, {"x*", "a*", "r1"}, {"a*", "r2"}, {"s"}}}) ==
            Codes{"recompute", "not_fusible"});
    }
    SUBCASE("a heavy op") {
      const FusionGraph h = graph_from(R"({"ops": [
        {"name": "x", "kind": "input",      "shape": [8, 2], "dtype": "f32"},
        {"name": "r", "kind": "reduce_sum", "inputs": ["x"], "shape": [8], "dtype": "f32"},
        {"name": "e", "kind": "neg",        "inputs": ["r"], "shape": [8], "dtype": "f32"},
        {"name": "f", "kind": "relu",       "inputs": ["r"], "shape": [8], "dtype": "f32"}]})");
      CHECK(codes(h, preset("inductor"), Hand{{{"x"}, {"r", "e", "f"}}}) == Codes{});
      CHECK(codes(h, preset("inductor"), Hand{{{"x"}, {"r", "e"}, {"r*", "f"}}}) == Codes{"recompute"});
    }
  }

  TEST_CASE("recompute: a copy nobody in its group reads") {
    const FusionGraph g = graph_from(kShared);
    CHECK(codes(g, preset("xla"), Hand{{{"x"}, {"a*", "r1"}, {"a*", "r2"}, {"a*", "s"}}}) ==
          Codes{"recompute"});
  }

  TEST_CASE("recompute: an op that exists only as copies is never in memory") {
    SUBCASE("read from memory by another group") {
      const FusionGraph g = graph_from(kShared);
      const Hand hand{{{"x"}, {"a*", "r1"}, {"r2"}, {"s"}}, {{{"a", "r2"}, EdgeReason::unprofitable}}};
      CHECK(codes(g, preset("xla"), hand) == Codes{"recompute"});
    }
    SUBCASE("marked output") {
      const FusionGraph g = graph_from(with(kShared, R"("name": "a",)", R"("name": "a", "output": true,)"));
      CHECK(codes(g, preset("xla"), kCopiesOnly) == Codes{"recompute"});
      CHECK(codes(g, preset("xla"), kOwnedAndCopy) == Codes{});
    }
  }

  TEST_CASE("partition and recompute: the lists that say who holds a copy") {
    const FusionGraph g = graph_from(kShared);
    FusionPlan plan = hand_plan(g, preset("xla"), kCopiesOnly);
    SUBCASE("op_group of a copied-only op names its first copy") {
      plan.op_group[1] = 2;
      CHECK(codes(g, preset("xla"), plan) == Codes{"partition"});
    }
    SUBCASE("recomputed lists a non-member") {
      plan.groups[1].recomputed.push_back(4);
      CHECK(codes(g, preset("xla"), plan) == Codes{"recompute"});
    }
    SUBCASE("an edge into a copy's group is fused") {
      edge(plan, g, "a", "r2") = {1, 3, false, EdgeReason::cycle};
      CHECK(codes(g, preset("xla"), plan) == Codes{"edges"});
    }
  }

  TEST_CASE("unprofitable fits only an edge whose producer the rules could recompute") {
    const FusionGraph g = graph_from(kShared);
    const Hand hand{{{"x"}, {"a"}, {"r1"}, {"r2"}, {"s"}},
                    {{{"a", "r1"}, EdgeReason::unprofitable}, {{"a", "r2"}, EdgeReason::unprofitable}}};
    CHECK(codes(g, preset("xla"), hand) == Codes{});
    CHECK(codes(g, preset("tvm"), hand) == Codes{"edges"});
  }

  TEST_CASE("cycle: a copy reads its producers, so they count in the group graph") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",   "shape": [4], "dtype": "f32"},
      {"name": "a", "kind": "neg",     "inputs": ["x"], "shape": [4], "dtype": "f32"},
      {"name": "s", "kind": "softmax", "inputs": ["a"], "shape": [4], "dtype": "f32"},
      {"name": "w", "kind": "relu",    "inputs": ["s"], "shape": [4], "dtype": "f32"},
      {"name": "v", "kind": "add",     "inputs": ["a", "w"], "shape": [4], "dtype": "f32"}]})");
    const std::map<std::pair<std::string, std::string>, EdgeReason> reasons = {
        {{"a", "s"}, EdgeReason::barrier_consumer}, {{"s", "w"}, EdgeReason::barrier_producer}};
    CHECK(codes(g, preset("inductor"), Hand{{{"x"}, {"a"}, {"s"}, {"w*", "v"}}, reasons}) == Codes{});
    CHECK(codes(g, preset("inductor"), Hand{{{"x"}, {"a", "w*", "v"}, {"s"}}, reasons}) == Codes{"cycle"});
  }
}

TEST_SUITE("verifier: heavy ops") {
  TEST_CASE("an anchor takes an elementwise epilogue only under the epilogue rule") {
    const FusionGraph g = graph_from(kEpilogue);
    const Hand hand{{{"x"}, {"w"}, {"b"}, {"m", "y", "z"}}};
    CHECK(codes(g, preset("tvm"), hand) == Codes{});
    CHECK(codes(g, preset("xla"), hand) == Codes{"not_fusible"});
    CHECK(codes(g, preset("seed"), hand) == Codes{"not_fusible"});
  }

  TEST_CASE("anchor: an anchor reads its inputs from memory") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",  "shape": [8, 8], "dtype": "f32"},
      {"name": "w", "kind": "input",  "shape": [8, 8], "dtype": "f32"},
      {"name": "p", "kind": "relu",   "inputs": ["x"], "shape": [8, 8], "dtype": "f32"},
      {"name": "m", "kind": "matmul", "inputs": ["p", "w"], "shape": [8, 8], "dtype": "f32"},
      {"name": "y", "kind": "relu",   "inputs": ["m"], "shape": [8, 8], "dtype": "f32"}]})");
    CHECK(codes(g, preset("tvm"),
                Hand{{{"x"}, {"w"}, {"p"}, {"m", "y"}}, {{{"p", "m"}, EdgeReason::barrier_consumer}}}) ==
          Codes{});
    CHECK(codes(g, preset("tvm"), Hand{{{"x"}, {"w"}, {"p", "m", "y"}}}) == Codes{"anchor"});
  }

  TEST_CASE("anchor: an anchor's epilogue holds no movement op") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",     "shape": [8, 8], "dtype": "f32"},
      {"name": "w", "kind": "input",     "shape": [8, 8], "dtype": "f32"},
      {"name": "m", "kind": "matmul",    "inputs": ["x", "w"], "shape": [8, 8], "dtype": "f32"},
      {"name": "t", "kind": "transpose", "inputs": ["m"], "shape": [8, 8], "dtype": "f32"}]})");
    const auto split = [](EdgeReason reason) {
      return Hand{{{"x"}, {"w"}, {"m"}, {"t"}}, {{{"m", "t"}, reason}}};
    };
    CHECK(codes(g, preset("tvm"), Hand{{{"x"}, {"w"}, {"m", "t"}}}) == Codes{"anchor"});
    CHECK(codes(g, preset("tvm"), split(EdgeReason::barrier_producer)) ==
          Codes{});  // the edge itself is refused
    CHECK(codes(g, preset("tvm"), split(EdgeReason::cycle)) == Codes{"edges"});
  }

  TEST_CASE("anchor: two heavy ops in one group, and the reason between two heavy groups") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",      "shape": [8, 16], "dtype": "f32"},
      {"name": "a", "kind": "reduce_sum", "inputs": ["x"], "shape": [8], "dtype": "f32"},
      {"name": "b", "kind": "reduce_max", "inputs": ["a"], "shape": [1], "dtype": "f32"}]})");
    const Hand split{{{"x"}, {"a"}, {"b"}}, {{{"a", "b"}, EdgeReason::anchor}}};
    CHECK(codes(g, preset("tvm"), Hand{{{"x"}, {"a", "b"}}}) == Codes{"anchor"});
    CHECK(codes(g, preset("tvm"), split) == Codes{});
    CHECK(codes(g, preset("seed"), split) == Codes{"edges"});  // seed: a reduction is a plain barrier
  }

  TEST_CASE("anchor fits an edge between an anchor group and another heavy group") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x",  "kind": "input",  "shape": [8, 8], "dtype": "f32"},
      {"name": "w",  "kind": "input",  "shape": [8, 8], "dtype": "f32"},
      {"name": "m1", "kind": "matmul", "inputs": ["x", "w"], "shape": [8, 8], "dtype": "f32"},
      {"name": "m2", "kind": "matmul", "inputs": ["w", "x"], "shape": [8, 8], "dtype": "f32"},
      {"name": "a",  "kind": "add",    "inputs": ["m1", "m2"], "shape": [8, 8], "dtype": "f32"}]})");
    CHECK(codes(g, preset("tvm"),
                Hand{{{"x"}, {"w"}, {"m1", "a"}, {"m2"}}, {{{"m2", "a"}, EdgeReason::anchor}}}) == Codes{});
    CHECK(codes(g, preset("tvm"),
                Hand{{{"x"}, {"w"}, {"m1", "a"}, {"m2"}}, {{{"m2", "a"}, EdgeReason::layout}}}) ==
          Codes{"edges"});
  }
}

TEST_SUITE("verifier: reductions") {
  TEST_CASE("an epilogue on the reduced space is accepted only under reduction_epilogue") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",      "shape": [8, 16], "dtype": "f32"},
      {"name": "s", "kind": "input",      "shape": [8], "dtype": "f32"},
      {"name": "r", "kind": "reduce_sum", "inputs": ["x"], "shape": [8], "dtype": "f32"},
      {"name": "e", "kind": "mul",        "inputs": ["r", "s"], "shape": [8], "dtype": "f32"}]})");
    const Hand hand{{{"x"}, {"s"}, {"r", "e"}}};
    CHECK(codes(g, preset("tvm"), hand) == Codes{});
    CHECK(codes(g, preset("xla"), hand) == Codes{"not_fusible"});
  }

  TEST_CASE("multi_pass: an epilogue that needs the full-size tensor (softmax's x - max(x))") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",      "shape": [8, 16], "dtype": "f32"},
      {"name": "r", "kind": "reduce_max", "inputs": ["x"], "shape": [8, 1], "dtype": "f32"},
      {"name": "d", "kind": "sub",        "inputs": ["x", "r"], "shape": [8, 16], "dtype": "f32"}]})");
    CHECK(codes(g, preset("tvm"), Hand{{{"x"}, {"r", "d"}}}) == Codes{"multi_pass"});
    CHECK(codes(g, preset("tvm"), Hand{{{"x"}, {"r"}, {"d"}}, {{{"r", "d"}, EdgeReason::multi_pass}}}) ==
          Codes{});
    const Hand barrier{{{"x"}, {"r"}, {"d"}}, {{{"r", "d"}, EdgeReason::barrier_producer}}};
    CHECK(codes(g, preset("tvm"), barrier) == Codes{"edges"});  // the epilogue rule is on
    CHECK(codes(g, preset("xla"), barrier) == Codes{});         // it is off
  }

  TEST_CASE("multi_pass: an epilogue on a larger iteration space than the reduction's output") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",      "shape": [8, 16], "dtype": "f32"},
      {"name": "r", "kind": "reduce_sum", "inputs": ["x"], "shape": [8], "dtype": "f32"},
      {"name": "e", "kind": "exp",        "inputs": ["r"], "shape": [2, 8], "dtype": "f32"}]})");
    CHECK(codes(g, preset("tvm"), Hand{{{"x"}, {"r", "e"}}}) == Codes{"multi_pass"});
  }

  TEST_CASE("multi_pass: an epilogue of the right size that reads a larger tensor from outside") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",      "shape": [8, 16], "dtype": "f32"},
      {"name": "t", "kind": "input",      "shape": [2, 8], "dtype": "f32"},
      {"name": "r", "kind": "reduce_sum", "inputs": ["x"], "shape": [8], "dtype": "f32"},
      {"name": "e", "kind": "add",        "inputs": ["r", "t"], "shape": [8], "dtype": "f32"}]})");
    CHECK(codes(g, preset("tvm"), Hand{{{"x"}, {"t"}, {"r", "e"}}}) == Codes{"multi_pass"});
  }

  TEST_CASE("multi_pass: a side input of the epilogue is an epilogue member too") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",      "shape": [8, 16], "dtype": "f32"},
      {"name": "t", "kind": "input",      "shape": [2, 8], "dtype": "f32"},
      {"name": "s", "kind": "input",      "shape": [8], "dtype": "f32"},
      {"name": "r", "kind": "reduce_sum", "inputs": ["x"], "shape": [8], "dtype": "f32"},
      {"name": "y", "kind": "slice",      "inputs": ["t"], "shape": [8], "dtype": "f32"},
      {"name": "n", "kind": "neg",        "inputs": ["s"], "shape": [8], "dtype": "f32"},
      {"name": "e", "kind": "add",        "inputs": ["r", "y"], "shape": [8], "dtype": "f32"},
      {"name": "f", "kind": "add",        "inputs": ["r", "n"], "shape": [8], "dtype": "f32"}]})");
    // y reads t (16 elements) from outside: greedy refuses it beside the reduction's epilogue; n reads 8.
    CHECK(codes(g, preset("tvm"), Hand{{{"x"}, {"t"}, {"s"}, {"r", "y", "e", "n", "f"}}}) == Codes{"multi_pass"});
    CHECK(codes(g, preset("tvm"), Hand{{{"x"}, {"t"}, {"s"}, {"y"}, {"r", "e", "n", "f"}}}) == Codes{});
  }

  TEST_CASE("a prologue fuses under reduction_prologue, its edge into the reduction not shape-checked") {
    const FusionGraph g = graph_from(kPrologue);
    CHECK(codes(g, preset("xla"), Hand{{{"x"}, {"a", "r"}}}) == Codes{});
    PlannerOptions off = preset("xla");
    off.rules.reduction_prologue = false;
    CHECK(codes(g, off, Hand{{{"x"}, {"a", "r"}}}) == Codes{"not_fusible"});
  }

  TEST_CASE("multi_pass: a prologue member read by another member") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",      "shape": [8, 16], "dtype": "f32"},
      {"name": "a", "kind": "exp",        "inputs": ["x"], "shape": [8, 16], "dtype": "f32"},
      {"name": "r", "kind": "reduce_sum", "inputs": ["a"], "shape": [8, 1], "dtype": "f32"},
      {"name": "n", "kind": "neg",        "inputs": ["a"], "shape": [8, 16], "dtype": "f32"}]})");
    CHECK(codes(g, preset("xla"), Hand{{{"x"}, {"a", "r"}, {"n"}}, {{{"a", "n"}, EdgeReason::multi_pass}}}) ==
          Codes{});
    CHECK(codes(g, preset("xla"), Hand{{{"x"}, {"a", "r", "n"}}}) == Codes{"multi_pass"});
  }

  TEST_CASE("layout: a transpose never fuses into a reduction") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",      "shape": [16, 8], "dtype": "f32"},
      {"name": "t", "kind": "transpose",  "inputs": ["x"], "shape": [8, 16], "dtype": "f32"},
      {"name": "r", "kind": "reduce_sum", "inputs": ["t"], "shape": [8], "dtype": "f32"}]})");
    CHECK(codes(g, preset("xla"), Hand{{{"x"}, {"t"}, {"r"}}, {{{"t", "r"}, EdgeReason::layout}}}) ==
          Codes{});
    CHECK(codes(g, preset("xla"), Hand{{{"x"}, {"t", "r"}}}) == Codes{"layout"});
    const FusionGraph p = graph_from(kPrologue);
    CHECK(codes(p, preset("xla"), Hand{{{"x"}, {"a"}, {"r"}}, {{{"a", "r"}, EdgeReason::layout}}}) ==
          Codes{"edges"});
  }
}

TEST_SUITE("verifier: loop groups") {
  TEST_CASE("movement kinds are loop ops when the rules list them, and their edges are not shape-checked") {
    const FusionGraph g = graph_from(kReshape);
    const Hand hand{{{"x"}, {"a", "rs", "n"}}};
    CHECK(codes(g, preset("tvm"), hand) == Codes{});
    CHECK(codes(g, preset("seed"), hand) == Codes{"not_fusible"});
    const FusionGraph cast = graph_from(with(kReshape, R"("kind": "reshape")", R"("kind": "cast")"));
    CHECK(codes(cast, preset("tvm"), hand) == Codes{"shape"});
  }

  TEST_CASE("region: no group spans two regions, in any strategy") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [4], "dtype": "f32"},
      {"name": "a", "kind": "relu",  "inputs": ["x"], "shape": [4], "dtype": "f32"},
      {"name": "b", "kind": "neg",   "inputs": ["a"], "shape": [4], "dtype": "f32", "region": "body"}]})");
    CHECK(codes(g, preset("seed"), Hand{{{"x"}, {"a", "b"}}}) == Codes{"region"});
    CHECK(codes(g, preset("inductor"), Hand{{{"x"}, {"a", "b"}}}) == Codes{"region"});
    CHECK(codes(g, preset("seed"), Hand{{{"x"}, {"a"}, {"b"}}, {{{"a", "b"}, EdgeReason::region}}}) ==
          Codes{});
    const FusionGraph same = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [4], "dtype": "f32"},
      {"name": "a", "kind": "relu",  "inputs": ["x"], "shape": [4], "dtype": "f32"},
      {"name": "b", "kind": "neg",   "inputs": ["a"], "shape": [4], "dtype": "f32"}]})");
    CHECK(codes(same, preset("seed"), Hand{{{"x"}, {"a"}, {"b"}}, {{{"a", "b"}, EdgeReason::region}}}) ==
          Codes{"edges"});
  }
}

TEST_SUITE("verifier: horizontal fusion") {
  const Hand kShareX{{{"x"}, {"y"}, {"a", "b"}, {"c"}}};
  const Hand kNoShare{{{"x"}, {"y"}, {"a", "c"}, {"b"}}};

  TEST_CASE("siblings reading one tensor may share a group under the horizontal rule only") {
    const FusionGraph g = graph_from(kSiblings);
    CHECK(codes(g, preset("inductor"), kShareX) == Codes{});
    CHECK(codes(g, preset("tvm"), kShareX) == Codes{"disconnected"});
  }

  TEST_CASE("unrelated loop groups may share a group only when each is small") {
    const FusionGraph g = graph_from(kSiblings);
    CHECK(codes(g, preset("xla"), kNoShare) == Codes{});  // each moves 8 KiB, under 1 MiB
    CHECK(codes(g, preset("inductor"), kNoShare) == Codes{"disconnected"});
    PlannerOptions tight = preset("xla");
    tight.rules.horizontal_small_bytes = 8000;
    CHECK(codes(g, tight, kNoShare) == Codes{"disconnected"});
  }

  TEST_CASE("a packed part is measured without the copies recomputation added to it later") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x1", "kind": "input", "shape": [16], "dtype": "f32"},
      {"name": "x2", "kind": "input", "shape": [16], "dtype": "f32"},
      {"name": "y",  "kind": "input", "shape": [4], "dtype": "f32"},
      {"name": "p",  "kind": "add",   "inputs": ["x1", "x2"], "shape": [16], "dtype": "f32"},
      {"name": "s",  "kind": "exp",   "inputs": ["p"], "shape": [16], "dtype": "f32"},
      {"name": "q",  "kind": "relu",  "inputs": ["p"], "shape": [16], "dtype": "f32"},
      {"name": "z",  "kind": "neg",   "inputs": ["y"], "shape": [4], "dtype": "f32"}]})");
    const Hand hand{{{"x1"}, {"x2"}, {"y"}, {"p*", "s"}, {"p*", "q", "z"}}};
    PlannerOptions options = preset("xla");
    options.rules.horizontal_small_bytes = 150;  // {q} moved 64 + 64 bytes before p was copied in
    CHECK(codes(g, options, hand) == Codes{});
    options.rules.horizontal_small_bytes = 100;
    CHECK(codes(g, options, hand) == Codes{"disconnected"});
  }

  TEST_CASE("siblings are readers of one element count, and only loop groups join horizontally") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",      "shape": [1024], "dtype": "f32"},
      {"name": "a", "kind": "relu",       "inputs": ["x"], "shape": [1024], "dtype": "f32"},
      {"name": "b", "kind": "neg",        "inputs": ["x"], "shape": [1024], "dtype": "f32"},
      {"name": "s", "kind": "slice",      "inputs": ["x"], "shape": [512], "dtype": "f32"},
      {"name": "r", "kind": "reduce_sum", "inputs": ["x"], "shape": [1], "dtype": "f32"}]})");
    PlannerOptions siblings = preset("xla");  // horizontal on, every movement kind a loop kind
    siblings.rules.horizontal_small_bytes = 0;
    CHECK(codes(g, siblings, Hand{{{"x"}, {"a", "b"}, {"s"}, {"r"}}}) == Codes{});
    CHECK(codes(g, siblings, Hand{{{"x"}, {"a", "s"}, {"b"}, {"r"}}}) == Codes{"disconnected"});  // 1024 and 512
    PlannerOptions packing = siblings;
    packing.rules.horizontal_small_bytes = 1 << 20;  // every part small: any loop parts may pack
    CHECK(codes(g, packing, Hand{{{"x"}, {"a", "s"}, {"b"}, {"r"}}}) == Codes{});
    CHECK(codes(g, packing, Hand{{{"x"}, {"a", "r"}, {"b"}, {"s"}}}) == Codes{"disconnected"});  // a reduction
  }

  TEST_CASE("small packing alone does not justify siblings that are not small") {
    const FusionGraph g = graph_from(kSiblings);
    PlannerOptions packing = preset("seed");
    packing.rules.horizontal_small_bytes = 8192;
    CHECK(codes(g, packing, kShareX) == Codes{});
    packing.rules.horizontal_small_bytes = 8000;
    CHECK(codes(g, packing, kShareX) == Codes{"disconnected"});
  }
}

TEST_SUITE("verifier: limits") {
  const Hand kAll{{{"x"}, {"a", "b", "c"}}};

  PlannerOptions limited(std::int64_t StrategyRules::*rule, std::int64_t value) {
    PlannerOptions options = preset("seed");
    options.rules.*rule = value;
    return options;
  }

  TEST_CASE("limit: max_group_ops, max_group_operands and max_live_values, 0 meaning none") {
    const FusionGraph g = graph_from(kDiamond);
    CHECK(codes(g, preset("seed"), kAll) == Codes{});
    CHECK(codes(g, limited(&StrategyRules::max_group_ops, 3), kAll) == Codes{});
    CHECK(codes(g, limited(&StrategyRules::max_group_ops, 2), kAll) == Codes{"limit"});
    CHECK(codes(g, limited(&StrategyRules::max_group_operands, 2), kAll) == Codes{});  // x in, c out
    CHECK(codes(g, limited(&StrategyRules::max_group_operands, 1), kAll) == Codes{"limit"});
    CHECK(codes(g, limited(&StrategyRules::max_live_values, 3), kAll) == Codes{});  // and a, read twice
    CHECK(codes(g, limited(&StrategyRules::max_live_values, 2), kAll) == Codes{"limit"});
  }

  TEST_CASE("limit fits an edge only when a limit could have refused the merge") {
    const FusionGraph g = graph_from(kDiamond);
    const Hand split{{{"x"}, {"a", "b"}, {"c"}},
                     {{{"a", "c"}, EdgeReason::limit}, {{"b", "c"}, EdgeReason::limit}}};
    CHECK(codes(g, limited(&StrategyRules::max_group_ops, 2), split) == Codes{});
    CHECK(codes(g, limited(&StrategyRules::max_group_ops, 3), split) == Codes{"edges"});
    CHECK(codes(g, preset("seed"), split) == Codes{"edges"});
  }
}

TEST_SUITE("verifier: outputs and time") {
  TEST_CASE("outputs: an op marked output is written even when only its own group reads it") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [4], "dtype": "f32"},
      {"name": "a", "kind": "relu",  "inputs": ["x"], "shape": [4], "dtype": "f32", "output": true},
      {"name": "b", "kind": "neg",   "inputs": ["a"], "shape": [4], "dtype": "f32"}]})");
    FusionPlan plan = hand_plan(g, preset("seed"), Hand{{{"x"}, {"a", "b"}}});
    CHECK(codes(g, preset("seed"), plan) == Codes{});
    plan.groups[1].outputs = {2};
    CHECK(codes(g, preset("seed"), plan) == Codes{"outputs"});
  }

  TEST_CASE("time: a kernel is max(bytes / bandwidth, flops / peak) + launch, matmul at the matrix peak") {
    const FusionGraph g = graph_from(kMatmul);
    FusionPlan plan = hand_plan(g, preset("seed"), Hand{{{"x"}, {"w"}, {"m"}}});
    const double bytes = (64.0 * 4096 + 4096 * 64 + 64 * 64) * 4;
    const double flops = 2.0 * 64 * 64 * 4096;
    const double at_matrix = std::max(bytes / 2.039e12, flops / 312e12) * 1e6 + 3.8;   // memory-bound
    const double at_vector = std::max(bytes / 2.039e12, flops / 19.5e12) * 1e6 + 3.8;  // compute-bound
    CHECK(codes(g, preset("seed"), plan) == Codes{});
    CHECK(plan.groups[2].flops == static_cast<std::uint64_t>(flops));
    CHECK(plan.groups[2].time_us == doctest::Approx(at_matrix).epsilon(1e-12));
    plan.groups[2].time_us = at_vector;
    CHECK(codes(g, preset("seed"), plan) == Codes{"time"});
  }

  TEST_CASE("time: flops and times, per group and in total, on the options' device") {
    const FusionGraph g = graph_from(kMatmul);
    FusionPlan plan = hand_plan(g, preset("seed"), Hand{{{"x"}, {"w"}, {"m"}}});
    SUBCASE("within a relative 1e-9") {
      plan.groups[2].time_us *= 1 + 1e-12;
      CHECK(codes(g, preset("seed"), plan) == Codes{});
    }
    SUBCASE("beyond it") {
      plan.groups[2].time_us *= 1 + 1e-6;
      CHECK(codes(g, preset("seed"), plan) == Codes{"time"});
    }
    SUBCASE("group flops") {
      plan.groups[2].flops += 1;
      CHECK(codes(g, preset("seed"), plan) == Codes{"time"});
    }
    SUBCASE("totals") {
      plan.time_speedup = 2.0;
      CHECK(codes(g, preset("seed"), plan) == Codes{"time"});
    }
    SUBCASE("another device") {
      PlannerOptions h100 = preset("seed");
      h100.hardware = "h100";
      CHECK(codes(g, h100, plan) == Codes{"time"});
      h100.hardware = "abacus";
      CHECK(codes(g, h100, plan) == Codes{"time"});
    }
  }
}

TEST_SUITE("verifier: the planner under every preset") {
  TEST_CASE("every preset's plans of the graphs above pass the verifier, and so do the old tables'") {
    const std::vector<std::string> graphs = {kShared,   kEpilogue, kPrologue, kReshape,
                                             kSiblings, kDiamond,  kMatmul};
    for (const std::string& text : graphs) {
      const FusionGraph g = graph_from(text);
      for (std::string_view name : strategy_names()) {
        CAPTURE(name);
        plan_checked(g, FusionPlanner().with_strategy(std::string(name)));
      }
      for (const char* table : {"tvm", "inductor"}) {
        CAPTURE(table);
        plan_checked(g, engine(table));
      }
    }
  }
}

TEST_SUITE("verifier: the tvm procedure (FuseOps)") {
  TEST_CASE("a group ends in one root; a reduction takes no consumers; no copies") {
    const FusionGraph diamond = graph_from(kDiamond);
    CHECK(codes(diamond, strategy("tvm"), Hand{{{"x"}, {"a", "b", "c"}}}) == Codes{});
    const FusionGraph siblings = graph_from(kSiblings);  // a and b both written: two roots
    CHECK(codes(siblings, strategy("tvm"), Hand{{{"x"}, {"y"}, {"a", "b"}, {"c"}}}) == Codes{"disconnected"});
    const FusionGraph epilogue = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",      "shape": [8, 16], "dtype": "f32"},
      {"name": "r", "kind": "reduce_sum", "inputs": ["x"], "shape": [8], "dtype": "f32"},
      {"name": "e", "kind": "neg",        "inputs": ["r"], "shape": [8], "dtype": "f32"}]})");
    const Hand fused{{{"x"}, {"r", "e"}}};
    CHECK(codes(epilogue, strategy("tvm"), fused) == Codes{"multi_pass"});
    CHECK(codes(epilogue, preset("tvm"), fused) == Codes{});  // the old table's reduction_epilogue allowed it
    CHECK(codes(epilogue, strategy("tvm"), Hand{{{"x"}, {"r"}, {"e"}}, {{{"r", "e"}, EdgeReason::barrier_producer}}}) ==
          Codes{});
  }

  TEST_CASE("a copy is refused under tvm and allowed under xla and inductor") {
    const FusionGraph g = graph_from(kShared);
    CHECK(codes(g, strategy("tvm"), kCopiesOnly).count("recompute") == 1);
    CHECK(codes(g, strategy("xla"), kCopiesOnly) == Codes{});
    CHECK(codes(g, strategy("inductor"), kCopiesOnly) == Codes{});
  }

  TEST_CASE("kOutEWiseFusable: reads from memory, takes elementwise and broadcast epilogues only") {
    const FusionGraph g = graph_from(kEpilogue);
    CHECK(codes(g, strategy("tvm"), Hand{{{"x"}, {"w"}, {"b"}, {"m", "y", "z"}}}) == Codes{});
    const FusionGraph prologue = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",  "shape": [8, 8], "dtype": "f32"},
      {"name": "w", "kind": "input",  "shape": [8, 8], "dtype": "f32"},
      {"name": "p", "kind": "relu",   "inputs": ["x"], "shape": [8, 8], "dtype": "f32"},
      {"name": "m", "kind": "matmul", "inputs": ["p", "w"], "shape": [8, 8], "dtype": "f32"}]})");
    CHECK(codes(prologue, strategy("tvm"), Hand{{{"x"}, {"w"}, {"p", "m"}}}) == Codes{"anchor"});
    const FusionGraph transpose = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",     "shape": [8, 8], "dtype": "f32"},
      {"name": "w", "kind": "input",     "shape": [8, 8], "dtype": "f32"},
      {"name": "m", "kind": "matmul",    "inputs": ["x", "w"], "shape": [8, 8], "dtype": "f32"},
      {"name": "t", "kind": "transpose", "inputs": ["m"], "shape": [8, 8], "dtype": "f32"}]})");
    CHECK(codes(transpose, strategy("tvm"), Hand{{{"x"}, {"w"}, {"m", "t"}}}) == Codes{"anchor"});
  }

  TEST_CASE("kOpaque ops stay alone, and max_depth bounds a group") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [8], "dtype": "f32"},
      {"name": "a", "kind": "relu",  "inputs": ["x"], "shape": [8], "dtype": "f32"},
      {"name": "s", "kind": "sort",  "inputs": ["a"], "shape": [8], "dtype": "f32"}]})");
    CHECK(codes(g, strategy("tvm"), Hand{{{"x"}, {"a", "s"}}}) == Codes{"not_fusible"});
    const FusionGraph diamond = graph_from(kDiamond);
    PlannerOptions depth = strategy("tvm");
    depth.rules.max_depth = 3;
    CHECK(codes(diamond, depth, Hand{{{"x"}, {"a", "b", "c"}}}) == Codes{});
    depth.rules.max_depth = 2;
    CHECK(codes(diamond, depth, Hand{{{"x"}, {"a", "b", "c"}}}) == Codes{"limit"});
  }

  TEST_CASE("edge reasons: post_dominator and limit fit tvm, the other procedures' reasons do not") {
    const FusionGraph g = graph_from(kDiamond);
    const auto split = [](EdgeReason reason) {
      return Hand{{{"x"}, {"a"}, {"b"}, {"c"}},
                  {{{"a", "b"}, reason}, {{"a", "c"}, EdgeReason::post_dominator}, {{"b", "c"}, EdgeReason::post_dominator}}};
    };
    CHECK(codes(g, strategy("tvm"), split(EdgeReason::post_dominator)) == Codes{});
    CHECK(codes(g, strategy("tvm"), split(EdgeReason::limit)) == Codes{});  // max_depth is set
    CHECK(codes(g, strategy("tvm"), split(EdgeReason::consumers)) == Codes{"edges"});
    CHECK(codes(g, strategy("tvm"), split(EdgeReason::range)) == Codes{"edges"});
    CHECK(codes(g, strategy("tvm"), split(EdgeReason::output)) == Codes{"edges"});  // a is no graph output
    CHECK(codes(g, strategy("tvm"), split(EdgeReason::multi_pass)) == Codes{"edges"});
    CHECK(codes(g, preset("tvm"), split(EdgeReason::post_dominator)) == Codes{"edges"});  // not an engine reason
  }
}

TEST_SUITE("verifier: the xla procedure (priority, multi-output, horizontal fusion)") {
  TEST_CASE("no reduce into reduce; a reduction's epilogue is elementwise of its output size") {
    const FusionGraph two = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",      "shape": [8, 16], "dtype": "f32"},
      {"name": "a", "kind": "reduce_sum", "inputs": ["x"], "shape": [8], "dtype": "f32"},
      {"name": "b", "kind": "reduce_max", "inputs": ["a"], "shape": [1], "dtype": "f32"}]})");
    CHECK(codes(two, strategy("xla"), Hand{{{"x"}, {"a", "b"}}}) == Codes{"anchor"});
    const FusionGraph epilogue = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",      "shape": [8, 16], "dtype": "f32"},
      {"name": "r", "kind": "reduce_sum", "inputs": ["x"], "shape": [8], "dtype": "f32"},
      {"name": "e", "kind": "neg",        "inputs": ["r"], "shape": [8], "dtype": "f32"}]})");
    CHECK(codes(epilogue, strategy("xla"), Hand{{{"x"}, {"r", "e"}}}) == Codes{});
    const FusionGraph larger = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",      "shape": [8, 16], "dtype": "f32"},
      {"name": "r", "kind": "reduce_sum", "inputs": ["x"], "shape": [8], "dtype": "f32"},
      {"name": "e", "kind": "exp",        "inputs": ["r"], "shape": [2, 8], "dtype": "f32"}]})");
    CHECK(codes(larger, strategy("xla"), Hand{{{"x"}, {"r", "e"}}}) == Codes{"multi_pass"});
  }

  TEST_CASE("library calls are kernels of their own, and only loop ops are duplicated") {
    const FusionGraph g = graph_from(kEpilogue);
    CHECK(codes(g, strategy("xla"), Hand{{{"x"}, {"w"}, {"b"}, {"m", "y", "z"}}}) == Codes{"not_fusible"});
    const FusionGraph heavy = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",      "shape": [8, 2], "dtype": "f32"},
      {"name": "r", "kind": "reduce_sum", "inputs": ["x"], "shape": [8], "dtype": "f32"},
      {"name": "e", "kind": "neg",        "inputs": ["r"], "shape": [8], "dtype": "f32"},
      {"name": "f", "kind": "relu",       "inputs": ["r"], "shape": [8], "dtype": "f32"}]})");
    CHECK(codes(heavy, strategy("xla"), Hand{{{"x"}, {"r", "e"}, {"r*", "f"}}}) == Codes{"recompute"});
  }

  TEST_CASE("duplication may move more bytes than unfused under xla and inductor, never under the engine") {
    // p = where(x1, x2, x3) read by three consumers: each copy reads the three inputs again.
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x1", "kind": "input", "shape": [1024], "dtype": "f32"},
      {"name": "x2", "kind": "input", "shape": [1024], "dtype": "f32"},
      {"name": "x3", "kind": "input", "shape": [1024], "dtype": "f32"},
      {"name": "p",  "kind": "where", "inputs": ["x1", "x2", "x3"], "shape": [1024], "dtype": "f32"},
      {"name": "c1", "kind": "relu",  "inputs": ["p"], "shape": [1024], "dtype": "f32"},
      {"name": "c2", "kind": "neg",   "inputs": ["p"], "shape": [1024], "dtype": "f32"},
      {"name": "c3", "kind": "abs",   "inputs": ["p"], "shape": [1024], "dtype": "f32"}]})");
    const Hand copies{{{"x1"}, {"x2"}, {"x3"}, {"p*", "c1"}, {"p*", "c2"}, {"p*", "c3"}}};
    const FusionPlan plan = hand_plan(g, strategy("xla"), copies);
    CHECK(plan.bytes_fused > plan.bytes_unfused);  // 61,440 against 53,248
    CHECK(codes(g, strategy("xla"), copies) == Codes{});
    CHECK(codes(g, strategy("inductor"), copies) == Codes{});
    CHECK(codes(g, preset("xla"), copies) == Codes{"totals"});
  }

  TEST_CASE("edge reasons: consumers fits xla, post_dominator and range do not") {
    const FusionGraph g = graph_from(kDiamond);
    const auto split = [](EdgeReason reason) {
      return Hand{{{"x"}, {"a"}, {"b", "c"}}, {{{"a", "b"}, reason}, {{"a", "c"}, reason}}};
    };
    CHECK(codes(g, strategy("xla"), split(EdgeReason::consumers)) == Codes{});
    CHECK(codes(g, strategy("xla"), split(EdgeReason::post_dominator)) == Codes{"edges"});
    CHECK(codes(g, strategy("xla"), split(EdgeReason::range)) == Codes{"edges"});
    CHECK(codes(g, strategy("xla"), split(EdgeReason::output)) == Codes{"edges"});
  }
}

TEST_SUITE("verifier: the inductor procedure (scheduler)") {
  TEST_CASE("reductions in one kernel share one iteration range") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x",  "kind": "input",      "shape": [8, 16], "dtype": "f32"},
      {"name": "r1", "kind": "reduce_sum", "inputs": ["x"], "shape": [8], "dtype": "f32"},
      {"name": "r2", "kind": "reduce_max", "inputs": ["x"], "shape": [8], "dtype": "f32"},
      {"name": "r3", "kind": "reduce_sum", "inputs": ["x"], "shape": [1], "dtype": "f32"}]})");
    CHECK(codes(g, strategy("inductor"), Hand{{{"x"}, {"r1", "r2"}, {"r3"}}}) == Codes{});
    CHECK(codes(g, strategy("inductor"), Hand{{{"x"}, {"r1", "r3"}, {"r2"}}}) == Codes{"range"});
  }

  TEST_CASE("an extern matmul is a kernel of its own unless the epilogue rule makes it a template") {
    const FusionGraph g = graph_from(kEpilogue);
    const Hand fused{{{"x"}, {"w"}, {"b"}, {"m", "y", "z"}}};
    CHECK(codes(g, strategy("inductor"), fused) == Codes{"not_fusible"});
    PlannerOptions templates = strategy("inductor");
    templates.rules.epilogue = true;
    CHECK(codes(g, templates, fused) == Codes{});
    const FusionGraph two = graph_from(R"({"ops": [
      {"name": "x",  "kind": "input",  "shape": [8, 8], "dtype": "f32"},
      {"name": "w",  "kind": "input",  "shape": [8, 8], "dtype": "f32"},
      {"name": "m1", "kind": "matmul", "inputs": ["x", "w"], "shape": [8, 8], "dtype": "f32"},
      {"name": "m2", "kind": "matmul", "inputs": ["w", "x"], "shape": [8, 8], "dtype": "f32"},
      {"name": "a",  "kind": "add",    "inputs": ["m1", "m2"], "shape": [8, 8], "dtype": "f32"}]})");
    CHECK(codes(two, templates, Hand{{{"x"}, {"w"}, {"m1", "m2", "a"}}}).count("anchor") == 1);
  }

  TEST_CASE("only pointwise ops are inlined (copied), and max_group_ops counts nodes, not inlined ops") {
    const FusionGraph heavy = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",      "shape": [8, 16], "dtype": "f32"},
      {"name": "r", "kind": "reduce_sum", "inputs": ["x"], "shape": [8], "dtype": "f32"},
      {"name": "e", "kind": "neg",        "inputs": ["r"], "shape": [8], "dtype": "f32"},
      {"name": "f", "kind": "relu",       "inputs": ["r"], "shape": [8], "dtype": "f32"}]})");
    CHECK(codes(heavy, strategy("inductor"), Hand{{{"x"}, {"r", "e"}, {"r*", "f"}}}) == Codes{"recompute"});
    const FusionGraph diamond = graph_from(kDiamond);
    PlannerOptions small = strategy("inductor");
    small.rules.max_group_ops = 2;
    CHECK(codes(diamond, small, Hand{{{"x"}, {"a", "b", "c"}}}) == Codes{});  // one node, a and b inlined
  }

  TEST_CASE("edge reasons: range fits inductor, post_dominator and consumers do not") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input",      "shape": [64, 128], "dtype": "f32"},
      {"name": "r", "kind": "reduce_sum", "inputs": ["x"], "shape": [64], "dtype": "f32"},
      {"name": "b", "kind": "broadcast",  "inputs": ["r"], "shape": [32, 64], "dtype": "f32"}]})");
    const auto split = [](EdgeReason reason) { return Hand{{{"x"}, {"r"}, {"b"}}, {{{"r", "b"}, reason}}}; };
    CHECK(codes(g, strategy("inductor"), split(EdgeReason::range)) == Codes{});
    CHECK(codes(g, strategy("inductor"), split(EdgeReason::post_dominator)) == Codes{"edges"});
    CHECK(codes(g, strategy("inductor"), split(EdgeReason::consumers)) == Codes{"edges"});
  }
}
