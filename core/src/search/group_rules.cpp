// search/group_rules.cpp — the group rules of each search space (group_rules.h), for the three widths.
#include "search/group_rules.h"

#include <algorithm>

#include "search/engine_group.h"

namespace fusion::search {
namespace {

// tvm: the conditions of may_join that concern one set alone.
template <std::size_t W>
bool tvm_monotone_ok(const LocalProblem<W>& p, const Bits<W>& g) {
  if ((g & p.heavy).count() > 1) return false;
  if (p.max_depth > 0 && g.count() > p.max_depth) return false;
  const Bits<W> anchor = g & p.out_ewise;
  if (!anchor.any()) return true;
  bool ok = true;
  reach_within(p.direct, g, Bits<W>::of(anchor.first())).each([&](std::size_t s) { ok = ok && p.pattern[s] <= presets::TvmPattern::broadcast; });
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

// xla: the ops g's kernel computes: its members and their copies (xla_duplication.h).
template <std::size_t W>
Bits<W> kernel_of(const LocalProblem<W>& p, const Bits<W>& g) {
  Bits<W> kernel = g;
  if (p.duplicated.any()) g.each([&](std::size_t s) { kernel |= p.copy_of[s]; });
  return kernel;
}

// xla: the conditions of may_join that concern one set alone (each stays violated in every superset): no
// reduction reaches another in the kernel, everything a reduction reaches in it is elementwise of the reduction's
// output elements (its epilogue), and a scatter's kernel holds neither its in-place operand nor a reader of it.
// (A path that leaves the group and comes back is a cycle, so "reaches" needs no path inside.)
template <std::size_t W>
bool xla_monotone_ok(const LocalProblem<W>& p, const Bits<W>& g) {
  const Bits<W> kernel = kernel_of(p, g);
  bool ok = true;
  (g & p.reductions).each([&](std::size_t r) {
    const Bits<W> after = p.reach[r] & kernel;
    ok = ok && !after.intersects(p.reductions) && after.minus(p.elementwise) == Bits<W>{};
    after.each([&](std::size_t s) { ok = ok && p.elements[s] == p.elements[r]; });
  });
  (g & p.scatters).each([&](std::size_t s) {
    ok = ok && !p.consumers[s].intersects(kernel) && (p.inplace[s] < 0 || !kernel.test(static_cast<std::size_t>(p.inplace[s])));
  });
  return ok;
}

// xla: is member i of g written? Forced, or read by another group: a member outside g reads it, directly or through
// duplicated members, which that group then computes too (direct[], xla_duplication.h).
template <std::size_t W>
bool xla_written(const LocalProblem<W>& p, const Bits<W>& g, std::size_t i) {
  return p.forced_write[i] || p.direct[i].minus(g).any();
}

// xla: the group's operands (distinct tensors its kernel reads from memory) plus its outputs (members written).
template <std::size_t W>
std::int64_t xla_operands(const LocalProblem<W>& p, const Bits<W>& g, const Bits<W>& kernel) {
  std::int64_t count = 0;
  for (const OutsideRead<W>& read : p.outside_reads) count += read.readers.intersects(kernel) ? 1 : 0;
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    if (kernel.test(i)) count += g.test(i) && xla_written(p, g, i) ? 1 : 0;
    else count += p.consumers[i].intersects(kernel) ? 1 : 0;
  }
  return count;
}

// xla: a legal group: xla_monotone_ok, a bitcast (reshape) that reads its kernel is not written (nothing fuses into
// a bitcast root), and at most max_operands operands and outputs.
template <std::size_t W>
bool xla_legal(const LocalProblem<W>& p, const Bits<W>& g) {
  if (!xla_monotone_ok(p, g)) return false;
  const Bits<W> kernel = kernel_of(p, g);
  bool ok = true;
  (g & p.reshapes).each([&](std::size_t m) {
    bool reads_kernel = false;
    kernel.each([&](std::size_t s) { reads_kernel = reads_kernel || p.consumers[s].test(m); });
    ok = ok && (!reads_kernel || !xla_written(p, g, m));
  });
  return ok && (p.max_operands <= 0 || xla_operands(p, g, kernel) <= p.max_operands);
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
    case SpaceKind::xla: return xla_monotone_ok(p, a | b);
    case SpaceKind::engine: return engine_monotone_ok(p, a | b);
  }
  return true;
}

template <std::size_t W>
bool legal_group(const LocalProblem<W>& p, const Bits<W>& g) {
  if (p.kind == SpaceKind::xla) return !g.minus(p.duplicated).any() || xla_legal(p, g);  // copies only: no kernel
  if (p.kind == SpaceKind::engine) return engine_legal(p, g);
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
