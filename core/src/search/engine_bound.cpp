// search/engine_bound.cpp — the coarse components and the bound of engine_bound.h.
#include "search/engine_bound.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "detail/saturating.h"
#include "fusion/strategy.h"
#include "fusion/time_model.h"
#include "search/union_find.h"

namespace fusion::search {
namespace {

using detail::saturating_add;

// Beyond this many regions holding packable components, each counts one kernel (the chains cost a pass each).
constexpr std::size_t kMostChainRegions = 8;

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

// Per component representative of non-source ops: distinct outside tensors read plus forced writes
// (engine_bound.h); 0 elsewhere.
std::vector<std::uint64_t> component_bytes(const SearchSpace& space, const detail::Producers& producers,
                                           const std::vector<OpId>& rep) {
  const FusionGraph& g = space.graph;
  std::vector<std::pair<OpId, OpId>> reads;  // (component, tensor)
  std::vector<std::uint64_t> total(g.size(), 0);
  for (std::size_t v = 0; v < g.size(); ++v) {
    const OpId x = static_cast<OpId>(v);
    if (g.op(x).is_source()) continue;
    for (const OpId* in = producers.begin(x); in != producers.end(x); ++in)
      if (rep[*in] != rep[v]) reads.emplace_back(rep[v], *in);
    bool forced = space.graph_output(x) && !(copyable(space, x) && space.consumers.count(x) > 0);
    for (const OpId* c = space.consumers.begin(x); c != space.consumers.end(x) && !forced; ++c) forced = rep[*c] != rep[v];
    if (forced) total[rep[v]] = saturating_add(total[rep[v]], space.bytes_of(x));
  }
  std::sort(reads.begin(), reads.end());
  reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
  for (const auto& [component, tensor] : reads) total[component] = saturating_add(total[component], space.bytes_of(tensor));
  return total;
}

// Blocked edges (engine_bound.h): a fusible p -> c inside one component where another reader b of p never shares a
// group and reaches c. Their extra bytes, a lower bound per component (the most over its blocked edges).
class BlockedEdges {
 public:
  BlockedEdges(const SearchSpace& space, const detail::Producers& producers, const std::vector<OpId>& rep,
               const std::vector<OpId>& order)
      : space_(space), producers_(producers), rep_(rep), position_(space.graph.size()), seen_(space.graph.size(), 0) {
    for (std::size_t k = 0; k < order.size(); ++k) position_[static_cast<std::size_t>(order[k])] = k;
  }

  // Adds each component's extra to bytes; marks in `blocked` the components holding a blocked edge.
  void add_extra(std::vector<std::uint64_t>& bytes, std::vector<char>& blocked) {
    const FusionGraph& g = space_.graph;
    std::vector<std::uint64_t> extra(g.size(), 0);
    for (std::size_t v = 0; v < g.size(); ++v) {
      const OpId p = static_cast<OpId>(v);
      if (g.op(p).is_source() || !space_.fusible_node(p)) continue;
      for (const OpId* b = space_.consumers.begin(p); b != space_.consumers.end(p); ++b) {
        if (space_.fusible_node(*b)) continue;
        for (const OpId* c = space_.consumers.begin(p); c != space_.consumers.end(p); ++c) {
          if (rep_[static_cast<std::size_t>(*c)] != rep_[v] || !space_.fusible_node(*c) || !reaches(*b, *c)) continue;
          calls_ = 0;
          const std::uint64_t need = needed(p, rep_[v], kUncapped, 0, true);
          extra[rep_[v]] = std::max(extra[rep_[v]], need);
          blocked[rep_[v]] = 1;
        }
      }
    }
    for (std::size_t v = 0; v < g.size(); ++v) bytes[v] = saturating_add(bytes[v], extra[v]);
  }

 private:
  static constexpr std::uint64_t kUncapped = ~std::uint64_t{0};
  static constexpr int kDeepest = 6;             // recursion depth of needed; deeper counts 0
  static constexpr std::size_t kCallsPerEdge = 256;
  static constexpr std::size_t kVisitsPerSearch = 4096, kVisitsInAll = std::size_t{1} << 22;

  // Does `from` reach `to` through the graph? false when the search runs out of its budget (no edge is then blocked).
  bool reaches(OpId from, OpId to) {
    if (position_[static_cast<std::size_t>(from)] >= position_[static_cast<std::size_t>(to)]) return false;
    ++mark_;
    std::vector<OpId> stack{from};
    std::size_t visits = 0;
    while (!stack.empty()) {
      const OpId x = stack.back();
      stack.pop_back();
      if (x == to) return true;
      if (++visits > kVisitsPerSearch || ++visits_in_all_ > kVisitsInAll) return false;
      for (const OpId* c = space_.consumers.begin(x); c != space_.consumers.end(x); ++c)
        if (seen_[static_cast<std::size_t>(*c)] != mark_ && position_[static_cast<std::size_t>(*c)] <= position_[static_cast<std::size_t>(to)]) {
          seen_[static_cast<std::size_t>(*c)] = mark_;
          stack.push_back(*c);
        }
    }
    return false;
  }

