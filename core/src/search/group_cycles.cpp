// search/group_cycles.cpp — Kahn's algorithm both ways over the group graph (group_cycles.h).
#include "search/group_cycles.h"

#include <algorithm>
#include <utility>

namespace fusion::search {
namespace {

using Arcs = std::vector<std::pair<OpId, OpId>>;  // (from, to) between representatives

// Per representative: was it reached by Kahn's algorithm over the arcs?
std::vector<bool> kahn_done(std::size_t n, const std::vector<OpId>& rep, const Arcs& arcs) {
  std::vector<std::vector<OpId>> successors(n);
  std::vector<std::int64_t> pending(n, 0);
  for (const auto& [from, to] : arcs) {
    successors[from].push_back(to);
    ++pending[to];
  }
  std::vector<OpId> ready;
  for (std::size_t x = 0; x < n; ++x)
    if (rep[x] == static_cast<OpId>(x) && pending[x] == 0) ready.push_back(static_cast<OpId>(x));
  std::vector<bool> done(n, false);
  while (!ready.empty()) {
    const OpId group = ready.back();
    ready.pop_back();
    done[group] = true;
    for (OpId next : successors[group])
      if (--pending[next] == 0) ready.push_back(next);
  }
  return done;
}

}  // namespace

std::vector<bool> ops_in_cyclic_groups(const FusionGraph& g, const detail::Producers& producers,
                                       const std::vector<OpId>& rep, std::vector<std::pair<OpId, OpId>> copies) {
  const std::size_t n = g.size();
  std::sort(copies.begin(), copies.end());
  const auto held = [&](OpId op, OpId group) {
    return rep[op] == group || std::binary_search(copies.begin(), copies.end(), std::pair{op, group});
  };
  Arcs arcs;
  const auto add_reads = [&](OpId op, OpId group) {  // the group computes op: it reads op's inputs it does not hold
    for (const OpId* in = producers.begin(op); in != producers.end(op); ++in)
      if (rep[*in] >= 0 && !held(*in, group)) arcs.emplace_back(rep[*in], group);
  };
  for (std::size_t v = 0; v < n; ++v)
    if (rep[v] >= 0) add_reads(static_cast<OpId>(v), rep[v]);
  for (const auto& [op, group] : copies) add_reads(op, group);
  const std::vector<bool> forward = kahn_done(n, rep, arcs);
  bool acyclic = true;
  for (std::size_t x = 0; x < n && acyclic; ++x) acyclic = rep[x] != static_cast<OpId>(x) || forward[x];
  if (acyclic) return {};
  for (auto& [from, to] : arcs) std::swap(from, to);
  const std::vector<bool> backward = kahn_done(n, rep, arcs);
  const auto cyclic = [&](OpId group) { return !forward[group] && !backward[group]; };
  std::vector<bool> on_cycle(n, false);
  for (std::size_t x = 0; x < n; ++x)
    if (rep[x] >= 0) on_cycle[x] = cyclic(rep[x]);
  for (const auto& [op, group] : copies) on_cycle[op] = on_cycle[op] || (rep[op] < 0 && cyclic(group));
  return on_cycle;
}

}  // namespace fusion::search
