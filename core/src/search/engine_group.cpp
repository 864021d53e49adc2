// search/engine_group.cpp — the engine space's group rules (engine_group.h), for the three widths.
#include "search/engine_group.h"

#include <algorithm>

#include "search/union_find.h"

namespace fusion::search {
namespace {

// Is member i written when g is its group (a forced write, or read by a member outside g)?
template <std::size_t W>
bool written(const LocalProblem<W>& p, const Bits<W>& g, std::size_t i) {
  return p.forced_write[i] || p.consumers[i].minus(g).any();
}

template <std::size_t W>
bool reduction_ok(const LocalProblem<W>& p, const Bits<W>& g, std::size_t r) {
  const std::uint64_t reduced = p.elements[r];
  const Bits<W> reduction = Bits<W>::of(r);
  const Bits<W> prologue = reach_within(p.inputs, g, reduction);
  const Bits<W> after = reach_within(p.consumers, g, reduction);
  const Bits<W> epilogue = after | reach_within(p.inputs, g, after).minus(prologue).minus(reduction);  // with side inputs
  bool ok = true;
  epilogue.each([&](std::size_t x) {
    ok = ok && p.elements[x] == reduced && p.outside_elements[x] <= reduced;
    p.inputs[x].minus(g).each([&](std::size_t in) { ok = ok && p.elements[in] <= reduced; });
  });
  prologue.each([&](std::size_t x) { ok = ok && (p.consumers[x] & g).minus(prologue).minus(reduction) == Bits<W>{}; });
  return ok;
}

// Operands (distinct tensors read from outside g, plus written members) and members read by two or more members.
template <std::size_t W>
bool within_limits(const LocalProblem<W>& p, const Bits<W>& g) {
  if (p.max_operands <= 0 && p.max_live <= 0) return true;
  std::int64_t operands = 0, shared = 0;
  for (const OutsideRead<W>& read : p.outside_reads) operands += read.readers.intersects(g) ? 1 : 0;
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    if (!g.test(i)) operands += p.consumers[i].intersects(g) ? 1 : 0;
    else operands += written(p, g, i) ? 1 : 0, shared += (p.consumers[i] & g).several() ? 1 : 0;
  }
  return (p.max_operands <= 0 || operands <= p.max_operands) && (p.max_live <= 0 || operands + shared <= p.max_live);
}

using Roots = UnionFind<std::size_t>;

// Joins the parts of the readers of one element count of one tensor that g's members read from outside g
// (rules.horizontal: sibling fusion).
template <std::size_t W>
void join_shared_reads(const LocalProblem<W>& p, const Bits<W>& g, Roots& parts, Roots& joined) {
  const auto join_all = [&](const Bits<W>& readers) {
    readers.each([&](std::size_t x) {
      readers.each([&](std::size_t y) {
        if (y > x && p.elements[x] == p.elements[y]) joined.join(parts.find(x), parts.find(y));
      });
    });
  };
  for (const OutsideRead<W>& read : p.outside_reads) join_all(read.readers & g);
  for (std::size_t i = 0; i < p.ops.size(); ++i)
    if (!g.test(i)) join_all(p.consumers[i] & g);
}

// Joins every part that moves at most small_bytes as a kernel of its own (its distinct outside reads plus its
// written members).
template <std::size_t W>
void join_small_parts(const LocalProblem<W>& p, const Bits<W>& g, Roots& parts, Roots& joined) {
  std::vector<Bits<W>> members(p.ops.size());
  g.each([&](std::size_t x) { members[parts.find(x)].set(x); });
  std::ptrdiff_t first_small = -1;
  g.each([&](std::size_t x) {
    if (parts.find(x) != x) return;
    const Bits<W>& part = members[x];
    std::uint64_t moved = 0;
    for (const OutsideRead<W>& read : p.outside_reads) moved += read.readers.intersects(part) ? read.bytes : 0;
    for (std::size_t i = 0; i < p.ops.size(); ++i) {
      if (!g.test(i)) moved += p.consumers[i].intersects(part) ? p.bytes[i] : 0;
      else if (part.test(i) && written(p, g, i)) moved += p.bytes[i];
    }
    if (moved > p.small_bytes) return;
    if (first_small >= 0) joined.join(x, static_cast<std::size_t>(first_small));
    else first_small = static_cast<std::ptrdiff_t>(x);
  });
}

// Are g's parts (members joined by edges inside g) all joined by the horizontal rules?
template <std::size_t W>
bool parts_joined(const LocalProblem<W>& p, const Bits<W>& g) {
  Roots parts(p.ops.size());
  g.each([&](std::size_t x) { (p.consumers[x] & g).each([&](std::size_t y) { parts.join(y, x); }); });
  std::size_t count = 0;
  g.each([&](std::size_t x) { count += parts.find(x) == x ? 1 : 0; });
  if (count < 2) return true;
  if (g.intersects(p.heavy)) return false;  // horizontal fusion joins loop groups only
  Roots joined(p.ops.size());
  if (p.horizontal) join_shared_reads(p, g, parts, joined);
  if (p.small_bytes > 0) join_small_parts(p, g, parts, joined);
  const std::size_t one = joined.find(parts.find(g.first()));
  bool all = true;
  g.each([&](std::size_t x) { all = all && joined.find(parts.find(x)) == one; });
  return all;
}

}  // namespace

template <std::size_t W>
bool engine_monotone_ok(const LocalProblem<W>& p, const Bits<W>& g) {
  if ((g & p.heavy).several()) return false;
  if (p.max_depth > 0 && g.count() > p.max_depth) return false;
  const Bits<W> anchors = g & p.anchors;
  if (!anchors.any()) return true;
  const std::size_t a = anchors.first();
  return !g.intersects(p.movement) && !p.inputs[a].intersects(g);
}

template <std::size_t W>
bool engine_legal(const LocalProblem<W>& p, const Bits<W>& g) {
  if (!g.several()) return true;
  if (!engine_monotone_ok(p, g)) return false;
  const Bits<W> reductions = g & p.reductions;
  if (reductions.any() && !reduction_ok(p, g, reductions.first())) return false;
  return within_limits(p, g) && parts_joined(p, g);
}

template bool engine_monotone_ok<1>(const LocalProblem<1>&, const Bits<1>&);
template bool engine_legal<1>(const LocalProblem<1>&, const Bits<1>&);
template bool engine_monotone_ok<4>(const LocalProblem<4>&, const Bits<4>&);
template bool engine_legal<4>(const LocalProblem<4>&, const Bits<4>&);
template bool engine_monotone_ok<16>(const LocalProblem<16>&, const Bits<16>&);
template bool engine_legal<16>(const LocalProblem<16>&, const Bits<16>&);

}  // namespace fusion::search