  // What c's kernel must read beyond the component's count to have x's value (engine_bound.h); cap: the least
  // bytes of the component's ops between x and p, which p's owner reads otherwise. Top: x is p itself.
  std::uint64_t needed(OpId x, OpId component, std::uint64_t cap, int depth, bool top) {
    const std::uint64_t own = space_.bytes_of(x);
    if (rep_[static_cast<std::size_t>(x)] != component || space_.graph.op(x).is_source() || !space_.fusible_node(x))
      return std::min(own, cap);
    if (!copyable(space_, x)) return own;
    if (depth >= kDeepest || ++calls_ > kCallsPerEdge) return 0;
    const std::uint64_t below = top ? kUncapped : std::min(cap, own);
    std::uint64_t most = 0;
    for (const OpId* q = producers_.begin(x); q != producers_.end(x); ++q)
      most = std::max(most, needed(*q, component, below, depth + 1, false));
    return std::min(own, most);
  }

  const SearchSpace& space_;
  const detail::Producers& producers_;
  const std::vector<OpId>& rep_;
  std::vector<std::size_t> position_;
  std::vector<std::uint32_t> seen_;
  std::uint32_t mark_ = 0;
  std::size_t visits_in_all_ = 0, calls_ = 0;
};

// The longest chain of ops in `packable` components of one region, each reaching the next by a path whose first
// edge the rule table never fuses, or in another component than the next and not recomputable (engine_bound.h: no
// two of them share a kernel). One pass in topological order keeping, per op, the two longest chains whose last ops
// so reach it, under different component ids (a chain whose last step starts with a never-fused edge gets an id of
// its own: any op may follow it).
std::uint64_t longest_chain(const SearchSpace& space, const detail::Producers& producers, const std::vector<OpId>& order,
                            const std::vector<OpId>& rep, const std::vector<char>& packable, const std::string& region) {
  struct End { std::uint64_t length = 0; OpId component = -1; };
  struct Best { End first, second; };  // first.length >= second.length, different components
  const auto offer = [](Best& b, End e) {
    if (e.length == 0) return;
    if (e.component == b.first.component) { b.first.length = std::max(b.first.length, e.length); return; }
    if (e.length > b.first.length) { b.second = b.first; b.first = e; return; }
    if (e.component != b.second.component && e.length > b.second.length) b.second = e;
    else if (e.component == b.second.component) b.second.length = std::max(b.second.length, e.length);
  };
  const auto fused_ever = [&](OpId p, OpId c) { return space.fusible_node(p) && space.fusible_node(c) && space.fusible(p, c); };
  std::vector<Best> reach(space.graph.size());
  std::vector<std::uint64_t> ends(space.graph.size(), 0);  // the longest chain ending at the op (0: not in one)
  std::uint64_t longest = 0;
  for (OpId x : order) {
    Best& b = reach[static_cast<std::size_t>(x)];
    for (const OpId* p = producers.begin(x); p != producers.end(x); ++p) {
      const Best from = reach[static_cast<std::size_t>(*p)];
      offer(b, from.first);
      offer(b, from.second);
      const std::uint64_t end = ends[static_cast<std::size_t>(*p)];
      if (end > 0 && !fused_ever(*p, x))  // the next op may lie in p's own component: an id no component has
        offer(b, End{end, static_cast<OpId>(space.graph.size()) + *p});
      else if (end > 0 && !copyable(space, *p))
        offer(b, End{end, rep[static_cast<std::size_t>(*p)]});
    }
    const OpId c = rep[static_cast<std::size_t>(x)];
    if (!packable[static_cast<std::size_t>(c)] || space.graph.op(x).region != region || space.graph.op(x).is_source() ||
        !space.fusible_node(x))
      continue;
    ends[static_cast<std::size_t>(x)] = 1 + (b.first.component != c ? b.first.length : b.second.length);
    longest = std::max(longest, ends[static_cast<std::size_t>(x)]);
  }
  return longest;
}

// The kernels no plan avoids (engine_bound.h) besides the ops that never share a group: one per heavy op that may
// share one; one per component of loop ops only whose every part moves more than horizontal_small_bytes (it packs
// with nothing), two when it holds a blocked edge; per region, the longest chain of ops in the other components of
// loop ops only (they may pack, but
// never two ops of a chain into one kernel).
std::uint64_t fewest_shared_kernels(const SearchSpace& space, const detail::Producers& producers, const std::vector<OpId>& rep,
                                    const std::vector<char>& blocked) {
  const FusionGraph& g = space.graph;
  struct Component { bool loop = false, host = false; std::uint64_t least_in = ~std::uint64_t{0}, least_out = ~std::uint64_t{0}; };
  std::vector<Component> components(g.size());
  std::uint64_t kernels = 0;
  for (std::size_t v = 0; v < g.size(); ++v) {
    const OpId x = static_cast<OpId>(v);
    const FusionOp& op = g.op(x);
    if (op.is_source() || !space.fusible_node(x)) continue;
    Component& c = components[rep[v]];
    (is_heavy_kind(op.kind) ? c.host : c.loop) = true;
    kernels += is_heavy_kind(op.kind) ? 1 : 0;
    std::uint64_t in = 0;
    for (const OpId* p = producers.begin(x); p != producers.end(x); ++p) in = saturating_add(in, space.bytes_of(*p));
    c.least_in = std::min(c.least_in, in);
    const bool written = space.graph_output(x) || !copyable(space, x);  // else its readers may all hold copies
    c.least_out = std::min(c.least_out, written ? space.bytes_of(x) : 0);
  }
  std::map<std::string, bool> packable_regions;
  std::vector<char> packable(g.size(), 0);
  const std::uint64_t small = static_cast<std::uint64_t>(std::max<std::int64_t>(0, space.rules->horizontal_small_bytes));
  for (std::size_t v = 0; v < g.size(); ++v) {
    const Component& c = components[v];
    if (!c.loop || c.host) continue;
    if (small == 0 || saturating_add(c.least_in, c.least_out) > small) {
      kernels += blocked[v] ? 2 : 1;  // a blocked edge's two ends are in two kernels
    } else {
      packable[v] = 1;
      packable_regions[g.op(static_cast<OpId>(v)).region] = true;
    }
  }
  if (packable_regions.empty()) return kernels;
  const std::optional<std::vector<OpId>> order = detail::topological_order(g, space.consumers);
  if (!order || packable_regions.size() > kMostChainRegions) return kernels + packable_regions.size();
  for (const auto& [region, any] : packable_regions)
    kernels += std::max<std::uint64_t>(1, longest_chain(space, producers, *order, rep, packable, region));
  return kernels;
}

struct Work {
  std::uint64_t bytes = 0, vector_flops = 0, matrix_flops = 0;
  void add_flops(const FusionGraph& g, OpId x) {
    std::uint64_t& sum = uses_matrix_peak(g.op(x).kind) ? matrix_flops : vector_flops;
    sum = saturating_add(sum, op_flops(g, x));
  }
};

}  // namespace

EngineBound engine_lower_bound(const SearchSpace& space, const detail::Producers& producers, const FusionPlan& greedy_plan) {
  const FusionGraph& g = space.graph;
  const std::vector<OpId> rep = coarse_components(space, producers);
  std::vector<std::uint64_t> bytes = component_bytes(space, producers, rep);
  const std::optional<std::vector<OpId>> order = detail::topological_order(g, space.consumers);
  std::vector<char> blocked(g.size(), 0);
  if (order) BlockedEdges(space, producers, rep, *order).add_extra(bytes, blocked);
  EngineBound out;
  for (std::uint64_t b : bytes) out.bytes_lower = saturating_add(out.bytes_lower, b);
  for (const FusionGroup& group : greedy_plan.groups)
    if (std::all_of(group.ops.begin(), group.ops.end(), [&](OpId x) { return g.op(x).is_source(); }))
      out.bytes_lower = saturating_add(out.bytes_lower, saturating_add(group.bytes_read, group.bytes_written));
  // Time: an op that never shares a group is its own kernel in every plan, priced alone; the rest as one roofline.
  Work shared;
  std::uint64_t alone_ps = 0, computing = 0;
  for (std::size_t v = 0; v < g.size(); ++v) {
    const OpId x = static_cast<OpId>(v);
    if (g.op(x).is_source()) continue;
    ++computing;
    if (space.fusible_node(x)) {
      shared.add_flops(g, x);
      if (rep[v] == x) shared.bytes = saturating_add(shared.bytes, bytes[v]);
      continue;
    }
    Work own{bytes[v]};
    own.add_flops(g, x);
    alone_ps = saturating_add(alone_ps, kernel_ps(kernel_time_us(own.bytes, own.vector_flops, own.matrix_flops, space.hardware)));
  }
  const std::uint64_t kernels = fewest_shared_kernels(space, producers, rep, blocked);
  out.time_slack_ps = computing + 2;
  double shared_ps = 0.0;
  if (kernels > 0) {
    const double roofline_us =
        kernel_time_us(shared.bytes, shared.vector_flops, shared.matrix_flops, space.hardware) - space.hardware.launch_us;
    shared_ps = (roofline_us + static_cast<double>(kernels) * space.hardware.launch_us) * 1e6;
  }
  const double exact_ps = static_cast<double>(alone_ps) + shared_ps, slack = static_cast<double>(out.time_slack_ps);
  out.time_lower_ps = exact_ps > slack ? kernel_ps((exact_ps - slack) / 1e6) : 0;
  return out;
}

}  // namespace fusion::search
