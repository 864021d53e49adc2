// search/differences.cpp — greedy's merges replayed, and each differing edge explained (differences.h).
#include "search/differences.h"

#include <optional>

#include "detail/legality.h"
#include "search/op_name.h"
#include "search/union_find.h"

namespace fusion::search {
namespace {

struct Edge {
  OpId producer = 0, consumer = 0;
  std::int64_t index = 0;  // plan edge index
};

// Greedy's merges in its order, and per plan edge the merges made before greedy decided it.
struct Replay {
  std::vector<Edge> merges;
  std::vector<std::int64_t> turn;
};

// Ops of each group as compressed rows by representative.
struct Members {
  std::vector<std::int64_t> offsets;
  std::vector<OpId> ids;
  const OpId* begin(OpId r) const { return ids.data() + offsets[r]; }
  const OpId* end(OpId r) const { return ids.data() + offsets[r + 1]; }
};

// The groups after greedy's first k merges: a representative per op and each group's members.
struct Prefix {
  std::vector<OpId> rep;
  Members members;
};

// What blocks merging two groups: a shape-failing edge a -> b between them, or an op a of another group on a path
// from one to the other.
struct Blocker {
  bool shape = false;
  OpId a = 0, b = 0;
};

struct Context {
  const FusionGraph& g;
  const detail::Producers& producers;
  const detail::Consumers& consumers;
  bool broadcast;
  Replay replay;
};

Replay replay_greedy(const detail::Producers& producers, const std::vector<OpId>& order,
                     const detail::Grouping& greedy) {
  Replay r;
  r.turn.assign(producers.ids.size(), 0);
  UnionFind<OpId> groups(order.size());
  for (OpId v : order)
    for (std::int64_t e = producers.offsets[v]; e < producers.offsets[v + 1]; ++e) {
      const OpId u = producers.ids[static_cast<std::size_t>(e)];
      r.turn[static_cast<std::size_t>(e)] = static_cast<std::int64_t>(r.merges.size());
      if (greedy.reasons[static_cast<std::size_t>(e)] != EdgeReason::none || groups.find(u) == groups.find(v)) continue;
      groups.join(u, v);
      r.merges.push_back({u, v, e});
    }
  return r;
}

Prefix prefix(const Context& c, std::int64_t k) {
  const std::size_t n = c.g.size();
  UnionFind<OpId> groups(n);
  for (std::int64_t i = 0; i < k; ++i) groups.join(c.replay.merges[i].producer, c.replay.merges[i].consumer);
  Prefix p;
  p.rep.resize(n);
  p.members.offsets.assign(n + 1, 0);
  for (std::size_t x = 0; x < n; ++x) ++p.members.offsets[(p.rep[x] = groups.find(static_cast<OpId>(x))) + 1];
  for (std::size_t x = 0; x < n; ++x) p.members.offsets[x + 1] += p.members.offsets[x];
  p.members.ids.resize(n);
  std::vector<std::int64_t> next(p.members.offsets.begin(), p.members.offsets.end() - 1);
  for (std::size_t x = 0; x < n; ++x) p.members.ids[static_cast<std::size_t>(next[p.rep[x]]++)] = static_cast<OpId>(x);
  return p;
}

std::optional<Blocker> shape_blocker(const Context& c, const Prefix& p, OpId from, OpId to) {
  for (const OpId* x = p.members.begin(from); x != p.members.end(from); ++x)
    for (const OpId* y = c.consumers.begin(*x); y != c.consumers.end(*x); ++y)
      if (p.rep[*y] == to && detail::local_reason(c.g.op(*x), c.g.op(*y), c.broadcast) == EdgeReason::shape)
        return Blocker{true, *x, *y};
  return std::nullopt;
}

// A breadth-first walk over the groups reachable from group `from` through groups other than `to`.
std::optional<Blocker> cycle_blocker(const Context& c, const Prefix& p, OpId from, OpId to) {
  std::vector<bool> seen(c.g.size(), false);
  std::vector<OpId> queue;
  auto visit = [&](OpId group, bool first) -> std::optional<Blocker> {
    for (const OpId* x = p.members.begin(group); x != p.members.end(group); ++x)
      for (const OpId* y = c.consumers.begin(*x); y != c.consumers.end(*x); ++y) {
        const OpId r = p.rep[*y];
        if (r == to && !first) return Blocker{false, *x, 0};
        if (r == to || r == from || seen[r]) continue;
        seen[r] = true;
        queue.push_back(r);
      }
    return std::nullopt;
  };
  if (auto found = visit(from, true)) return found;
  for (std::size_t head = 0; head < queue.size(); ++head)
    if (auto found = visit(queue[head], false)) return found;
  return std::nullopt;
}

std::optional<Blocker> blocker(const Context& c, std::int64_t k, OpId u, OpId v) {
  const Prefix p = prefix(c, k);
  const OpId a = p.rep[u], b = p.rep[v];
  if (auto found = shape_blocker(c, p, a, b)) return found;
  if (auto found = shape_blocker(c, p, b, a)) return found;
  return cycle_blocker(c, p, a, b);
}

std::string arrow(const FusionGraph& g, OpId a, OpId b) { return op_name(g, a) + " → " + op_name(g, b); }

std::string ordinal(std::int64_t k) {
  const std::int64_t last = k % 10, tens = k % 100;
  const char* suffix = tens >= 11 && tens <= 13 ? "th" : last == 1 ? "st" : last == 2 ? "nd" : last == 3 ? "rd" : "th";
  return std::to_string(k) + suffix;
}

std::string consequence(const FusionGraph& g, const Blocker& b) {
  if (b.shape) return "put " + arrow(g, b.a, b.b) + ", whose shapes may not share a kernel, inside one kernel (shape)";
  return "put " + std::string(to_string(g.op(b.a).kind)) + " " + op_name(g, b.a) +
         " between two parts of one kernel (a cycle)";
}

// Why greedy cut u -> v; culprit: the 1-based merge after which it could no longer be fused (0: none, never could).
std::string why_cut(const Context& c, const Edge& e, std::int64_t& culprit) {
  culprit = 0;
  const std::string edge = arrow(c.g, e.producer, e.consumer);
  if (const std::optional<Blocker> at_start = blocker(c, 0, e.producer, e.consumer))
    return "greedy cut " + edge + ": another path joins them, so fusing " + edge + " alone would " +
           consequence(c.g, *at_start) + "; the optimal plan fuses " + op_name(c.g, at_start->a) + " with both";
  std::int64_t lo = 0, hi = c.replay.turn[static_cast<std::size_t>(e.index)];
  std::optional<Blocker> at_hi = blocker(c, hi, e.producer, e.consumer);
  if (!at_hi) return "greedy cut " + edge + " when it reached it";  // not reached: greedy refused it at its turn
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (std::optional<Blocker> at_mid = blocker(c, mid, e.producer, e.consumer)) hi = mid, at_hi = at_mid;
    else lo = mid;
  }
  culprit = hi;
  const Edge& merge = c.replay.merges[static_cast<std::size_t>(hi - 1)];
  return "greedy fused " + arrow(c.g, merge.producer, merge.consumer) + " first (its " + ordinal(hi) +
         " merge); after that, fusing " + edge + " would " + consequence(c.g, *at_hi);
}

// The 1-based merge after which u and v share a group, per edge (all fused by greedy).
std::vector<std::int64_t> joining_merges(const Context& c, const std::vector<Edge>& edges) {
  std::vector<std::int64_t> out(edges.size(), 0);
  UnionFind<OpId> groups(c.g.size());
  std::size_t left = edges.size();
  for (std::size_t i = 0; i < c.replay.merges.size() && left > 0; ++i) {
    groups.join(c.replay.merges[i].producer, c.replay.merges[i].consumer);
    for (std::size_t k = 0; k < edges.size(); ++k)
      if (out[k] == 0 && groups.find(edges[k].producer) == groups.find(edges[k].consumer))
        out[k] = static_cast<std::int64_t>(i + 1), --left;
  }
  return out;
}

std::string why_fused(const Context& c, const Edge& e, std::int64_t joined, const std::vector<Edge>& cut,
                      const std::vector<std::int64_t>& culprits) {
  const Edge& merge = c.replay.merges[static_cast<std::size_t>(joined - 1)];
  std::string why = merge.index == e.index
                        ? "greedy fused " + arrow(c.g, e.producer, e.consumer) + " (its " + ordinal(joined) + " merge)"
                        : "greedy put " + op_name(c.g, e.producer) + " and " + op_name(c.g, e.consumer) +
                              " in one kernel with its " + ordinal(joined) + " merge (" +
                              arrow(c.g, merge.producer, merge.consumer) + ")";
  std::string blocked;
  int more = 0;
  for (std::size_t k = 0; k < cut.size(); ++k) {
    if (culprits[k] != joined) continue;
    if (blocked.empty()) blocked = arrow(c.g, cut[k].producer, cut[k].consumer);
    ++more;
  }
  if (blocked.empty()) return why + "; the optimal plan keeps them apart";
  return why + ", which later kept " + blocked + (more > 1 ? " and " + std::to_string(more - 1) + " more" : "") +
         " from fusing; the optimal plan keeps them apart";
}

}  // namespace

