// search_presets.test.cpp — plan search under `tvm` and `inductor` (docs/design.md §17, fusion/search.h). `tvm`:
// the fastest partition FuseOps' invariants allow, checked against a brute-force enumerator on thousands of random
// graphs; never slower than FuseOps' greedy plan; max_depth; differences explained in FuseOps' terms; the
// verifier on a time certificate. `inductor`: the fastest partition of the scheduler nodes (lowering fixed as the
// greedy plan has it), checked against its own brute-force enumerator (inductor_partition_enumerator.h, whose
// lowering must first agree with the greedy plan's and which must find greedy's grouping legal and price it as
// the planner does) on random graphs with max_group_ops and template epilogues; never slower than the greedy
// scheduler; larger graphs verify. The gallery is solved under both.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <tuple>

#include "fusion/json_io.h"
#include "inductor_partition_enumerator.h"
#include "random_graphs.h"
#include "test_graphs.h"
#include "test_scale.h"
#include "timed_search_helpers.h"
#include "tvm_partition_enumerator.h"

using namespace fusion;
using namespace fusion::testing;

namespace {

PlannerOptions tvm_search(std::int64_t budget = kDefaultSearchNodes) { return search_options("tvm", budget); }

// A graph as graph JSON (ops named o0, o1, ...), to show a failing case so it can be replayed.
std::string graph_json(const FusionGraph& g) {
  std::ostringstream out;
  out << "{\"ops\": [";
  for (std::size_t x = 0; x < g.size(); ++x) {
    const FusionOp& op = g.op(static_cast<OpId>(x));
    out << (x ? ", " : "") << "{\"name\": \"o" << x << "\", \"kind\": \"" << to_string(op.kind)
        << "\", \"inputs\": [";
    for (std::size_t k = 0; k < op.inputs.size(); ++k) out << (k ? ", " : "") << "\"o" << op.inputs[k] << "\"";
    out << "], \"shape\": [";
    for (std::size_t k = 0; k < op.shape.size(); ++k) out << (k ? ", " : "") << op.shape[k];
    out << "], \"dtype_bytes\": " << op.dtype_bytes;
    if (op.output) out << ", \"output\": true";
    if (!op.region.empty()) out << ", \"region\": \"" << op.region << "\"";
    out << "}";
  }
  out << "]}";
  return out.str();
}

// Inductor options for a random case: a100 or h100, sometimes max_group_ops 2-3, sometimes template epilogues.
PlannerOptions inductor_options(std::mt19937_64& rng, SearchMode mode) {
  PlannerOptions options = *read_options_json(R"({"strategy": "inductor"})");
  options.search = {mode, kDefaultSearchNodes, false};
  if (rng() % 4 == 0) options.rules.max_group_ops = 2 + static_cast<std::int64_t>(rng() % 2);
  if (rng() % 3 == 0) options.rules.epilogue = true;
  options.hardware = rng() % 2 ? "a100" : "h100";
  return options;
}

// One random inductor case: the graph, its options, the greedy plan and the lowering it shows.
struct InductorCase {
  FusionGraph graph;
  PlannerOptions options;
  FusionPlan greedy;
  InductorLowering lowering;
};

// Some concats of g widened to 9 or 10 inputs (earlier ops), so they lower to ConcatKernels.
FusionGraph widen_concats(std::mt19937_64& rng, const FusionGraph& g) {
  FusionGraph out;
  for (std::size_t x = 0; x < g.size(); ++x) {
    FusionOp op = g.op(static_cast<OpId>(x));
    if (op.kind == OpKind::concat && rng() % 2) {
      const std::size_t inputs = 9 + rng() % 2;
      while (op.inputs.size() < inputs) op.inputs.push_back(static_cast<OpId>(rng() % x));
    }
    out.add_op(std::move(op));
  }
  return out;
}

InductorCase inductor_case(std::mt19937_64& rng, SearchMode mode, bool wide_concats = false) {
  InductorCase c;
  c.graph = random_strategy_graph(rng, 3 + static_cast<int>(rng() % 12));
  if (wide_concats) c.graph = widen_concats(rng, c.graph);
  c.options = inductor_options(rng, mode);
  PlannerOptions greedy = c.options;
  greedy.search = {};
  c.greedy = plan_checked(c.graph, FusionPlanner(greedy));
  const std::optional<InductorLowering> lowering = inductor_lowering(c.graph, c.options.rules);
  REQUIRE(lowering);
  c.lowering = *lowering;
  return c;
}

}  // namespace

