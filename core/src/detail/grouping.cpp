// grouping.cpp — greedy merging with the lock-step cycle check described in grouping.h.
#include "detail/grouping.h"

#include <algorithm>
#include <utility>

#include "detail/legality.h"
#include "detail/order_list.h"

namespace fusion::detail {
namespace {

// Union-find over ops plus, per group representative, the state the cycle check needs.
class GroupGraph {
 public:
  GroupGraph(const FusionGraph& g, const Consumers& consumers, const std::vector<OpId>& order)
      : g_(g), consumers_(consumers), order_(order, g.size()) {
    const std::size_t n = g.size();
    parent_.resize(n);
    size_.assign(n, 1);
    seen_forward_.assign(n, 0);
    seen_backward_.assign(n, 0);
    preds_.resize(n);
    succs_.resize(n);
    forbidden_.resize(n);
    for (std::size_t x = 0; x < n; ++x) parent_[x] = static_cast<OpId>(x);
  }

  OpId find(OpId x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];
      x = parent_[x];
    }
    return x;
  }

  // Remembers that ops a and b must never share a group (an edge between them has unmergeable shapes).
  void forbid(OpId a, OpId b) {
    forbidden_[find(a)].push_back(b);
    forbidden_[find(b)].push_back(a);
  }

  // Would merging groups a and b put an edge with unmergeable shapes inside one group?
  bool has_forbidden_pair(OpId a, OpId b) {
    if (forbidden_[a].size() > forbidden_[b].size()) std::swap(a, b);
    for (OpId other : forbidden_[a])
      if (find(other) == b) return true;
    return false;
  }

  // Merges group a into c if that keeps the group graph acyclic; returns false (no change) otherwise.
  bool merge_if_acyclic(OpId a, OpId c);

 private:
  struct Walk;
  void unite(OpId a, OpId c, OpId keep_place_of);
  void list_neighbours(OpId single_op);  // fills the lists of a one-op group from the graph

  const FusionGraph& g_;
  const Consumers& consumers_;
  std::vector<OpId> parent_;
  std::vector<std::int32_t> size_;
  OrderList order_;                             // representatives in a topological order of groups
  std::vector<std::uint32_t> seen_forward_;     // per representative: last query whose forward walk reached it
  std::vector<std::uint32_t> seen_backward_;    // ... and whose backward walk reached it
  std::uint32_t query_ = 0;
  // Outside neighbours of multi-op groups, per representative (stale entries inside the group are
  // skipped by the walks). A single op's neighbours are read from the graph, so lists exist only for
  // groups that have merged.
  std::vector<std::vector<OpId>> preds_;
  std::vector<std::vector<OpId>> succs_;
  bool has_lists(OpId group) const { return size_[group] > 1; }
  std::vector<std::vector<OpId>> forbidden_;    // per representative: ops it must not absorb
};

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
      const std::vector<OpId>& in = listed ? gg.preds_[group] : gg.g_.op(group).inputs;
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
    if (!forward && gg.g_.op(h).is_source()) return;  // sources start paths; A cannot reach them
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

bool GroupGraph::merge_if_acyclic(OpId a, OpId c) {
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
  while (!forward.done && !backward.done) {
    forward.step();
    backward.step();
  }
  if (forward.found_cycle || backward.found_cycle) return false;
  // Repair the order with the exhausted side only: what A reaches before C moves to just after C, or
  // what reaches C after A moves to just before A. The merged group keeps C's or A's place.
  auto by_label = [this](OpId x, OpId y) { return order_.label(x) < order_.label(y); };
  if (forward.done) {
    std::sort(forward.reached.begin(), forward.reached.end(), by_label);
    OpId anchor = c;
    for (OpId x : forward.reached) order_.move_after(x, anchor), anchor = x;
    unite(a, c, c);
  } else {
    std::sort(backward.reached.begin(), backward.reached.end(), by_label);
    for (OpId x : backward.reached) order_.move_before(x, a);
    unite(a, c, a);
  }
  return true;
}

void GroupGraph::list_neighbours(OpId x) {
  if (has_lists(x)) return;
  for (OpId in : g_.op(x).inputs)
    if (!g_.op(in).is_source()) preds_[x].push_back(in);  // sources start paths, never continue them
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

}  // namespace

Grouping form_groups(const FusionGraph& g, const Producers& producers, const Consumers& consumers,
                     const std::vector<OpId>& order, const PlannerOptions& options) {
  const std::size_t n = g.size();
  Grouping result;
  result.reasons.assign(producers.ids.size(), EdgeReason::none);
  GroupGraph groups(g, consumers, order);

  for (OpId v : order) {
    const FusionOp& consumer = g.op(v);
    const OpId* inputs = producers.begin(v);
    const std::size_t count = producers.count(v);
    EdgeReason* reasons = result.reasons.data() + producers.offsets[v];
    for (std::size_t k = 0; k < count; ++k) {
      reasons[k] = local_reason(g.op(inputs[k]), consumer, options.broadcast);
      if (reasons[k] == EdgeReason::shape) groups.forbid(inputs[k], v);
    }
    for (std::size_t k = 0; k < count; ++k) {
      if (reasons[k] != EdgeReason::none) continue;
      const OpId a = groups.find(inputs[k]);
      const OpId c = groups.find(v);
      if (a == c) continue;  // already inside one group
      if (groups.has_forbidden_pair(a, c)) {
        reasons[k] = EdgeReason::shape;
      } else if (!groups.merge_if_acyclic(a, c)) {
        reasons[k] = EdgeReason::cycle;
      }
    }
  }
  result.representative.resize(n);
  for (std::size_t x = 0; x < n; ++x) result.representative[x] = groups.find(static_cast<OpId>(x));
  return result;
}

}  // namespace fusion::detail
