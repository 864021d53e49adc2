// search.test.cpp — plan search (docs/design.md §17, fusion/search.h): agreement with a brute-force enumerator
// of every legal partition on thousands of random graphs, never worse than greedy, a graph where greedy misses
// the optimum, the node budget (bounded, valid, deterministic), options errors, the verifier on the certificate,
// and a 100,000-op graph.
#include <algorithm>
#include <limits>

#include "detail/topology.h"
#include "fusion/json_io.h"
#include "partition_enumerator.h"
#include "random_graphs.h"
#include "search/branch_and_bound.h"
#include "search/components.h"
#include "test_graphs.h"
#include "test_scale.h"

using namespace fusion;
using namespace fusion::testing;

namespace {

PlannerOptions searching(std::int64_t budget = kDefaultSearchNodes) {
  PlannerOptions options;
  options.search = {SearchMode::optimal, budget, false};
  return options;
}

std::uint64_t greedy_bytes(const FusionGraph& g, PlannerOptions options) {
  options.search = {};
  return plan_checked(g, FusionPlanner(options)).bytes_fused;
}

FusionOp op(const char* name, OpKind kind, std::vector<OpId> inputs, Shape shape) {
  FusionOp o;
  o.name = name;
  o.kind = kind;
  o.inputs = std::move(inputs);
  o.shape = std::move(shape);
  return o;
}

// Greedy misses the optimum here (found with the enumerator, then cut down). A scalar e1 = exp(x) feeds a
// matmul m and c = add(e1, y); d = add(c, m). Greedy visits c first and merges e1 into c; merging d with {e1, c}
// would then put the matmul between two halves of one group (e1 -> m -> d), so d stays alone, and c (4 KiB) is
// written and read back. The optimum leaves the scalar e1 alone (m reads it from memory anyway, 4 bytes) and fuses
// c into d, so c never leaves the chip: 8,188 bytes fewer.
FusionGraph greedy_trap() {
  FusionGraph g;
  const OpId x = g.add_op(op("x", OpKind::input, {}, {1}));
  const OpId y = g.add_op(op("y", OpKind::input, {}, {1024}));
  const OpId e1 = g.add_op(op("e1", OpKind::exp, {x}, {1}));
  const OpId m = g.add_op(op("m", OpKind::matmul, {e1}, {1024}));
  const OpId c = g.add_op(op("c", OpKind::add, {e1, y}, {1024}));
  g.add_op(op("d", OpKind::add, {c, m}, {1024}));
  return g;
}

}  // namespace

