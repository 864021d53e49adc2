// search/xla_duplication.cpp — the part's problem under a set of duplicated members (xla_duplication.h).
#include "search/xla_duplication.h"

namespace fusion::search {
namespace {

// Per op of `through`: the ops outside `excluded` it reaches by paths whose inner ops are all in `through` (local
// indices are topological: one pass from the last member). reached_through(p, D, D) is what each op of D reaches
// through D only.
template <std::size_t W>
std::vector<Bits<W>> reached_through(const LocalProblem<W>& p, const Bits<W>& through, const Bits<W>& excluded) {
  std::vector<Bits<W>> reached(p.ops.size());
  for (std::size_t d = p.ops.size(); d-- > 0;) {
    if (!through.test(d)) continue;
    reached[d] = p.consumers[d].minus(excluded);
    (p.consumers[d] & through).each([&](std::size_t e) { reached[d] |= reached[e]; });
  }
  return reached;
}

// The edges kept (no end in D) and the edges x -> c through D, without repeats.
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
  return edges;
}

// The members of each set of `from` (one per op of `over`), as lists for add_pairs.
template <std::size_t W>
std::vector<std::vector<int>> lists_of(const Bits<W>& over, const std::vector<Bits<W>>& from) {
  std::vector<std::vector<int>> lists;
  over.each([&](std::size_t d) {
    std::vector<int>& list = lists.emplace_back();
    from[d].each([&](std::size_t c) { list.push_back(static_cast<int>(c)); });
  });
  return lists;
}

// Two members reached from one copy (they read its inputs) pair when they have one iteration space.
template <std::size_t W>
void add_copy_siblings(const Bits<W>& over, const std::vector<Bits<W>>& reached, LocalProblem<W>& p) {
  add_pairs(lists_of(over, reached), [&](std::size_t a, std::size_t b) { return same_iteration_space(p.sibling[a], p.sibling[b]); },
            p);
}

}  // namespace

template <std::size_t W>
LocalProblem<W> with_duplicated(const LocalProblem<W>& base, const Bits<W>& duplicated) {
  LocalProblem<W> p = base;
  p.duplicated = duplicated;
  const std::vector<Bits<W>> down = reached_through(base, duplicated, duplicated);
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
  add_copy_siblings(duplicated, down, p);
  for (std::size_t i = 0; i < p.ops.size(); ++i) p.apart_readers[i] = base.apart_readers[i].minus(duplicated);
  find_cycle_order(p);
  return p;
}

template <std::size_t W>
LocalProblem<W> with_open_duplication(const LocalProblem<W>& base, const Bits<W>& duplicated, const Bits<W>& open) {
  LocalProblem<W> p = with_duplicated(base, duplicated);
  const Bits<W> either = duplicated | open;
  add_copy_siblings(either, reached_through(p, either, duplicated), p);
  return p;
}

template LocalProblem<1> with_duplicated<1>(const LocalProblem<1>&, const Bits<1>&);
template LocalProblem<4> with_duplicated<4>(const LocalProblem<4>&, const Bits<4>&);
template LocalProblem<16> with_duplicated<16>(const LocalProblem<16>&, const Bits<16>&);
template LocalProblem<1> with_open_duplication<1>(const LocalProblem<1>&, const Bits<1>&, const Bits<1>&);
template LocalProblem<4> with_open_duplication<4>(const LocalProblem<4>&, const Bits<4>&, const Bits<4>&);
template LocalProblem<16> with_open_duplication<16>(const LocalProblem<16>&, const Bits<16>&, const Bits<16>&);

}  // namespace fusion::search
