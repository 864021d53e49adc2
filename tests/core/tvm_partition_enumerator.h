// tvm_partition_enumerator.h — brute force for the tvm plan search tests: the least estimated time over every
// partition that keeps FuseOps' group invariants (fusion/search.h, "Legal partitions under tvm"), by trying every
// subset of the candidate edges.
//
// Deliberately naive and apart from core/src/search: candidate edges join a non-source producer to a consumer
// of its region, neither kOpaque. A subset's groups are the connected components of its edges; it counts only
// when it holds every candidate edge inside its groups (each partition once), each group of two or more ops keeps
// the invariants as docs/strategies.md and the verifier state them (at most one op of pattern kCommReduce or
// above, at most max_depth ops, one root: a member that is a graph output or read outside the group, a reduction
// only as the root, no member reading another inside when it is kOutEWiseFusable, nothing above kBroadcast after a
// kOutEWiseFusable member), and the group graph is acyclic. Time is the time model written out again: per group
// the distinct outside ops its members read plus the members written, its members' flops, kernel_time_us, summed
// over groups that compute. nullopt when the graph has more than max_edges candidate edges.
#pragma once

#include "fusion/time_model.h"
#include "partition_enumerator.h"
#include "presets/tvm_patterns.h"

namespace fusion::testing {

inline std::vector<std::pair<OpId, OpId>> tvm_candidate_edges(const FusionGraph& g, const DistinctEdges& e) {
  using presets::TvmPattern;
  std::vector<std::pair<OpId, OpId>> out;
  for (const auto& [u, v] : e.all)
    if (!g.op(u).is_source() && g.op(u).region == g.op(v).region &&
        presets::tvm_pattern(g.op(u).kind) != TvmPattern::opaque && presets::tvm_pattern(g.op(v).kind) != TvmPattern::opaque)
      out.push_back({u, v});
  return out;
}

inline bool graph_output_of(const FusionGraph& g, const DistinctEdges& e, OpId x) {
  if (g.op(x).output) return true;
  return std::none_of(e.all.begin(), e.all.end(), [&](const auto& edge) { return edge.first == x; });
}

// Does the group `k` (ops with group[x] == k) keep FuseOps' invariants?
inline bool tvm_group_ok(const FusionGraph& g, const DistinctEdges& e, const std::vector<int>& group, int k,
                         std::int64_t max_depth) {
  using presets::TvmPattern;
  std::vector<OpId> members;
  for (std::size_t x = 0; x < g.size(); ++x)
    if (group[x] == k) members.push_back(static_cast<OpId>(x));
  if (members.size() < 2) return true;
  if (max_depth > 0 && static_cast<std::int64_t>(members.size()) > max_depth) return false;
  int heavy = 0, roots = 0;
  for (OpId x : members) {
    const TvmPattern p = presets::tvm_pattern(g.op(x).kind);
    if (p == TvmPattern::opaque) return false;
    if (p >= TvmPattern::comm_reduce) ++heavy;
    bool root = graph_output_of(g, e, x);
    for (const auto& [u, v] : e.all) root = root || (u == x && group[v] != k);
    roots += root ? 1 : 0;
    if (p == TvmPattern::comm_reduce && !root) return false;
  }
  if (heavy > 1 || roots != 1) return false;
  std::vector<char> after(g.size(), 0);  // reached from a kOutEWiseFusable member inside the group
  for (OpId x : members)
    if (presets::tvm_pattern(g.op(x).kind) == TvmPattern::out_ewise_fusable) after[x] = 1;
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [u, v] : e.all)
      if (group[u] == k && group[v] == k && after[u] && !after[v]) after[v] = 1, changed = true;
  }
  for (const auto& [u, v] : e.all) {
    if (group[u] != k || group[v] != k) continue;
    if (presets::tvm_pattern(g.op(v).kind) == TvmPattern::out_ewise_fusable) return false;
    if (after[u] && presets::tvm_pattern(g.op(v).kind) > TvmPattern::broadcast) return false;
  }
  return true;
}

inline double partition_time_us(const FusionGraph& g, const DistinctEdges& e, const std::vector<int>& group,
                                 const HardwareProfile& hw) {
  auto size = [&g](OpId x) { return tensor_bytes(g.op(x).shape, g.op(x).dtype_bytes).value_or(0); };
  double total = 0.0;
  for (std::size_t k = 0; k < g.size(); ++k) {
    std::set<OpId> reads;
    std::uint64_t bytes = 0, vector_flops = 0, matrix_flops = 0;
    bool computes = false;
    for (std::size_t x = 0; x < g.size(); ++x) {
      if (group[x] != static_cast<int>(k)) continue;
      const OpId id = static_cast<OpId>(x);
      computes = computes || !g.op(id).is_source();
      for (OpId u : g.op(id).inputs)
        if (group[u] != static_cast<int>(k)) reads.insert(u);
      bool written = graph_output_of(g, e, id);
      for (const auto& [u, v] : e.all) written = written || (u == id && group[v] != group[x]);
      if (written) bytes += size(id);
      (uses_matrix_peak(g.op(id).kind) ? matrix_flops : vector_flops) += op_flops(g, id);
    }
    for (OpId u : reads) bytes += size(u);
    if (computes) total += kernel_time_us(bytes, vector_flops, matrix_flops, hw);
  }
  return total;
}

inline std::optional<double> brute_force_min_tvm_time(const FusionGraph& g, const PlannerOptions& options,
                                                      std::size_t max_edges) {
  const DistinctEdges e = distinct_edges(g, options.broadcast);
  const std::vector<std::pair<OpId, OpId>> candidates = tvm_candidate_edges(g, e);
  if (candidates.size() > max_edges) return std::nullopt;
  const HardwareProfile hw = *hardware_profile(options.hardware);
  std::optional<double> best;
  for (std::uint64_t subset = 0; subset < (std::uint64_t{1} << candidates.size()); ++subset) {
    std::vector<std::pair<OpId, OpId>> chosen;
    for (std::size_t k = 0; k < candidates.size(); ++k)
      if (subset >> k & 1) chosen.push_back(candidates[k]);
    const std::vector<int> group = components_of(g.size(), chosen);
    bool ok = true;
    for (std::size_t k = 0; k < candidates.size() && ok; ++k)
      ok = (subset >> k & 1) || group[candidates[k].first] != group[candidates[k].second];
    for (std::size_t x = 0; x < g.size() && ok; ++x)
      if (group[x] == static_cast<int>(x)) ok = tvm_group_ok(g, e, group, static_cast<int>(x), options.rules.max_depth);
    if (!ok || !group_graph_acyclic(g, e, group)) continue;
    const double time = partition_time_us(g, e, group, hw);
    if (!best || time < *best) best = time;
  }
  return best;
}

}  // namespace fusion::testing