TEST_CASE("10,000 random graphs: optimal plans equal the brute-force optimum; never worse than greedy") {
  std::mt19937_64 rng(20261201);
  int compared = 0, greedy_missed = 0;
  double worst_ratio = 1.0;
  for (int i = 0; compared < scaled(10'000); ++i) {
    const FusionGraph g = random_graph(rng, 3 + static_cast<int>(rng() % 14));
    PlannerOptions options = searching();
    options.broadcast = rng() % 4 != 0;
    options.resident_sources = rng() % 2 == 0;
    const std::optional<std::uint64_t> best = brute_force_min_bytes(g, options, 12);
    if (!best) continue;
    CAPTURE(i);
    ++compared;
    const FusionPlan plan = plan_checked(g, FusionPlanner(options));
    const std::uint64_t greedy = greedy_bytes(g, options);
    REQUIRE(plan.search.present);
    CHECK(plan.search.status == "optimal");
    CHECK(plan.bytes_fused == *best);
    CHECK(plan.search.lower_bound <= *best);
    CHECK(plan.search.greedy_bytes_fused == greedy);
    CHECK(plan.bytes_fused <= greedy);
    if (greedy > *best) {
      ++greedy_missed;
      worst_ratio = std::max(worst_ratio, static_cast<double>(greedy) / static_cast<double>(*best));
    }
  }
  MESSAGE("compared " << compared << " graphs; greedy missed the optimum on " << greedy_missed
                      << ", by up to " << worst_ratio << "x the optimal bytes");
  CHECK(greedy_missed > 0);
}

TEST_CASE("larger random graphs (200 ops): searched plans verify and never lose to greedy") {
  std::mt19937_64 rng(15);
  int optimal = 0, improved = 0;
  for (int i = 0; i < scaled(50); ++i) {
    CAPTURE(i);
    const FusionGraph g = random_graph(rng, 200);
    const FusionPlan plan = plan_checked(g, FusionPlanner(searching()));
    CHECK(plan.bytes_fused <= plan.search.greedy_bytes_fused);
    CHECK(plan.search.lower_bound <= plan.bytes_fused);
    optimal += plan.search.status == "optimal";
    improved += plan.bytes_fused < plan.search.greedy_bytes_fused;
  }
  MESSAGE("200-op graphs: " << optimal << " of " << scaled(50) << " proven optimal, " << improved << " better than greedy");
}

TEST_CASE("a graph where greedy misses the optimum") {
  const FusionGraph g = greedy_trap();
  const FusionPlan greedy = plan_checked(g);
  const FusionPlan best = plan_checked(g, FusionPlanner(searching()));
  CHECK(group_names(g, greedy) == std::vector<std::vector<std::string>>{{"x"}, {"y"}, {"e1", "c"}, {"m"}, {"d"}});
  CHECK(group_names(g, best) == std::vector<std::vector<std::string>>{{"x"}, {"y"}, {"e1"}, {"m"}, {"c", "d"}});
  CHECK(greedy.bytes_fused - best.bytes_fused == 8188);
  CHECK(best.bytes_fused == *brute_force_min_bytes(g, searching(), 11));
  CHECK(best.bytes_fused < greedy.bytes_fused);
  CHECK(best.search.status == "optimal");
  CHECK(best.search.lower_bound == best.bytes_fused);
  CHECK(best.search.gap == 0.0);
  CHECK(best.search.greedy_bytes_fused == greedy.bytes_fused);
  CHECK(best.search.nodes > 0);
  const std::string json = write_plan_json(best);
  CHECK(json.find(",\"search\":{\"mode\":\"optimal\",\"status\":\"optimal\",\"objective\":\"bytes\",\"lower_bound\":") != std::string::npos);
  const Expected<FusionPlan> back = read_plan_json(json);
  REQUIRE(back);
  CHECK(back->search == best.search);
}

TEST_CASE("a tiny node budget gives a bounded, valid plan, never worse than greedy, the same twice") {
  std::mt19937_64 rng(99);
  int bounded = 0;
  for (int i = 0; i < scaled(200); ++i) {
    CAPTURE(i);
    const FusionGraph g = random_graph(rng, 80);
    const FusionPlanner planner(searching(3));
    const FusionPlan plan = plan_checked(g, planner);
    CHECK(plan.search.nodes <= 3);
    CHECK(plan.bytes_fused <= plan.search.greedy_bytes_fused);
    CHECK(plan.search.lower_bound <= plan.bytes_fused);
    CHECK(write_plan_json(plan) == write_plan_json(*planner.plan(g)));
    bounded += plan.search.status == "bounded";
  }
  CHECK(bounded > 0);
}

TEST_CASE("search options: modes, budgets, caps and errors") {
  CHECK(read_options_json(R"({"search": "optimal"})")->search.mode == SearchMode::optimal);
  CHECK(read_options_json(R"({"search": "greedy"})")->search.mode == SearchMode::greedy);
  const auto budget = read_options_json(R"({"search": {"mode": "optimal", "budget_nodes": 500}})");
  CHECK(budget->search == SearchSettings{SearchMode::optimal, 500, false});
  const auto capped = read_options_json(R"({"search": {"mode": "optimal", "budget_nodes": 9000000000000}})");
  CHECK(capped->search == SearchSettings{SearchMode::optimal, kMaxSearchNodes, true});
  const FusionPlan plan = *FusionPlanner(*capped).plan(greedy_trap());
  REQUIRE(plan.warnings.size() == 1);
  CHECK(plan.warnings[0].code == "search_budget_capped");
  CHECK(plan.warnings[0].path == "/search/budget_nodes");
  const auto error_path = [](const char* text) {
    const auto options = read_options_json(text);
    return options ? std::string("(accepted)") : options.errors().front().path;
  };
  CHECK(error_path(R"({"search": "best"})") == "/search");
  CHECK(error_path(R"({"search": {"mode": "fast"}})") == "/search/mode");
  CHECK(error_path(R"({"search": {"mode": "optimal", "budget_nodes": 0}})") == "/search/budget_nodes");
  CHECK(error_path(R"({"search": {"mode": "optimal", "budget_nodes": -5}})") == "/search/budget_nodes");
  CHECK(error_path(R"({"search": {"mode": "optimal", "budget_nodes": 1.5}})") == "/search/budget_nodes");
  CHECK(error_path(R"({"search": {"mode": "optimal", "budget_nodes": 1e300}})") == "/search/budget_nodes");
  CHECK(error_path(R"({"search": {"mode": "optimal", "budget_ms": 0}})") == "/search/budget_ms");
  CHECK(error_path(R"({"search": {"mode": "optimal", "budget_ms": -10}})") == "/search/budget_ms");
  CHECK(error_path(R"({"search": {"mode": "optimal", "budget_ms": 2.5}})") == "/search/budget_ms");
  CHECK(error_path(R"({"search": {"mode": "optimal", "budget_ms": "2s"}})") == "/search/budget_ms");
  CHECK(error_path(R"({"search": {"mode": "optimal", "budget_s": 2}})") == "/search/budget_s");
  CHECK(error_path(R"({"search": 3})") == "/search");
  for (const char* options : {R"({"strategy": "xla", "rules": {"passes": ["priority"]}, "search": "optimal"})",
                              R"({"strategy": "xla", "rules": {"passes": ["priority", "horizontal"]}, "search": "optimal"})"}) {
    CAPTURE(options);
    const Expected<FusionPlan> refused = FusionPlanner(*read_options_json(options)).plan(greedy_trap());
    REQUIRE(!refused);
    CHECK(refused.errors().front().code == ErrorCode::invalid_options);
    CHECK(refused.errors().front().path == "/search/mode");
    CHECK(refused.errors().front().message.find("search is available for strategies 'seed', 'xla-classic', 'tvm', "
                                                "'inductor' and 'xla' (with all three passes) so far") !=
          std::string::npos);
  }
  for (const char* options : {R"({"strategy": "xla-classic", "search": "optimal"})",
                              R"({"rules": {"epilogue": true, "recompute": "cheap"}, "search": "optimal"})",
                              R"({"rules": {"recompute": "all"}, "search": "optimal"})"}) {
    CAPTURE(options);
    const Expected<FusionPlan> searched = FusionPlanner(*read_options_json(options)).plan(greedy_trap());
    REQUIRE(searched);
    CHECK(searched->search.present);
  }
}

TEST_CASE("a time budget: a fixed number of nodes per millisecond, the smaller budget wins, capped when absurd") {
  const auto ms = read_options_json(R"({"search": {"mode": "optimal", "budget_ms": 10}})");
  CHECK(ms->search == SearchSettings{SearchMode::optimal, 10 * kSearchNodesPerMs, false, 10, false});
  const auto nodes_win = read_options_json(R"({"search": {"budget_nodes": 100, "budget_ms": 10, "mode": "optimal"}})");
  CHECK(nodes_win->search == SearchSettings{SearchMode::optimal, 100, false, 10, false});
  const auto ms_wins = read_options_json(R"({"search": {"mode": "optimal", "budget_ms": 3, "budget_nodes": 100000}})");
  CHECK(ms_wins->search.budget_nodes == 3 * kSearchNodesPerMs);
  CHECK(read_options_json(R"({"search": "optimal"})")->search.budget_nodes == kDefaultSearchNodes);
  const auto capped = read_options_json(R"({"search": {"mode": "optimal", "budget_ms": 9000000000000}})");
  CHECK(capped->search == SearchSettings{SearchMode::optimal, nodes_for_ms(kMaxSearchMs), false, kMaxSearchMs, true});
  const FusionPlan plan = *FusionPlanner(*capped).plan(greedy_trap());
  REQUIRE(plan.warnings.size() == 1);
  CHECK(plan.warnings[0].code == "search_budget_capped");
  CHECK(plan.warnings[0].path == "/search/budget_ms");
  // The resolved options carry both budgets and read back to the same settings.
  const std::string json = write_plan_json(*FusionPlanner(*ms).plan(greedy_trap()));
  const std::string resolved = R"("search":{"mode":"optimal","budget_nodes":)" +
                               std::to_string(10 * kSearchNodesPerMs) + R"(,"budget_ms":10})";
  CHECK(json.find(resolved) != std::string::npos);
  CHECK(read_options_json("{" + resolved + "}")->search == ms->search);
  // The answer depends on nodes only: a 1 ms budget plans exactly as its node count does, every time.
  std::mt19937_64 rng(7);
  int bounded = 0;
  for (int i = 0; i < 40; ++i) {
    CAPTURE(i);
    const FusionGraph g = random_graph(rng, 120);
    const FusionPlan by_ms = plan_checked(g, FusionPlanner(*read_options_json(R"({"search": {"mode": "optimal", "budget_ms": 1}})")));
    PlannerOptions by_nodes = searching(kSearchNodesPerMs);
    const FusionPlan same = plan_checked(g, FusionPlanner(by_nodes));
    CHECK(by_ms.search == same.search);
    CHECK(by_ms.op_group == same.op_group);
    CHECK(by_ms.search.nodes <= kSearchNodesPerMs);
    bounded += by_ms.search.status == "bounded";
  }
  MESSAGE(bounded << " of 40 120-op graphs bounded after 1 ms worth of nodes");
}

TEST_CASE("where greedy went wrong: the trap's two edges, explained by greedy's order") {
  const FusionPlan best = plan_checked(greedy_trap(), FusionPlanner(searching()));
  REQUIRE(best.search.differences_total == 2);
  REQUIRE(best.search.differences.size() == 2);
  const SearchDifference& first = best.search.differences[0];  // e1 -> c (edge order: consumer c before d)
  CHECK(first.producer == 2);
  CHECK(first.consumer == 4);
  CHECK(first.greedy_fused);
  CHECK(first.why == "greedy fused e1 → c (its 1st merge), which later kept c → d from fusing; the optimal plan keeps "
                     "them apart");
  const SearchDifference& second = best.search.differences[1];
  CHECK(second.producer == 4);
  CHECK(second.consumer == 5);
  CHECK(!second.greedy_fused);
  CHECK(second.why == "greedy fused e1 → c first (its 1st merge); after that, fusing c → d would put matmul m between "
                      "two parts of one kernel (a cycle)");
  const std::string json = write_plan_json(best);
  CHECK(json.find(R"("differences":[{"producer":2,"consumer":4,"greedy":"fused","optimal":"cut","why":"greedy fused)") !=
        std::string::npos);
  CHECK(json.find(R"(],"differences_total":2})") != std::string::npos);
  const Expected<FusionPlan> back = read_plan_json(json);
  REQUIRE(back);
  CHECK(back->search == best.search);
  std::string bad = json;
  bad.replace(bad.find(R"("optimal":"cut")"), 15, R"("optimal":"fused")");
  const Expected<FusionPlan> refused = read_plan_json(bad);
  REQUIRE(!refused);
  CHECK(refused.errors().front().path == "/search/differences/0/greedy");
}

TEST_CASE("differences on random graphs: every improved plan lists them, each names a merge or a path") {
  std::mt19937_64 rng(1515);
  int improved = 0, after_merge = 0, other_path = 0;
  for (int i = 0; i < scaled(3000); ++i) {
    CAPTURE(i);
    const FusionGraph g = random_graph(rng, 4 + static_cast<int>(rng() % 30));
    const FusionPlan plan = plan_checked(g, FusionPlanner(searching()));  // the verifier checks each listed edge
    const bool better = plan.bytes_fused < plan.search.greedy_bytes_fused;
    CHECK(better == (plan.search.differences_total > 0));
    improved += better;
    for (const SearchDifference& d : plan.search.differences) {
      const bool merge_then = d.why.find("merge); after that, fusing") != std::string::npos;
      const bool path = d.why.starts_with("greedy cut ") && d.why.find("another path joins them") != std::string::npos;
      const bool joined = d.why.starts_with("greedy fused ") || d.why.starts_with("greedy put ");
      CHECK((d.greedy_fused ? joined && !merge_then : merge_then || path));
      after_merge += merge_then;
      other_path += path;
    }
  }
  MESSAGE(improved << " improved plans; cut edges explained by an earlier merge " << after_merge << ", by another path "
                   << other_path);
  CHECK(improved > 0);
  CHECK(after_merge > 0);
}

TEST_CASE("the verifier checks the certificate") {
  const FusionGraph g = greedy_trap();
  const PlannerOptions options = searching();
  const FusionPlan plan = plan_checked(g, FusionPlanner(options));
  auto codes = [&](const FusionPlan& p) {
    std::vector<std::string> out;
    for (const Violation& v : verify_plan(g, options, p)) out.push_back(v.code);
    return out;
  };
  FusionPlan above = plan;
  above.search.lower_bound = plan.bytes_fused + 1;
  CHECK(codes(above) == std::vector<std::string>{"search", "search"});  // above the bytes; optimal not met
  FusionPlan claimed = plan;
  claimed.search.lower_bound = plan.bytes_fused - 8;  // "optimal" with a gap
  CHECK(!codes(claimed).empty());
  FusionPlan worse = plan;
  worse.search.greedy_bytes_fused = plan.bytes_fused - 1;
  CHECK(codes(worse) == std::vector<std::string>{"search", "search"});  // worse than greedy; not greedy's bytes
  FusionPlan flipped = plan;
  flipped.search.differences[1].greedy_fused = true;
  CHECK(codes(flipped) == std::vector<std::string>{"search"});
  FusionPlan missing = plan;
  missing.search.differences.pop_back();
  CHECK(codes(missing) == std::vector<std::string>{"search"});
  FusionPlan extra = plan;
  extra.search.differences.push_back({0, 2, true, "made up"});
  CHECK(codes(extra) == std::vector<std::string>{"search"});
  FusionPlan miscounted = plan;
  miscounted.search.differences_total = 3;
  CHECK(codes(miscounted) == std::vector<std::string>{"search"});
  FusionPlan silent = plan;
  silent.search.differences[0].why.clear();
  CHECK(codes(silent) == std::vector<std::string>{"search"});
  FusionPlan gap = plan;
  gap.search.status = "bounded";
  gap.search.gap = 0.5;
  CHECK(codes(gap) == std::vector<std::string>{"search"});
}

TEST_CASE("a 100,000-op graph: the search stays within its node budget and returns a valid plan" *
          doctest::skip(reduced_run())) {
  std::mt19937_64 rng(100000);
  const FusionGraph g = random_graph(rng, 100'000);
  const FusionPlan plan = plan_checked(g, FusionPlanner(searching(20'000)));
  CHECK(plan.search.nodes <= 20'000);
  CHECK(plan.bytes_fused <= plan.search.greedy_bytes_fused);
  CHECK(plan.search.lower_bound <= plan.bytes_fused);
  MESSAGE("100,000 ops: " << plan.search.status << ", " << plan.search.nodes << " nodes, gap " << plan.search.gap
                          << ", greedy " << plan.search.greedy_bytes_fused << " -> " << plan.bytes_fused);
}

TEST_CASE("a long chain does not overflow anything (no recursion)" * doctest::skip(reduced_run())) {
  FusionGraph g;
  OpId last = g.add_op(op("x", OpKind::input, {}, {4}));
  for (int i = 0; i < 200'000; ++i) last = g.add_op(op("", i % 2 ? OpKind::relu : OpKind::neg, {last}, {4}));
  const FusionPlan plan = plan_checked(g, FusionPlanner(searching(1000)));
  CHECK(plan.search.status == "optimal");  // greedy already meets the bound of one group
  CHECK(plan.groups.size() == 2);
}

// Parts of up to 64 ops searched with 4- and 16-word sets (as parts of up to 256 and 1,024 ops are): the same
// bytes, bound and nodes as with one word.
TEST_CASE("the search is the same at every set width: 1, 4 and 16 words agree node for node") {
  std::mt19937_64 rng(64);
  int compared = 0;
  const int graphs = scaled(300);
  for (int i = 0; i < graphs; ++i) {
    CAPTURE(i);
    const FusionGraph g = random_graph(rng, 6 + static_cast<int>(rng() % 40));
    const detail::Producers producers = detail::build_producers(g);
    const detail::Consumers consumers = detail::build_consumers(g);
    const std::vector<OpId> order = *detail::topological_order(g, consumers);
    std::vector<std::int64_t> position(order.size());
    for (std::size_t k = 0; k < order.size(); ++k) position[order[k]] = static_cast<std::int64_t>(k);
    const search::SearchSpace space{g, consumers};
    for (const std::vector<OpId>& members : search::fusible_components(space, producers, order).members) {
      const auto p1 = search::build_local_problem<1>(space, producers, members, position);
      const auto p4 = search::build_local_problem<4>(space, producers, members, position);
      const auto p16 = search::build_local_problem<16>(space, producers, members, position);
      REQUIRE((p1 && p4 && p16));
      const std::uint64_t start = std::numeric_limits<std::uint64_t>::max();
      const std::int64_t budget = 1 + static_cast<std::int64_t>(rng() % 400);
      const auto r1 = search::search_part(*p1, start, budget);
      const std::size_t k = members.size();  // the same number of nodes: budgets in each width's node cost
      const auto r4 = search::search_part(*p4, start, budget * search::node_cost(k, 4));
      const auto r16 = search::search_part(*p16, start, budget * search::node_cost(k, 16));
      CHECK(r1.best_bytes == r4.best_bytes);
      CHECK(r1.best_bytes == r16.best_bytes);
      CHECK(r1.lower_bound == r4.lower_bound);
      CHECK(r1.lower_bound == r16.lower_bound);
      CHECK(r1.nodes == r4.nodes);
      CHECK(r1.nodes == r16.nodes);
      CHECK(r4.units == r4.nodes * search::node_cost(k, 4));
      ++compared;
    }
  }
  CHECK(compared > graphs / 3);
}
