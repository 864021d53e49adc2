// partition_enumerator.h — brute force for plan search tests: the fewest fused bytes over every legal seed
// partition (fusion/search.h), by trying every subset of the fusible edges.
//
// Deliberately naive and apart from core/src/search: a subset's groups are the connected components of its
// edges; it counts only when it is the full set of fusible edges inside its groups (so each partition is tried
// once), no edge inside a group fails §5 (only the shape rule can), and the group graph is acyclic (Kahn's
// algorithm). Bytes are §8 written out again: per group, the distinct outside ops its members read plus the
// members written (output: true, no consumer, or a reader in another group; a source writes nothing with
// resident_sources). nullopt when the graph has more than max_edges fusible edges.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "detail/legality.h"
#include "fusion/plan.h"

namespace fusion::testing {

struct DistinctEdges {
  std::vector<std::pair<OpId, OpId>> all, fusible;
};

inline DistinctEdges distinct_edges(const FusionGraph& g, bool broadcast) {
  std::set<std::pair<OpId, OpId>> seen;
  DistinctEdges e;
  for (std::size_t v = 0; v < g.size(); ++v)
    for (OpId u : g.op(static_cast<OpId>(v)).inputs)
      if (seen.insert({u, static_cast<OpId>(v)}).second) {
        e.all.push_back({u, static_cast<OpId>(v)});
        if (detail::local_reason(g.op(u), g.op(static_cast<OpId>(v)), broadcast) == EdgeReason::none)
          e.fusible.push_back({u, static_cast<OpId>(v)});
      }
  return e;
}

inline std::vector<int> components_of(std::size_t n, const std::vector<std::pair<OpId, OpId>>& edges) {
  std::vector<int> label(n);
  for (std::size_t x = 0; x < n; ++x) label[x] = static_cast<int>(x);
  for (bool changed = true; changed;) {  // label propagation: slow and obviously right
    changed = false;
    for (const auto& [u, v] : edges) {
      const int low = std::min(label[u], label[v]);
      if (label[u] != low || label[v] != low) label[u] = label[v] = low, changed = true;
    }
  }
  return label;
}

// Kahn's algorithm over nodes (any ints) and arcs between them: true when every node is reached (no cycle).
inline bool arcs_acyclic(const std::vector<int>& nodes, const std::set<std::pair<int, int>>& arcs) {
  std::map<int, int> pending;
  for (int k : nodes) pending[k] = 0;
  for (const auto& [a, b] : arcs) ++pending[b];
  std::vector<int> ready;
  for (const auto& [k, p] : pending)
    if (p == 0) ready.push_back(k);
  std::size_t done = 0;
  while (!ready.empty()) {
    const int k = ready.back();
    ready.pop_back();
    ++done;
    for (const auto& [a, b] : arcs)
      if (a == k && --pending[b] == 0) ready.push_back(b);
  }
  return done == nodes.size();
}

inline bool group_graph_acyclic(const FusionGraph& g, const DistinctEdges& e, const std::vector<int>& group) {
  std::set<std::pair<int, int>> arcs;
  for (const auto& [u, v] : e.all)
    if (group[u] != group[v]) arcs.insert({group[u], group[v]});
  std::vector<int> nodes;
  for (std::size_t x = 0; x < g.size(); ++x)
    if (group[x] == static_cast<int>(x)) nodes.push_back(static_cast<int>(x));
  return arcs_acyclic(nodes, arcs);
}

inline std::uint64_t partition_bytes(const FusionGraph& g, const std::vector<int>& group, bool resident_sources) {
  auto size = [&g](OpId x) { return tensor_bytes(g.op(x).shape, g.op(x).dtype_bytes).value_or(0); };
  std::set<std::pair<int, OpId>> reads;  // (group, op it reads from outside)
  std::uint64_t total = 0;
  for (std::size_t v = 0; v < g.size(); ++v) {
    const FusionOp& op = g.op(static_cast<OpId>(v));
    for (OpId u : op.inputs)
      if (group[u] != group[v]) reads.insert({group[v], u});
    bool written = op.output;
    bool has_reader = false;
    for (std::size_t w = 0; w < g.size(); ++w)
      for (OpId u : g.op(static_cast<OpId>(w)).inputs)
        if (u == static_cast<OpId>(v)) {
          has_reader = true;
          written = written || group[w] != group[v];
        }
    written = written || !has_reader;
    if (resident_sources && op.is_source()) written = false;
    if (written) total += size(static_cast<OpId>(v));
  }
  for (const auto& [k, u] : reads) total += size(u);
  return total;
}

inline std::optional<std::uint64_t> brute_force_min_bytes(const FusionGraph& g, const PlannerOptions& options,
                                                          std::size_t max_edges) {
  const DistinctEdges e = distinct_edges(g, options.broadcast);
  if (e.fusible.size() > max_edges) return std::nullopt;
  std::optional<std::uint64_t> best;
  for (std::uint64_t subset = 0; subset < (std::uint64_t{1} << e.fusible.size()); ++subset) {
    std::vector<std::pair<OpId, OpId>> chosen;
    for (std::size_t k = 0; k < e.fusible.size(); ++k)
      if (subset >> k & 1) chosen.push_back(e.fusible[k]);
    const std::vector<int> group = components_of(g.size(), chosen);
    bool canonical = true, legal = true;
    for (std::size_t k = 0; k < e.fusible.size(); ++k)
      if (!(subset >> k & 1) && group[e.fusible[k].first] == group[e.fusible[k].second]) canonical = false;
    for (const auto& [u, v] : e.all)
      if (group[u] == group[v] && detail::local_reason(g.op(u), g.op(v), options.broadcast) != EdgeReason::none)
        legal = false;
    if (!canonical || !legal || !group_graph_acyclic(g, e, group)) continue;
    const std::uint64_t bytes = partition_bytes(g, group, options.resident_sources);
    if (!best || bytes < *best) best = bytes;
  }
  return best;
}

}  // namespace fusion::testing
