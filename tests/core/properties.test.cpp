// properties.test.cpp — the planner on 10,000+ seeded random DAGs: every plan passes the verifier,
// fused bytes never exceed unfused, planning is deterministic, and the groups and reasons equal those
// of a deliberately naive reference (merge iff the whole contracted graph stays acyclic), which shows
// the fast cycle check is exact.
#include <algorithm>
#include <map>
#include <set>

#include "random_graphs.h"
#include "test_graphs.h"

using namespace fusion;
using namespace fusion::testing;

namespace {

// The reference greedy planner: relabels groups on every merge and re-checks the whole group graph.
struct Reference {
  std::vector<int> group;                            // op -> label
  std::map<std::pair<OpId, OpId>, EdgeReason> reason;  // unmerged edges at the time they were tried
};

bool contracted_is_acyclic(const FusionGraph& g, const std::vector<int>& group) {
  const std::size_t n = g.size();
  std::vector<std::set<int>> next(n);
  for (std::size_t x = 0; x < n; ++x)
    for (OpId in : g.op(static_cast<OpId>(x)).inputs)
      if (group[in] != group[x]) next[group[in]].insert(group[x]);
  std::vector<int> indegree(n, 0);
  std::set<int> labels(group.begin(), group.end());
  for (int l : labels)
    for (int t : next[l]) ++indegree[t];
  std::vector<int> ready;
  for (int l : labels)
    if (indegree[l] == 0) ready.push_back(l);
  std::size_t seen = 0;
  while (!ready.empty()) {
    const int l = ready.back();
    ready.pop_back();
    ++seen;
    for (int t : next[l])
      if (--indegree[t] == 0) ready.push_back(t);
  }
  return seen == labels.size();
}

Reference reference_plan(const FusionGraph& g, bool broadcast) {
  const std::size_t n = g.size();
  Reference ref;
  ref.group.resize(n);
  for (std::size_t x = 0; x < n; ++x) ref.group[x] = static_cast<int>(x);
  auto shapes_ok = [&](OpId a, OpId b) {
    return broadcast ? broadcast_compatible(g.op(a).shape, g.op(b).shape) : g.op(a).shape == g.op(b).shape;
  };
  for (std::size_t xv = 0; xv < n; ++xv) {  // builder ids are topological
    const auto v = static_cast<OpId>(xv);
    std::vector<OpId> seen;
    for (OpId u : g.op(v).inputs) {
      if (std::find(seen.begin(), seen.end(), u) != seen.end()) continue;
      seen.push_back(u);
      EdgeReason r = EdgeReason::none;
      if (g.op(u).inputs.empty()) r = EdgeReason::source;
      else if (!is_fusible(g.op(u).kind)) r = EdgeReason::barrier_producer;
      else if (!is_fusible(g.op(v).kind)) r = EdgeReason::barrier_consumer;
      else if (!shapes_ok(u, v)) r = EdgeReason::shape;
      const int a = ref.group[u], c = ref.group[v];
      if (r == EdgeReason::none && a != c) {
        std::vector<int> merged = ref.group;
        for (int& l : merged)
          if (l == a) l = c;
        bool shape_clash = false;
        for (std::size_t y = 0; y < n; ++y)
          for (OpId in : g.op(static_cast<OpId>(y)).inputs)
            if (merged[in] == c && merged[y] == c && !shapes_ok(in, static_cast<OpId>(y))) shape_clash = true;
        if (shape_clash) r = EdgeReason::shape;
        else if (!contracted_is_acyclic(g, merged)) r = EdgeReason::cycle;
        else ref.group = merged;
      }
      if (r != EdgeReason::none) ref.reason[{u, v}] = r;
    }
  }
  return ref;
}

void check_against_reference(const FusionGraph& g, const PlannerOptions& options) {
  const FusionPlanner planner(options);
  const FusionPlan plan = plan_checked(g, planner);
  CHECK(plan.bytes_fused <= plan.bytes_unfused);
  CHECK(write_plan_json(plan) == write_plan_json(*planner.plan(g)));  // deterministic

  const Reference ref = reference_plan(g, options.broadcast);
  for (std::size_t x = 0; x < g.size(); ++x)
    for (std::size_t y = x + 1; y < g.size(); ++y)
      REQUIRE_MESSAGE((plan.op_group[x] == plan.op_group[y]) == (ref.group[x] == ref.group[y]),
                      "ops " << x << " and " << y << " are grouped differently from the reference");
  for (const EdgeDecision& e : plan.edges)
    if (!e.fused) CHECK(to_string(e.reason) == std::string(to_string(ref.reason.at({e.producer, e.consumer}))));
}

}  // namespace

TEST_CASE("10,000 random DAGs: verified, never costlier, deterministic, equal to the naive reference") {
  std::mt19937_64 rng(20261129);
  for (int i = 0; i < 10'000; ++i) {
    const FusionGraph g = random_graph(rng, 1 + static_cast<int>(rng() % 60));
    PlannerOptions options;
    options.broadcast = rng() % 4 != 0;
    options.resident_sources = rng() % 2 == 0;
    CAPTURE(i);
    check_against_reference(g, options);
  }
}

TEST_CASE("larger random DAGs (600 ops) agree with the reference too") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 40; ++i) {
    CAPTURE(i);
    check_against_reference(random_graph(rng, 600), PlannerOptions{});
  }
}
