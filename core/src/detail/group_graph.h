// detail/group_graph.h — groups of ops under merging, with the exact lock-step cycle check of grouping.h.
//
// A union-find over ops whose groups are kept in a topological order of the group graph by an
// order-maintenance list, plus per group the outside neighbours the cycle check walks. Used by the seed
// grouping (grouping.cpp) and the strategy grouping (strategy_grouping.cpp); grouping.h states the
// algorithm and its cost. Nothing recurses.
#pragma once

#include <cstdint>
#include <vector>

#include "detail/node_view.h"
#include "detail/order_list.h"
#include "detail/topology.h"
#include "fusion/graph.h"

namespace fusion::detail {

// Union-find over ops plus, per group representative, the state the cycle check needs.
class GroupGraph {
 public:
  // `g`: the graph's ops, or a preset's lean rows (node_view.h); it reads nothing else of the graph.
  GroupGraph(NodeView g, const Consumers& consumers, const std::vector<OpId>& order)
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

  OpId find(OpId x) {  // the representative of x's group
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

  // Merges groups a and c (representatives, a before c in the order) if that keeps the group graph
  // acyclic; returns false (no change) otherwise. A non-zero step_budget bounds the two walks: when
  // it runs out the merge is refused as if it closed a cycle (safe, but no longer exact).
  bool merge_if_acyclic(OpId a, OpId c, std::uint64_t step_budget = 0) {
    if (!acyclic(a, c, step_budget)) return false;
    merge_checked();
    return true;
  }
  // merge_if_acyclic in two steps: the check alone (changes nothing but the walks' marks), then, when it said
  // yes and nothing changed since, the merge it checked.
  bool acyclic(OpId a, OpId c, std::uint64_t step_budget = 0);
  void merge_checked();
  // After acyclic() said no: did it find a cycle (a path between the two groups through a third), rather than
  // run out of steps?
  bool found_cycle() const { return found_cycle_; }

  std::int32_t size(OpId group) const { return size_[group]; }
  // Position of a group (by representative) in the maintained topological order of groups.
  std::uint64_t order_label(OpId group) const { return order_.label(group); }

 private:
  struct Walk;
  void unite(OpId a, OpId c, OpId keep_place_of);
  void list_neighbours(OpId single_op);  // fills the lists of a one-op group from the graph

  NodeView g_;
  const Consumers& consumers_;
  std::vector<OpId> parent_;
  std::vector<std::int32_t> size_;
  OrderList order_;                             // representatives in a topological order of groups
  std::vector<std::uint32_t> seen_forward_;     // per representative: last query whose forward walk reached it
  std::vector<std::uint32_t> seen_backward_;    // ... and whose backward walk reached it
  std::uint32_t query_ = 0;
  // The last acyclic() that said yes: its groups, which walk ran out, and the groups that walk reached.
  OpId checked_a_ = -1, checked_c_ = -1;
  bool checked_forward_ = false;
  bool found_cycle_ = false;
  std::vector<OpId> checked_reached_;
  // Outside neighbours of multi-op groups, per representative (stale entries inside the group are
  // skipped by the walks). A single op's neighbours are read from the graph, so lists exist only for
  // groups that have merged.
  std::vector<std::vector<OpId>> preds_;
  std::vector<std::vector<OpId>> succs_;
  bool has_lists(OpId group) const { return size_[group] > 1; }
  std::vector<std::vector<OpId>> forbidden_;    // per representative: ops it must not absorb
};

}  // namespace fusion::detail
