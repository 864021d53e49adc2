// search/xla_duplication.cpp — the part's problem under a set of duplicated members (xla_duplication.h).
#include "search/xla_duplication.h"

namespace fusion::search {
namespace {

// Per member of D: the members outside D it reaches through D only (local indices are topological: one pass from
// the last member).
template <std::size_t W>
std::vector<Bits<W>> reached_through(const LocalProblem<W>& p, const Bits<W>& duplicated) {
  std::vector<Bits<W>> down(p.ops.size());
  for (std::size_t d = p.ops.size(); d-- > 0;) {
    if (!duplicated.test(d)) continue;
    down[d] = p.consumers[d].minus(duplicated);
    (p.consumers[d] & duplicated).each([&](std::size_t e) { down[d] |= down[e]; });
  }
  return down;
}

// The pairs kept (no end in D), the edges x -> c through D, and the sibling pairs of members reached from one d.
template <std::size_t W>
std::vector<LocalEdge> edges_under(const LocalProblem<W>& base, const Bits<W>& duplicated,
                                   const std::vector<Bits<W>>& down) {
  std::vector<LocalEdge> edges;
  std::vector<Bits<W>> paired(base.ops.size());
  const auto add = [&](int a, int b, std::int64_t plan_edge) {
    const auto x = static_cast<std::size_t>(a), y = static_cast<std::size_t>(b);
    if (x == y || paired[x].test(y)) return;
    paired[x].set(y);
    paired[y].set(x);
    edges.push_back({a, b, plan_edge});
  };
  for (const LocalEdge& e : base.edges)
    if (!duplicated.test(static_cast<std::size_t>(e.producer)) && !duplicated.test(static_cast<std::size_t>(e.consumer)))
      add(e.producer, e.consumer, e.plan_edge);
  for (const LocalEdge& e : base.edges) {
    const auto d = static_cast<std::size_t>(e.consumer);
    if (e.plan_edge < 0 || duplicated.test(static_cast<std::size_t>(e.producer)) || !duplicated.test(d)) continue;
    down[d].each([&](std::size_t c) { add(e.producer, static_cast<int>(c), -1); });
  }
  duplicated.each([&](std::size_t d) {
    std::vector<int> readers;
    down[d].each([&](std::size_t c) { readers.push_back(static_cast<int>(c)); });
    for (std::size_t a = 0; a < readers.size(); ++a)
      for (std::size_t b = a + 1; b < readers.size() && b <= a + kSharedBufferWindow; ++b)
        if (same_iteration_space(base.sibling[static_cast<std::size_t>(readers[a])],
                                 base.sibling[static_cast<std::size_t>(readers[b])]))
          add(readers[a], readers[b], -1);
  });
  return edges;
}

}  // namespace

template <std::size_t W>
LocalProblem<W> with_duplicated(const LocalProblem<W>& base, const Bits<W>& duplicated) {
  LocalProblem<W> p = base;
  p.duplicated = duplicated;
  const std::vector<Bits<W>> down = reached_through(base, duplicated);
  const auto through = [&](const Bits<W>& reached) {
    Bits<W> out = reached.minus(duplicated);
    (reached & duplicated).each([&](std::size_t d) { out |= down[d]; });
    return out;
  };
  p.copy_of.assign(p.ops.size(), {});
  duplicated.each([&](std::size_t d) { down[d].each([&](std::size_t c) { p.copy_of[c].set(d); }); });
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const bool copy = duplicated.test(i);
    p.direct[i] = copy ? Bits<W>{} : through(base.direct[i]);
    p.via[i] = copy ? Bits<W>{} : through(base.via[i]);
  }
  p.edges = edges_under(base, duplicated, down);
  for (std::size_t i = 0; i < p.ops.size(); ++i) p.apart_readers[i] = base.apart_readers[i].minus(duplicated);
  find_cycle_order(p);
  return p;
}

template <std::size_t W>
LocalProblem<W> with_open_duplication(const LocalProblem<W>& base, const Bits<W>& duplicated, const Bits<W>& open) {
  LocalProblem<W> p = with_duplicated(base, duplicated);
  const Bits<W> either = duplicated | open;
  std::vector<Bits<W>> reached(p.ops.size());  // per op of either: the others it reaches through either only
  for (std::size_t d = p.ops.size(); d-- > 0;) {
    if (!either.test(d)) continue;
    reached[d] = p.consumers[d].minus(duplicated);
    (p.consumers[d] & either).each([&](std::size_t e) { reached[d] |= reached[e]; });
  }
  std::vector<Bits<W>> paired(p.ops.size());
  for (const LocalEdge& e : p.edges) {
    paired[static_cast<std::size_t>(e.producer)].set(static_cast<std::size_t>(e.consumer));
    paired[static_cast<std::size_t>(e.consumer)].set(static_cast<std::size_t>(e.producer));
  }
  either.each([&](std::size_t d) {
    std::vector<std::size_t> readers;
    reached[d].each([&](std::size_t c) { readers.push_back(c); });
    for (std::size_t a = 0; a < readers.size(); ++a)
      for (std::size_t b = a + 1; b < readers.size() && b <= a + kSharedBufferWindow; ++b) {
        const std::size_t x = readers[a], y = readers[b];
        if (paired[x].test(y) || !same_iteration_space(base.sibling[x], base.sibling[y])) continue;
        paired[x].set(y);
        paired[y].set(x);
        p.edges.push_back({static_cast<int>(x), static_cast<int>(y), -1});
      }
  });
  return p;
}

template LocalProblem<1> with_duplicated<1>(const LocalProblem<1>&, const Bits<1>&);
template LocalProblem<4> with_duplicated<4>(const LocalProblem<4>&, const Bits<4>&);
template LocalProblem<16> with_duplicated<16>(const LocalProblem<16>&, const Bits<16>&);
template LocalProblem<1> with_open_duplication<1>(const LocalProblem<1>&, const Bits<1>&, const Bits<1>&);
template LocalProblem<4> with_open_duplication<4>(const LocalProblem<4>&, const Bits<4>&, const Bits<4>&);
template LocalProblem<16> with_open_duplication<16>(const LocalProblem<16>&, const Bits<16>&, const Bits<16>&);

}  // namespace fusion::search