void explain_differences(const FusionGraph& g, const detail::Producers& producers,
                         const detail::Consumers& consumers, const std::vector<OpId>& order, bool broadcast,
                         const detail::Grouping& greedy, const std::vector<OpId>& searched, SearchCertificate& into) {
  std::vector<Edge> listed;
  into.differences_total = 0;
  for (std::size_t v = 0; v < g.size(); ++v)
    for (std::int64_t e = producers.offsets[v]; e < producers.offsets[v + 1]; ++e) {
      const OpId u = producers.ids[static_cast<std::size_t>(e)];
      const bool in_greedy = greedy.representative[u] == greedy.representative[v];
      if (in_greedy == (searched[u] == searched[v])) continue;
      ++into.differences_total;
      if (listed.size() < kMaxExplainedDifferences) listed.push_back({u, static_cast<OpId>(v), e});
    }
  if (listed.empty()) return;
  const Context c{g, producers, consumers, broadcast, replay_greedy(producers, order, greedy)};
  std::vector<Edge> cut, fused;
  for (const Edge& e : listed)
    (greedy.representative[e.producer] == greedy.representative[e.consumer] ? fused : cut).push_back(e);
  std::vector<std::string> cut_why(cut.size());
  std::vector<std::int64_t> culprits(cut.size(), 0);
  for (std::size_t k = 0; k < cut.size(); ++k) cut_why[k] = why_cut(c, cut[k], culprits[k]);
  const std::vector<std::int64_t> joined = joining_merges(c, fused);
  std::size_t next_cut = 0, next_fused = 0;
  for (const Edge& e : listed) {
    const bool was_fused = greedy.representative[e.producer] == greedy.representative[e.consumer];
    std::string why = was_fused ? why_fused(c, e, joined[next_fused++], cut, culprits) : std::move(cut_why[next_cut++]);
    into.differences.push_back({e.producer, e.consumer, was_fused, std::move(why)});
  }
}

}  // namespace fusion::search
