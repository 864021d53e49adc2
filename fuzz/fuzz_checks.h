// fuzz_checks.h — what the fuzz targets assert, shared with the regression test that replays every
// saved input (tests/core/fuzz_regressions.test.cpp), so a crasher stays a test after it is fixed.
//
// check_json_input: text -> read -> (validate) -> plan under several options (plan search among them) -> verify.
// Errors must be well-formed values; every plan must pass the verifier, cost no more than unfused, and serialize
// to JSON that reads back. check_builder_input: bytes -> ops through the C++ builder -> the same, plus the
// groups must equal those of the naive reference planner for graphs small enough to run it.
// A failed check calls fuzz_fail (abort with a message), which libFuzzer reports as a crash.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "fusion/api.h"
#include "fusion/json_io.h"
#include "fusion/planner.h"
#include "fusion/strategy.h"
#include "fusion/verify.h"
#include "reference_planner.h"

namespace fusion::fuzz {

[[noreturn]] inline void fuzz_fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz check failed: %s: %s\n", what, detail.c_str());
  std::abort();
}

inline void check_errors(const std::vector<Error>& errors) {
  if (errors.empty()) fuzz_fail("errors", "an error result with no errors");
  for (const Error& e : errors)
    if (e.message.empty()) fuzz_fail("errors", std::string("empty message for code ") + to_string(e.code));
}

// One plan: verified, never costlier in bytes (except under xla and inductor, which recompute producers in
// several kernels as those compilers do), nor in time under xla or when the rules refuse unprofitable merges,
// deterministic, read back unchanged, and (seed only) grouped as the naive reference planner groups.
inline void check_plan(const FusionGraph& graph, const PlannerOptions& options, bool compare_reference) {
  const std::string tag = options.strategy + ": ";
  const Expected<FusionPlan> plan = FusionPlanner(options).plan(graph);
  if (!plan) return check_errors(plan.errors());
  const std::vector<Violation> violations = verify_plan(graph, options, *plan);
  if (!violations.empty()) fuzz_fail("verifier", tag + violations.front().code + ": " + violations.front().message);
  const Procedure procedure = procedure_of(options.strategy);
  const bool duplicates = procedure == Procedure::xla || procedure == Procedure::inductor;
  if (!duplicates && plan->bytes_fused > plan->bytes_unfused) fuzz_fail("cost", tag + "fused bytes above unfused");
  const bool saves_time = procedure == Procedure::xla || options.rules.refuse_unprofitable;
  if (saves_time && plan->time_fused_us > plan->time_unfused_us * (1 + 1e-12))
    fuzz_fail("time", tag + "fused time above unfused");
  const std::string text = write_plan_json(*plan);
  if (text != write_plan_json(*FusionPlanner(options).plan(graph))) fuzz_fail("determinism", tag);
  const Expected<FusionPlan> back = read_plan_json(text);
  if (!back || write_plan_json(*back) != text) fuzz_fail("round trip", tag + "the written plan does not read back");
  if (!compare_reference || graph.size() > 200) return;
  const testing::Reference ref = testing::reference_plan(graph, options.broadcast);
  for (std::size_t x = 0; x < graph.size(); ++x)
    for (std::size_t y = x + 1; y < graph.size(); ++y)
      if ((plan->op_group[x] == plan->op_group[y]) != (ref.group[x] == ref.group[y]))
        fuzz_fail("reference", "ops " + std::to_string(x) + " and " + std::to_string(y) + " grouped differently");
}

// Plan search under tvm, inductor or xla (objective time, docs/design.md §17) with a small node budget: everything check_plan asks
// (the verifier checks the time certificate), a bound no higher than the plan's time, and never slower than greedy.
inline void check_timed_search(const FusionGraph& graph, const char* strategy) {
  PlannerOptions options = FusionPlanner().with_strategy(strategy).options();
  options.search.mode = SearchMode::optimal;
  options.search.budget_nodes = 2000;
  check_plan(graph, options, /*compare_reference=*/false);
  const Expected<FusionPlan> plan = FusionPlanner(options).plan(graph);
  if (!plan) return;
  const SearchCertificate& c = plan->search;
  const double slack = 1e-9 * std::max(1.0, plan->time_fused_us);
  if (!c.present || c.objective != "time") fuzz_fail("search", "a timed search without its time certificate");
  if (c.lower_bound_us > plan->time_fused_us + slack) fuzz_fail("search", "lower_bound_us above the plan's time");
  if (plan->time_fused_us > c.greedy_time_fused_us + slack) fuzz_fail("search", "a timed search is slower than greedy");
}

