// search/engine_bound.cpp — the coarse components and the bound of engine_bound.h.
#include "search/engine_bound.h"

#include <algorithm>
#include <map>
#include <string>

#include "detail/saturating.h"
#include "fusion/strategy.h"
#include "fusion/time_model.h"
#include "search/union_find.h"

namespace fusion::search {
namespace {

using detail::saturating_add;

// Component representative per op (engine_bound.h: fusible edges and horizontal readers of one tensor).
std::vector<OpId> coarse_components(const SearchSpace& space, const detail::Producers& producers) {
  const FusionGraph& g = space.graph;
  UnionFind<OpId> sets(g.size());
  for (std::size_t c = 0; c < g.size(); ++c)
    for (const OpId* p = producers.begin(static_cast<OpId>(c)); p != producers.end(static_cast<OpId>(c)); ++p)
      if (space.fusible_node(*p) && space.fusible_node(static_cast<OpId>(c)) && space.fusible(*p, static_cast<OpId>(c)))
        sets.join(*p, static_cast<OpId>(c));
  if (space.shares_buffer_pairs())
    for (std::size_t t = 0; t < g.size(); ++t) {
      std::map<std::string, OpId> first;  // per region: the first loop reader of t
      for (const OpId* r = space.consumers.begin(static_cast<OpId>(t)); r != space.consumers.end(static_cast<OpId>(t)); ++r) {
        if (!space.fusible_node(*r) || is_heavy_kind(g.op(*r).kind)) continue;
        const auto [it, fresh] = first.emplace(g.op(*r).region, *r);
        if (!fresh) sets.join(*r, it->second);
      }
    }
  std::vector<OpId> rep(g.size());
  for (std::size_t x = 0; x < g.size(); ++x) rep[x] = sets.find(static_cast<OpId>(x));
  return rep;
}

// May the op exist only as recomputed copies under the rules (the verifier's copy rule)?
bool copyable(const SearchSpace& space, OpId x) {
  const FusionOp& op = space.graph.op(x);
  const StrategyRules& r = *space.rules;
  if (r.recompute == Recompute::none || op.is_source() || is_heavy_kind(op.kind)) return false;
  return r.recompute == Recompute::all || !is_expensive_kind(op.kind);
}

// Σ over components of non-source ops: distinct outside tensors read plus forced writes (engine_bound.h).
std::uint64_t component_bytes(const SearchSpace& space, const detail::Producers& producers, const std::vector<OpId>& rep) {
  const FusionGraph& g = space.graph;
  std::vector<std::pair<OpId, OpId>> reads;  // (component, tensor)
  std::uint64_t total = 0;
  for (std::size_t v = 0; v < g.size(); ++v) {
    const OpId x = static_cast<OpId>(v);
    if (g.op(x).is_source()) continue;
    for (const OpId* in = producers.begin(x); in != producers.end(x); ++in)
      if (rep[*in] != rep[v]) reads.emplace_back(rep[v], *in);
    bool forced = space.graph_output(x) && !(copyable(space, x) && space.consumers.count(x) > 0);
    for (const OpId* c = space.consumers.begin(x); c != space.consumers.end(x) && !forced; ++c) forced = rep[*c] != rep[v];
    if (forced) total = saturating_add(total, space.bytes_of(x));
  }
  std::sort(reads.begin(), reads.end());
  reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
  for (const auto& read : reads) total = saturating_add(total, space.bytes_of(read.second));
  return total;
}

// The kernels no plan avoids (engine_bound.h): heavy ops and ops that never share a group, one each, plus one per
// region holding a loop op but no heavy op that may share a group.
std::uint64_t fewest_kernels(const SearchSpace& space) {
  const FusionGraph& g = space.graph;
  struct Region { bool loop = false, host = false; };
  std::map<std::string, Region> regions;
  std::uint64_t kernels = 0;
  for (std::size_t v = 0; v < g.size(); ++v) {
    const OpId x = static_cast<OpId>(v);
    const FusionOp& op = g.op(x);
    if (op.is_source()) continue;
    const bool heavy = is_heavy_kind(op.kind), member = space.fusible_node(x);
    Region& region = regions[op.region];
    if (heavy || !member) ++kernels;
    if (heavy && member) region.host = true;
    if (!heavy && member) region.loop = true;
  }
  for (const auto& [name, region] : regions) kernels += region.loop && !region.host ? 1 : 0;
  return kernels;
}

}  // namespace

EngineBound engine_lower_bound(const SearchSpace& space, const detail::Producers& producers, const FusionPlan& greedy_plan) {
  const FusionGraph& g = space.graph;
  const std::uint64_t bytes = component_bytes(space, producers, coarse_components(space, producers));
  EngineBound out;
  out.bytes_lower = bytes;
  for (const FusionGroup& group : greedy_plan.groups)
    if (std::all_of(group.ops.begin(), group.ops.end(), [&](OpId x) { return g.op(x).is_source(); }))
      out.bytes_lower = saturating_add(out.bytes_lower, saturating_add(group.bytes_read, group.bytes_written));
  std::uint64_t vector_flops = 0, matrix_flops = 0, computing = 0;
  for (std::size_t v = 0; v < g.size(); ++v) {
    const OpId x = static_cast<OpId>(v);
    if (g.op(x).is_source()) continue;
    ++computing;
    std::uint64_t& sum = uses_matrix_peak(g.op(x).kind) ? matrix_flops : vector_flops;
    sum = saturating_add(sum, op_flops(g, x));
  }
  const std::uint64_t kernels = fewest_kernels(space);
  if (kernels == 0) return out;
  const double roofline_us = kernel_time_us(bytes, vector_flops, matrix_flops, space.hardware) - space.hardware.launch_us;
  const double exact_ps = (roofline_us + static_cast<double>(kernels) * space.hardware.launch_us) * 1e6;
  const double slack = static_cast<double>(computing) + 2.0;  // per-kernel rounding down, and the double sums
  out.time_lower_ps = exact_ps > slack ? kernel_ps((exact_ps - slack) / 1e6) : 0;
  out.time_slack_ps = computing + 2;
  return out;
}

}  // namespace fusion::search
