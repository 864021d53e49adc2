// group_graph.cpp — the union-find, the order repair and the lock-step cycle check of group_graph.h.
#include "detail/group_graph.h"

#include <algorithm>
#include <utility>

namespace fusion::detail {

// One of the two searches of a cycle check: a best-first walk over groups whose order labels lie in
// the window (lo, hi), one neighbour per step, so the two walks can advance in lock step. The forward
// walk expands the reached group nearest C first (highest label), the backward walk the one nearest A
// (lowest label): each heads for the other end, so a cycle, if there is one, is found early.
struct GroupGraph::Walk {
  GroupGraph& gg;
  bool forward;        // forward from `start` along consumers, or backward along producers
  OpId start, target;  // reaching `target` from a group other than `start` means a cycle
  std::uint64_t lo, hi;  // labels of A and C: the window
  std::uint32_t mark;
  std::vector<std::uint32_t>& seen;        // this walk's marks
  std::vector<std::uint32_t>& seen_other;  // the other walk's marks
  std::vector<std::pair<std::uint64_t, OpId>> frontier;  // heap of (priority, group)
  std::vector<OpId> reached;
  OpId current = -1;
  const OpId* next = nullptr;
  const OpId* end = nullptr;
  bool done = false, found_cycle = false;

  void expand(OpId group) {
    current = group;
    const bool listed = gg.has_lists(group);
    if (forward) {
      next = listed ? gg.succs_[group].data() : gg.consumers_.begin(group);
      end = listed ? next + gg.succs_[group].size() : gg.consumers_.end(group);
    } else {
      const std::span<const OpId> in =
          listed ? std::span<const OpId>(gg.preds_[group]) : gg.g_.inputs(group);
      next = in.data();
      end = next + in.size();
    }
  }

  void step() {
    if (next == end) {
      if (frontier.empty()) {
        done = true;
        return;
      }
      std::pop_heap(frontier.begin(), frontier.end());
      expand(frontier.back().second);
      frontier.pop_back();
      return;
    }
    const OpId h = gg.find(*next++);
    if (h == target) {
      found_cycle = found_cycle || current != start;
      done = done || found_cycle;
      return;
    }
    const std::uint64_t label = gg.order_.label(h);
    if (h == start || label <= lo || label >= hi || seen[h] == mark) return;
    if (!forward && gg.g_.is_source(h)) return;  // sources start paths; A cannot reach them
    if (seen_other[h] == mark) {  // A reaches h and h reaches C: h lies between the halves
      found_cycle = done = true;
      return;
    }
    seen[h] = mark;
    frontier.emplace_back(forward ? label : ~label, h);
    std::push_heap(frontier.begin(), frontier.end());
    reached.push_back(h);
  }
};

bool GroupGraph::acyclic(OpId a, OpId c, std::uint64_t step_budget) {
  if (++query_ == 0) {  // wrapped around: clear old marks
    std::fill(seen_forward_.begin(), seen_forward_.end(), 0);
    std::fill(seen_backward_.begin(), seen_backward_.end(), 0);
    query_ = 1;
  }
  const std::uint64_t lo = order_.label(a), hi = order_.label(c);
  Walk forward{*this, true, a, c, lo, hi, query_, seen_forward_, seen_backward_, {}, {}};
  Walk backward{*this, false, c, a, lo, hi, query_, seen_backward_, seen_forward_, {}, {}};
  forward.expand(a);
  backward.expand(c);
  found_cycle_ = false;
  for (std::uint64_t steps = 0; !forward.done && !backward.done; ++steps) {
    if (step_budget != 0 && steps == step_budget) return false;
    forward.step();
    backward.step();
  }
  found_cycle_ = forward.found_cycle || backward.found_cycle;
  if (found_cycle_) return false;
  checked_a_ = a;
  checked_c_ = c;
  checked_forward_ = forward.done;
  checked_reached_.swap(forward.done ? forward.reached : backward.reached);
  return true;
}

void GroupGraph::merge_checked() {
  const OpId a = checked_a_, c = checked_c_;
  // Repair the order with the exhausted side only: what A reaches before C moves to just after C, or
  // what reaches C after A moves to just before A. The merged group keeps C's or A's place.
  auto by_label = [this](OpId x, OpId y) { return order_.label(x) < order_.label(y); };
  std::sort(checked_reached_.begin(), checked_reached_.end(), by_label);
  if (checked_forward_) {
    OpId anchor = c;
    for (OpId x : checked_reached_) order_.move_after(x, anchor), anchor = x;
    unite(a, c, c);
  } else {
    for (OpId x : checked_reached_) order_.move_before(x, a);
    unite(a, c, a);
  }
}

void GroupGraph::list_neighbours(OpId x) {
  if (has_lists(x)) return;
  const std::span<const OpId> inputs = g_.inputs(x);
  std::size_t kept = 0;  // counted first, so the list is allocated once (xla's fusion nodes read ~13 inputs each)
  for (OpId in : inputs) kept += !g_.is_source(in);
  preds_[x].reserve(kept);
  for (OpId in : inputs)
    if (!g_.is_source(in)) preds_[x].push_back(in);  // sources start paths, never continue them
  succs_[x].assign(consumers_.begin(x), consumers_.end(x));
}

void GroupGraph::unite(OpId a, OpId c, OpId keep_place_of) {
  list_neighbours(a);
  list_neighbours(c);
  if (size_[a] > size_[c]) std::swap(a, c);  // a is now the smaller group; c survives
  parent_[a] = c;
  size_[c] += size_[a];
  if (keep_place_of == c) order_.remove(a);
  else order_.take_place(c, a);
  auto absorb = [](std::vector<OpId>& into, std::vector<OpId>& from) {
    if (into.size() < from.size()) std::swap(into, from);
    into.insert(into.end(), from.begin(), from.end());
    std::vector<OpId>().swap(from);
  };
  absorb(preds_[c], preds_[a]);
  absorb(succs_[c], succs_[a]);
  absorb(forbidden_[c], forbidden_[a]);
}

}  // namespace fusion::detail