// Plan search (docs/design.md §17) with a small node budget: everything check_plan asks (the verifier checks the
// listed differences against the greedy plan), plus a certificate whose bound holds (lower_bound <= bytes_fused,
// equal when proven optimal), bytes never above greedy's, differences exactly when the bytes differ, and a time
// budget that plans exactly as its node count.
inline void check_search(const FusionGraph& graph) {
  PlannerOptions options;
  options.search.mode = SearchMode::optimal;
  options.search.budget_nodes = 2000;
  check_plan(graph, options, /*compare_reference=*/false);
  PlannerOptions by_ms = options;
  by_ms.search.budget_ms = 1;
  by_ms.search.budget_nodes = nodes_for_ms(1);
  check_plan(graph, by_ms, /*compare_reference=*/false);
  const Expected<FusionPlan> plan = FusionPlanner(options).plan(graph);
  if (!plan) return;
  const SearchCertificate& c = plan->search;
  if (!c.present) fuzz_fail("search", "a searched plan without its certificate");
  if (c.lower_bound > plan->bytes_fused) fuzz_fail("search", "lower_bound above the plan's bytes");
  if (c.status == "optimal" && c.lower_bound != plan->bytes_fused) fuzz_fail("search", "optimal with a gap");
  if (plan->bytes_fused > c.greedy_bytes_fused) fuzz_fail("search", "the searched plan is worse than greedy");
  if ((plan->bytes_fused < c.greedy_bytes_fused) != (c.differences_total > 0))
    fuzz_fail("search", "differences listed for a plan no cheaper than greedy, or none for a cheaper one");
  check_timed_search(graph, "tvm");
  check_timed_search(graph, "inductor");
  check_timed_search(graph, "xla");
}

// Seed under the four broadcast/resident combinations (against the reference), seed with plan search, then
// every other preset.
inline void check_all_options(const FusionGraph& graph, bool compare_reference) {
  for (int bits = 0; bits < 4; ++bits) {
    PlannerOptions options;
    options.broadcast = (bits & 1) == 0;
    options.resident_sources = (bits & 2) != 0;
    check_plan(graph, options, compare_reference);
  }
  check_search(graph);
  for (std::string_view name : strategy_names())
    if (name != "seed") check_plan(graph, FusionPlanner().with_strategy(std::string(name)).options(), false);
}

inline void check_json_input(std::string_view text) {
  const Expected<FusionGraph> graph = read_graph_json(text);
  if (!graph) return check_errors(graph.errors());
  check_all_options(*graph, /*compare_reference=*/true);
  // The facade must answer with a JSON document whatever happens.
  const std::string answer = api::plan(text, "");
  if (answer.empty() || answer.front() != '{') fuzz_fail("api", "not a JSON object: " + answer.substr(0, 80));
}

// Bytes as a little op-building program: each op takes 4 bytes (kind, arity and shape, two input picks),
// inputs pointing back from the newest op so that most graphs are deep and connected.
inline FusionGraph graph_from_bytes(const std::uint8_t* data, std::size_t size) {
  static const OpKind kinds[] = {OpKind::input, OpKind::relu, OpKind::add, OpKind::mul, OpKind::exp,
                                 OpKind::where, OpKind::matmul, OpKind::reduce_sum, OpKind::transpose, OpKind::neg,
                                 OpKind::sub, OpKind::constant, OpKind::gelu, OpKind::softmax, OpKind::div, OpKind::max,
                                 OpKind::reshape, OpKind::reduce_max, OpKind::slice, OpKind::conv, OpKind::broadcast,
                                 OpKind::cast, OpKind::concat, OpKind::pad, OpKind::gather, OpKind::sort,
                                 OpKind::reduce_mean, OpKind::sigmoid, OpKind::square, OpKind::opaque, OpKind::batch_norm,
                                 OpKind::identity};
  static const Shape shapes[] = {{}, {3}, {1, 3}, {4, 3}, {4, 1}, {5, 3}, {4}, {2, 4, 3}};
  FusionGraph g;
  for (std::size_t at = 0; at + 4 <= size && g.size() < 400; at += 4) {
    FusionOp op;
    op.kind = kinds[data[at] & 31];
    op.output = (data[at] & 0xe0) == 0xe0;
    if ((data[at + 3] & 0xc0) == 0xc0) op.region = "body";
    op.shape = shapes[data[at + 1] & 7];
    op.dtype_bytes = 1 << ((data[at + 1] >> 3) & 3);
    const int arity = g.size() == 0 || is_source_kind(op.kind) ? 0 : 1 + (data[at + 1] >> 5) % 3;
    for (int k = 0; k < arity; ++k) {
      const std::size_t back = 1 + data[at + 2 + (k & 1)] % (k == 2 ? 97 : 7);
      op.inputs.push_back(static_cast<OpId>(g.size() > back ? g.size() - back : 0));
    }
    g.add_op(std::move(op));
  }
  return g;
}

inline void check_builder_input(const std::uint8_t* data, std::size_t size) {
  const FusionGraph graph = graph_from_bytes(data, size);
  if (!validate(graph).empty()) fuzz_fail("builder", "a graph built through add_op does not validate");
  check_all_options(graph, /*compare_reference=*/true);
}

}  // namespace fusion::fuzz
