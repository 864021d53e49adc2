// reference_planner.h — a deliberately naive greedy planner used as an oracle by the property tests
// and the fuzzers: it relabels groups on every merge and re-checks the whole group graph for cycles
// and every inside edge for shapes. Quadratic and obviously right; never used by the product.
#pragma once

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "fusion/graph.h"
#include "fusion/plan.h"

namespace fusion::testing {

// The reference greedy planner: relabels groups on every merge and re-checks the whole group graph.
struct Reference {
  std::vector<int> group;                            // op -> label
  std::map<std::pair<OpId, OpId>, EdgeReason> reason;  // unmerged edges at the time they were tried
};

inline bool contracted_is_acyclic(const FusionGraph& g, const std::vector<int>& group) {
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

// Repeatedly takes the smallest id whose producers are all taken: O(n^2), fine for small graphs.
inline std::vector<OpId> naive_topological_order(const FusionGraph& g) {
  std::vector<OpId> order;
  std::vector<bool> taken(g.size(), false);
  while (order.size() < g.size()) {
    for (std::size_t x = 0; x < g.size(); ++x) {
      if (taken[x]) continue;
      const auto& inputs = g.op(static_cast<OpId>(x)).inputs;
      if (std::all_of(inputs.begin(), inputs.end(), [&](OpId in) { return taken[in]; })) {
        taken[x] = true;
        order.push_back(static_cast<OpId>(x));
        break;
      }
    }
  }
  return order;
}

inline Reference reference_plan(const FusionGraph& g, bool broadcast) {
  const std::size_t n = g.size();
  Reference ref;
  ref.group.resize(n);
  for (std::size_t x = 0; x < n; ++x) ref.group[x] = static_cast<int>(x);
  auto shapes_ok = [&](OpId a, OpId b) {
    return broadcast ? broadcast_compatible(g.op(a).shape, g.op(b).shape) : g.op(a).shape == g.op(b).shape;
  };
  for (const OpId v : naive_topological_order(g)) {
    std::vector<OpId> seen;
    for (OpId u : g.op(v).inputs) {
      if (std::find(seen.begin(), seen.end(), u) != seen.end()) continue;
      seen.push_back(u);
      EdgeReason r = EdgeReason::none;
      if (g.op(u).inputs.empty()) r = EdgeReason::source;
      else if (g.op(u).region != g.op(v).region) r = EdgeReason::region;
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


}  // namespace fusion::testing
