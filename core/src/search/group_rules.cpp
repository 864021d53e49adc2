// search/group_rules.cpp — the group rules of each search space (group_rules.h), for the three widths.
#include "search/group_rules.h"

#include <algorithm>

namespace fusion::search {
namespace {

// Members of g reachable from member `from` along edges inside g.
template <std::size_t W>
Bits<W> reach_inside(const LocalProblem<W>& p, const Bits<W>& g, std::size_t from) {
  Bits<W> seen, frontier = p.direct[from] & g;
  while (frontier.any()) {
    seen |= frontier;
    Bits<W> next;
    frontier.each([&](std::size_t s) { next |= p.direct[s] & g; });
    frontier = next.minus(seen);
  }
  return seen;
}

// tvm: the conditions of may_join that concern one set alone.
template <std::size_t W>
bool tvm_monotone_ok(const LocalProblem<W>& p, const Bits<W>& g) {
  if ((g & p.heavy).count() > 1) return false;
  if (p.max_depth > 0 && g.count() > p.max_depth) return false;
  const Bits<W> anchor = g & p.out_ewise;
  if (!anchor.any()) return true;
  bool ok = true;
  reach_inside(p, g, anchor.first()).each([&](std::size_t s) { ok = ok && p.pattern[s] <= presets::TvmPattern::broadcast; });
  return ok;
}

// inductor: the conditions of may_join that concern one set alone. Numels of the non-reduction members: with a
// reduction (n, r) each is n·r or n; without one, at most two, the larger a multiple of the smaller (a reduction
// joining later could still bridge them).
template <std::size_t W>
bool inductor_monotone_ok(const LocalProblem<W>& p, const Bits<W>& g) {
  if (p.max_depth > 0 && g.count() > p.max_depth) return false;
  if ((g & p.templates).count() > 1) return false;
  const Bits<W> reductions = g & p.reductions;
  const Bits<W> others = g.minus(reductions);
  bool ok = true;
  if (reductions.any()) {
    const presets::IterationRange r = p.range[reductions.first()];
    reductions.each([&](std::size_t s) { ok = ok && p.range[s] == r; });
    others.each([&](std::size_t s) { ok = ok && r.takes(p.range[s].numel); });
  } else if (others.any()) {
    std::uint64_t low = p.range[others.first()].numel, high = low;
    others.each([&](std::size_t s) {
      const std::uint64_t n = p.range[s].numel;
      if (n != low && n != high && low != high) ok = false;
      low = std::min(low, n), high = std::max(high, n);
    });
    ok = ok && (low == high || (low > 0 && high % low == 0));
  }
  const Bits<W> templates = g & p.templates;
  if (!ok || !templates.any()) return ok;
  const std::size_t t = templates.first();
  others.minus(templates).each([&](std::size_t s) {
    ok = ok && presets::pointwise_only(p.node[s]) && p.range[s].numel == p.range[t].numel &&
         !p.consumers[s].test(t);  // an epilogue of the template's numel, not a producer of it
  });
  return ok && !reductions.any();
}

// Two readers of it in g that never share a group (so it cannot hold both): two heavy ops, an apart or separated
// pair, or one reaching the other through outside ops.
template <std::size_t W>
bool apart_readers(const LocalProblem<W>& p, const Bits<W>& readers, const std::vector<Bits<W>>& separated) {
  if (!readers.several()) return false;
  if ((readers & p.heavy).several()) return true;
  bool apart = false;
  readers.each([&](std::size_t r) {
    apart = apart || p.via[r].intersects(readers) || p.apart[r].intersects(readers) || separated[r].intersects(readers);
  });
  return apart;
}

}  // namespace

template <std::size_t W>
bool has_apart_pair(const LocalProblem<W>& p, const Bits<W>& a, const Bits<W>& b) {
  bool apart = false;
  a.each([&](std::size_t s) { apart = apart || p.apart[s].intersects(b); });
  return apart;
}

template <std::size_t W>
std::int64_t roots_of(const LocalProblem<W>& p, const Bits<W>& g, const std::vector<Bits<W>>* separated) {
  std::int64_t roots = 0;
  g.each([&](std::size_t s) {
    bool root = p.forced_write[s] || p.consumers[s].minus(g).any();
    if (!root && separated)
      root = p.unpostdominated.test(s) || (*separated)[s].intersects(g) || apart_readers(p, p.consumers[s] & g, *separated);
    roots += root ? 1 : 0;
  });
  return roots;
}

template <std::size_t W>
bool may_join(const LocalProblem<W>& p, const Bits<W>& a, const Bits<W>& b) {
  if (has_apart_pair(p, a, b)) return false;
  switch (p.kind) {
    case SpaceKind::seed: return true;
    case SpaceKind::tvm: return tvm_monotone_ok(p, a | b);
    case SpaceKind::inductor: return inductor_monotone_ok(p, a | b);
  }
  return true;
}

template <std::size_t W>
bool legal_group(const LocalProblem<W>& p, const Bits<W>& g) {
  if (p.kind == SpaceKind::seed || g.count() < 2) return true;
  if (p.kind == SpaceKind::inductor) {
    if (!inductor_monotone_ok(p, g)) return false;
    const Bits<W> templates = g & p.templates;
    if (templates.any() && !p.consumers[templates.first()].intersects(g)) return false;  // no epilogue reads it
    const Bits<W> others = g.minus(p.reductions);
    if (!(g & p.reductions).any() && others.any()) {  // without a reduction: one numel
      bool one = true;
      others.each([&](std::size_t s) { one = one && p.range[s].numel == p.range[others.first()].numel; });
      return one;
    }
    return true;
  }
  if (!tvm_monotone_ok(p, g)) return false;
  return roots_of(p, g) == 1;
}

template bool has_apart_pair<1>(const LocalProblem<1>&, const Bits<1>&, const Bits<1>&);
template std::int64_t roots_of<1>(const LocalProblem<1>&, const Bits<1>&, const std::vector<Bits<1>>*);
template bool may_join<1>(const LocalProblem<1>&, const Bits<1>&, const Bits<1>&);
template bool legal_group<1>(const LocalProblem<1>&, const Bits<1>&);
template bool has_apart_pair<4>(const LocalProblem<4>&, const Bits<4>&, const Bits<4>&);
template std::int64_t roots_of<4>(const LocalProblem<4>&, const Bits<4>&, const std::vector<Bits<4>>*);
template bool may_join<4>(const LocalProblem<4>&, const Bits<4>&, const Bits<4>&);
template bool legal_group<4>(const LocalProblem<4>&, const Bits<4>&);
template bool has_apart_pair<16>(const LocalProblem<16>&, const Bits<16>&, const Bits<16>&);
template std::int64_t roots_of<16>(const LocalProblem<16>&, const Bits<16>&, const std::vector<Bits<16>>*);
template bool may_join<16>(const LocalProblem<16>&, const Bits<16>&, const Bits<16>&);
template bool legal_group<16>(const LocalProblem<16>&, const Bits<16>&);

}  // namespace fusion::search