TEST_CASE("tvm: 3,000 random graphs: optimal plans equal the brute-force fastest; never slower than FuseOps") {
  std::mt19937_64 rng(20261202);
  int compared = 0, greedy_missed = 0;
  double worst = 1.0;
  for (int i = 0; compared < scaled(3'000); ++i) {
    const FusionGraph g = random_strategy_graph(rng, 3 + static_cast<int>(rng() % 12));
    PlannerOptions options = tvm_search();
    if (rng() % 4 == 0) options.rules.max_depth = 2 + static_cast<std::int64_t>(rng() % 3);
    options.hardware = rng() % 2 ? "a100" : "h100";
    const std::optional<double> best = brute_force_min_tvm_time(g, options, 12);
    if (!best) continue;
    CAPTURE(i);
    ++compared;
    const FusionPlan plan = plan_checked(g, FusionPlanner(options));
    const double greedy = greedy_time(g, options);
    REQUIRE(plan.search.present);
    CHECK(plan.search.objective == "time");
    CHECK(plan.search.status == "optimal");
    CHECK(plan.time_fused_us <= *best + rounding_us(g));
    CHECK(plan.time_fused_us >= *best - 1e-9 * *best);  // nothing beats the brute-force optimum
    CHECK(plan.search.lower_bound_us <= *best + 1e-9 * *best);
    CHECK(plan.search.greedy_time_fused_us == greedy);
    CHECK(plan.time_fused_us <= greedy + 1e-9 * greedy);
    if (greedy > *best + rounding_us(g)) {
      ++greedy_missed;
      worst = std::max(worst, greedy / *best);
    }
  }
  MESSAGE("compared " << compared << " graphs; FuseOps missed the fastest plan on " << greedy_missed << ", by up to "
                      << worst << "x its time");
  CHECK(greedy_missed > 0);
}

TEST_CASE("tvm: larger random graphs verify, never lose to FuseOps, and explain every difference") {
  const int improved = check_larger_random_graphs(7, scaled(40), tvm_search(20'000), "FuseOps");
  MESSAGE(improved << " of " << scaled(40) << " graphs improved on FuseOps");
  CHECK(improved > 0);
}

TEST_CASE("tvm: max_depth bounds every searched group") {
  std::mt19937_64 rng(3);
  for (int i = 0; i < scaled(200); ++i) {
    const FusionGraph g = random_strategy_graph(rng, 10 + static_cast<int>(rng() % 30));
    PlannerOptions options = tvm_search();
    options.rules.max_depth = 2;
    const FusionPlan plan = plan_checked(g, FusionPlanner(options));
    for (const FusionGroup& group : plan.groups) CHECK(group.ops.size() <= 2);
  }
}

TEST_CASE("tvm: every gallery model is solved to proven optimal") {
  for (const char* name : {"resnet18", "mobilenet-v2", "bert-layer", "mlp-gelu"}) {
    CAPTURE(name);
    const FusionGraph g = gallery(name);
    const FusionPlan plan = plan_checked(g, FusionPlanner(tvm_search()));
    CHECK(plan.search.status == "optimal");
    CHECK(plan.search.gap == 0.0);
    CHECK(plan.time_fused_us <= plan.search.greedy_time_fused_us);
  }
}

TEST_CASE("inductor: every gallery model is solved to proven optimal, over the scheduler's own lowering") {
  PlannerOptions options = *read_options_json(R"({"strategy": "inductor"})");
  options.search = {SearchMode::optimal, kDefaultSearchNodes, false};
  for (const char* name : {"resnet18", "mobilenet-v2", "bert-layer", "mlp-gelu"}) {
    CAPTURE(name);
    const FusionGraph g = gallery(name);
    const FusionPlan plan = plan_checked(g, FusionPlanner(options));
    CHECK(plan.search.objective == "time");
    CHECK(plan.search.status == "optimal");
    CHECK(plan.time_fused_us <= plan.search.greedy_time_fused_us);
  }
}

TEST_CASE("inductor: searched plans of larger random graphs verify and never lose to the scheduler") {
  std::mt19937_64 rng(5);
  int improved = 0;
  for (int i = 0; i < scaled(40); ++i) {
    CAPTURE(i);
    const FusionGraph g = random_strategy_graph(rng, 40 + static_cast<int>(rng() % 100));
    PlannerOptions options = *read_options_json(R"({"strategy": "inductor"})");
    if (i % 3 == 0) options.rules.max_group_ops = 3;
    options.search = {SearchMode::optimal, 20'000, false};
    const FusionPlan plan = plan_checked(g, FusionPlanner(options));
    options.search = {};
    const FusionPlan greedy = plan_checked(g, FusionPlanner(options));
    CHECK(plan.time_fused_us <= greedy.time_fused_us * (1 + 1e-12));
    CHECK(plan.search.lower_bound_us <= plan.time_fused_us * (1 + 1e-12));
    if (plan.search.differences_total == 0) continue;
    ++improved;
    for (const SearchDifference& d : plan.search.differences) CHECK(d.why.find("Inductor's scheduler ") == 0);
  }
  MESSAGE(improved << " of " << scaled(40) << " graphs improved on the scheduler");
}

TEST_CASE("tvm: the verifier checks a time certificate") {
  std::mt19937_64 rng(11);
  FusionGraph g;
  FusionPlan plan;
  const PlannerOptions options = tvm_search();
  for (int i = 0; plan.search.differences_total == 0; ++i) {  // a graph where the search beats FuseOps
    REQUIRE(i < 2000);
    g = random_strategy_graph(rng, 40);
    plan = plan_checked(g, FusionPlanner(options));
  }
  auto codes = [&](const FusionPlan& p) {
    std::vector<std::string> out;
    for (const Violation& v : verify_plan(g, options, p)) out.push_back(v.code);
    return out;
  };
  FusionPlan above = plan;
  above.search.lower_bound_us = plan.time_fused_us * 1.01;
  CHECK(!codes(above).empty());
  FusionPlan slower = plan;
  slower.search.greedy_time_fused_us = plan.time_fused_us * 0.99;
  CHECK(codes(slower) == std::vector<std::string>{"search", "search"});  // slower than greedy; not greedy's time
  FusionPlan claimed = plan;
  claimed.search.status = "optimal";
  claimed.search.gap = 0.0;
  claimed.search.lower_bound_us = plan.time_fused_us * 0.5;
  CHECK(codes(claimed) == std::vector<std::string>{"search"});
  const std::string text = write_plan_json(plan);
  CHECK(text.find("\"objective\":\"time\"") != std::string::npos);
  CHECK(text.find("\"lower_bound_us\":") != std::string::npos);
  CHECK(text.find("\"lower_bound\":") == std::string::npos);
}

TEST_CASE("inductor: the enumerator's lowering realizes at the read and op-count thresholds as greedy does") {
  // Inputs i0..i(k-1) summed by a chain of adds (the last reads all k buffers through the inlined ones), read by
  // `readers` relus marked output. Realized: the chain's end when it has two readers and reads more than 4
  // buffers, or reads more than 8 whatever its readers; every other add is inlined.
  auto chain = [](int k, int readers) {
    FusionGraph g;
    for (int i = 0; i < k; ++i) g.add_op(OpKind::input, {}, Shape{16});
    OpId last = 0;
    for (OpId i = 1; i < k; ++i) last = g.add_op(OpKind::add, {i == 1 ? OpId{0} : last, i}, Shape{16});
    for (int r = 0; r < readers; ++r) {
      FusionOp relu;
      relu.kind = OpKind::relu;
      relu.inputs = {last};
      relu.shape = Shape{16};
      relu.output = true;
      g.add_op(std::move(relu));
    }
    return g;
  };
  const PlannerOptions options = *read_options_json(R"({"strategy": "inductor"})");
  for (const auto& [k, readers, realized] : std::vector<std::tuple<int, int, bool>>{
           {4, 2, false}, {5, 2, true}, {5, 1, false}, {8, 1, false}, {9, 1, true}}) {
    CAPTURE(k);
    CAPTURE(readers);
    const FusionGraph g = chain(k, readers);
    const InductorLowering l = *inductor_lowering(g, options.rules);
    const auto end = static_cast<std::size_t>(2 * k - 2);
    CHECK(!l.inlined[end] == realized);
    for (std::size_t x = static_cast<std::size_t>(k); x < end; ++x) CHECK(l.inlined[x]);
    const GreedyGrouping grouping = greedy_grouping(g, l, plan_checked(g, FusionPlanner(options)));
    CHECK_MESSAGE(grouping.disagreement.empty(), grouping.disagreement);
  }
  // Op counts are a tree's: a(k+1) = a(k) + relu(a(k)) holds 46 ops by a5 (9 distinct), over the 30 threshold.
  FusionGraph g;
  OpId a = g.add_op(OpKind::exp, {g.add_op(OpKind::input, {}, Shape{16})}, Shape{16});
  for (int k = 1; k < 5; ++k) a = g.add_op(OpKind::add, {a, g.add_op(OpKind::relu, {a}, Shape{16})}, Shape{16});
  FusionOp out;
  out.kind = OpKind::relu;
  out.inputs = {a};
  out.shape = Shape{16};
  out.output = true;
  g.add_op(std::move(out));
  const InductorLowering l = *inductor_lowering(g, options.rules);
  CHECK(!l.inlined[static_cast<std::size_t>(a)]);
  for (OpId x = 1; x < a; ++x) CHECK(l.inlined[static_cast<std::size_t>(x)]);
  const GreedyGrouping grouping = greedy_grouping(g, l, plan_checked(g, FusionPlanner(options)));
  CHECK_MESSAGE(grouping.disagreement.empty(), grouping.disagreement);
}

TEST_CASE("inductor: the brute-force enumerator finds greedy's grouping legal and prices it as the planner does") {
  // Half the graphs have concats of 9-10 inputs (ConcatKernels); the scheduler fuses a ConcatKernel as a pointwise
  // node, also into a template's epilogue, and the enumerator must allow what greedy forms.
  std::mt19937_64 rng(20261204);
  int compared = 0, faster = 0, concat_kernels = 0;
  for (int i = 0; i < scaled(1'500); ++i) {
    CAPTURE(i);
    const InductorCase c = inductor_case(rng, SearchMode::greedy, i % 2 == 1);  // half with ConcatKernels
    concat_kernels += std::count(c.lowering.kind.begin(), c.lowering.kind.end(),
                                 presets::InductorNode::concat_kernel) > 0;
    const std::string json = graph_json(c.graph);
    CAPTURE(json);
    const GreedyGrouping grouping = greedy_grouping(c.graph, c.lowering, c.greedy);
    CHECK_MESSAGE(grouping.disagreement.empty(), grouping.disagreement);  // the plan shows the same lowering
    const std::vector<int>& greedy = grouping.group;
    const double greedy_time = c.greedy.time_fused_us;
    CHECK(inductor_partition_legal(c.graph, c.lowering, greedy, c.options.rules.max_group_ops));
    const HardwareProfile hw = *hardware_profile(c.options.hardware);
    const double priced = inductor_partition_time_us(c.graph, c.lowering, greedy, hw);
    CHECK(std::abs(priced - greedy_time) <= 1e-9 * greedy_time);
    const std::optional<InductorOptimum> best = brute_force_min_inductor_time(c.graph, c.lowering, c.options, 12);
    if (!best) continue;
    ++compared;
    CHECK(best->legal >= 1);
    CHECK(best->time_us <= greedy_time * (1 + 1e-9));  // greedy's grouping is one of the partitions
    faster += best->time_us < greedy_time - rounding_us(c.graph) ? 1 : 0;
  }
  MESSAGE("enumerated " << compared << " graphs; a partition faster than greedy's on " << faster << "; "
                         << concat_kernels << " graphs with ConcatKernels");
  CHECK(compared > scaled(1'500) / 2);
  CHECK(concat_kernels > 0);
}

TEST_CASE("inductor: 2,000 random graphs: optimal plans equal the brute-force fastest; never slower than greedy") {
  std::mt19937_64 rng(20261205);
  int compared = 0, greedy_missed = 0;
  double worst = 1.0;
  for (int i = 0; compared < scaled(2'000); ++i) {
    const InductorCase c = inductor_case(rng, SearchMode::optimal, i % 2 == 0);
    const std::optional<InductorOptimum> best = brute_force_min_inductor_time(c.graph, c.lowering, c.options, 12);
    if (!best) continue;
    ++compared;
    const std::string json = graph_json(c.graph);
    CAPTURE(i);
    CAPTURE(json);
    CAPTURE(c.options.rules.max_group_ops);
    CAPTURE(c.options.rules.epilogue);
    const FusionPlan plan = plan_checked(c.graph, FusionPlanner(c.options));
    const double greedy = c.greedy.time_fused_us;
    REQUIRE(plan.search.present);
    CHECK(plan.search.objective == "time");
    CHECK(plan.search.status == "optimal");
    CHECK(plan.time_fused_us <= best->time_us + rounding_us(c.graph));
    CHECK(plan.time_fused_us >= best->time_us - 1e-9 * best->time_us);  // nothing beats the brute-force optimum
    CHECK(plan.search.lower_bound_us <= best->time_us + 1e-9 * best->time_us);
    CHECK(plan.search.greedy_time_fused_us == greedy);
    CHECK(plan.time_fused_us <= greedy + 1e-9 * greedy);
    if (greedy > best->time_us + rounding_us(c.graph)) {
      ++greedy_missed;
      worst = std::max(worst, greedy / best->time_us);
    }
  }
  MESSAGE("compared " << compared << " graphs; greedy inductor missed the fastest plan on " << greedy_missed
                      << ", by up to " << worst << "x its time");
  CHECK(greedy_missed > 0);
}
