// search/group_cycles.cpp — Kahn's algorithm both ways over the group graph (group_cycles.h).
#include "search/group_cycles.h"

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
                                       const std::vector<OpId>& rep) {
  const std::size_t n = g.size();
  Arcs arcs;
  for (std::size_t v = 0; v < n; ++v)
    for (const OpId* in = producers.begin(static_cast<OpId>(v)); in != producers.end(static_cast<OpId>(v)); ++in)
      if (rep[*in] != rep[v]) arcs.emplace_back(rep[*in], rep[v]);
  const std::vector<bool> forward = kahn_done(n, rep, arcs);
  bool acyclic = true;
  for (std::size_t x = 0; x < n && acyclic; ++x) acyclic = forward[rep[x]];
  if (acyclic) return {};
  for (auto& [from, to] : arcs) std::swap(from, to);
  const std::vector<bool> backward = kahn_done(n, rep, arcs);
  std::vector<bool> on_cycle(n, false);
  for (std::size_t x = 0; x < n; ++x) on_cycle[x] = !forward[rep[x]] && !backward[rep[x]];
  return on_cycle;
}

}  // namespace fusion::search
