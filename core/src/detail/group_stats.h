// detail/group_stats.h — exact operand and live-value counts of groups under merging, for the limits.
//
// For every group (by representative; the member lists are the caller's) it keeps: its external inputs
// (distinct producers outside the group), its outputs (members read outside the group, terminal or marked `output`) and its
// multi-use members (read by two or more members; a one-op group's inputs are its producers row, larger
// groups keep a set, detail/op_set.h), so that `operands = inputs + outputs` and
// `live = operands + multi-use` (docs/strategies.md, max_group_operands / max_live_values) are exact.
// `preview(a, c)` answers the counts of the union without changing anything; `commit` applies a merge
// the caller has made. Both scan only the smaller group and its edges: O(size of the smaller group +
// its edges) hash operations, so merging everything costs O((n + m) log n) in total.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "detail/node_view.h"
#include "detail/op_set.h"
#include "detail/topology.h"
#include "fusion/graph.h"

namespace fusion::detail {

struct GroupCounts {
  std::int64_t ops = 0;
  std::int64_t inputs = 0;
  std::int64_t outputs = 0;
  std::int64_t multi_use = 0;
  std::int64_t operands() const { return inputs + outputs; }
  std::int64_t live() const { return inputs + outputs + multi_use; }
};

class GroupStats {
 public:
  // `members` is the caller's member list per representative; the caller merges it right after commit().
  // `g`: the graph's ops, or a preset's lean rows (node_view.h); only its output marks are read.
  GroupStats(NodeView g, const Producers& producers, const Consumers& consumers,
             const std::vector<std::vector<OpId>>& members);

  // `find` maps an op to its group's representative (the caller's union-find).
  template <typename Find>
  GroupCounts preview(OpId a, OpId c, Find&& find) {
    scan(a, c, find);
    return merged_;
  }
  // Right after preview(a, c) and the caller's union of a and c into `into` (one of them), before the
  // caller merges their member lists, with nothing else changed in between: updates the state. `find` now
  // maps both groups to `into`.
  template <typename Find>
  void commit(OpId into, Find&& find) {
    for (const auto& [x, moved] : moved_readers_) {
      outside_readers_[x] -= moved;
      inside_readers_[x] += moved;
    }
    OpSet& large_inputs = inputs_[large_];
    if (members_[large_].size() == 1) large_inputs.insert(producers_.begin(large_), producers_.end(large_));
    for (OpId x : members_[small_]) large_inputs.erase(x);
    for_each_input(small_, [&](OpId q) {
      if (find(q) != into) large_inputs.insert(q);
    });
    apply(into);
  }
  const GroupCounts& counts(OpId group) const { return counts_[group]; }
  // Visits the group's external inputs (distinct producers outside it; one op's: its producers row).
  template <typename Visit>
  void inputs_of(OpId group, Visit&& visit) const {
    for_each_input(group, visit);
  }

 private:
  template <typename Find>
  void scan(OpId a, OpId c, Find&& find);
  void apply(OpId into);
  bool always_output(OpId x) const { return consumers_.count(x) == 0 || g_.output(x); }
  // A one-op group's inputs are its producers row; larger groups keep a set (built on their first merge).
  bool reads(OpId group, OpId q) const {
    if (members_[group].size() == 1) return std::find(producers_.begin(group), producers_.end(group), q) != producers_.end(group);
    return inputs_[group].contains(q);
  }
  template <typename Visit>
  void for_each_input(OpId group, Visit&& visit) const {
    if (members_[group].size() == 1) std::for_each(producers_.begin(group), producers_.end(group), visit);
    else inputs_[group].for_each(visit);
  }

  NodeView g_;
  const Producers& producers_;
  const Consumers& consumers_;
  std::vector<GroupCounts> counts_;
  const std::vector<std::vector<OpId>>& members_;
  std::vector<OpSet> inputs_;
  std::vector<std::int32_t> outside_readers_;  // per op: distinct consumers outside its group
  std::vector<std::int32_t> inside_readers_;   // per op: distinct consumers inside its group
  // The last scan: the two groups (small, large), the counts of their union, and the reader moves.
  OpId small_ = -1, large_ = -1;
  GroupCounts merged_;
  std::vector<std::pair<OpId, std::int32_t>> moved_readers_;  // (member, readers now inside)
};

template <typename Find>
void GroupStats::scan(OpId a, OpId c, Find&& find) {
  small_ = members_[a].size() <= members_[c].size() ? a : c;
  large_ = small_ == a ? c : a;
  const GroupCounts& s = counts_[small_];
  const GroupCounts& l = counts_[large_];
  merged_ = {s.ops + l.ops, s.inputs + l.inputs, s.outputs + l.outputs, s.multi_use + l.multi_use};
  for_each_input(small_, [&](OpId q) {
    if (find(q) == large_ || reads(large_, q)) --merged_.inputs;
  });
  moved_readers_.clear();
  for (OpId x : members_[small_]) {
    if (reads(large_, x)) --merged_.inputs;
    std::int32_t readers_in_large = 0;
    for (auto it = consumers_.begin(x); it != consumers_.end(x); ++it) readers_in_large += find(*it) == large_;
    if (readers_in_large > 0) moved_readers_.emplace_back(x, readers_in_large);
    for (auto it = producers_.begin(x); it != producers_.end(x); ++it)
      if (find(*it) == large_) moved_readers_.emplace_back(*it, 1);
  }
  // Sum the moves per member (a large-group member may be read by several small-group members).
  std::sort(moved_readers_.begin(), moved_readers_.end());
  std::size_t out = 0;
  for (std::size_t k = 0; k < moved_readers_.size(); ++k) {
    if (out > 0 && moved_readers_[out - 1].first == moved_readers_[k].first)
      moved_readers_[out - 1].second += moved_readers_[k].second;
    else
      moved_readers_[out++] = moved_readers_[k];
  }
  moved_readers_.resize(out);
  for (const auto& [x, moved] : moved_readers_) {
    if (!always_output(x) && outside_readers_[x] == moved) --merged_.outputs;
    if (inside_readers_[x] < 2 && inside_readers_[x] + moved >= 2) ++merged_.multi_use;
  }
}

}  // namespace fusion::detail
