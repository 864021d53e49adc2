// presets/landmark_reach.h — a cheap proof that merging two groups would make a cycle, checked before the exact
// walk of detail::GroupGraph by the `inductor` procedure (inductor_scheduler.cpp, over its scheduler graph) and
// the later passes of `xla` (xla_fusion_graph.cpp, over its fusion graph).
//
// Reachability to and from landmarks, a few ops spread evenly over the graph (ops with inputs and readers, the
// only ones a path can pass through): per node, the landmarks it reaches and the landmarks that reach it (a
// node reaches itself), as bit rows; a merged
// node's rows are the union of its members'. Paths between ops stay paths between their groups as groups
// merge, so a landmark in neither of two groups that the earlier one reaches and that reaches the later
// one proves a path through a third group: fusing the two would make a cycle. Only proves; never refutes
// (a group may reach more than its members' rows say). At most 1024 landmarks and 32 MiB per table; ids must
// be a topological order. Build O(m·L/64) for L landmarks; each check or absorb O(L/64).
#pragma once

#include <cstdint>
#include <vector>

#include "detail/group_graph.h"
#include "detail/node_view.h"
#include "detail/topology.h"
#include "fusion/graph.h"

namespace fusion::presets {

class LandmarkReach {
 public:
  // `g`: the graph's ops, or a preset's lean rows (detail/node_view.h).
  LandmarkReach(detail::NodeView g, const detail::Consumers& consumers);

  // The group `into` absorbed the group `from` (representatives).
  void absorb(OpId into, OpId from);
  // Does a landmark outside both groups (representatives) lie on a path from `early` to `late`?
  bool proves_path(OpId early, OpId late, detail::GroupGraph& groups) const;

 private:
  static bool can_be_inside(detail::NodeView g, const detail::Consumers& consumers, OpId x);
  static std::size_t row_words(detail::NodeView g, const detail::Consumers& consumers);
  void choose_landmarks(detail::NodeView g, const detail::Consumers& consumers);
  void set_row_windows(std::size_t n);
  std::uint64_t* row(std::vector<std::uint64_t>& rows, OpId x) const {
    return rows.data() + static_cast<std::size_t>(x) * words_;
  }
  const std::uint64_t* row(const std::vector<std::uint64_t>& rows, OpId x) const {
    return rows.data() + static_cast<std::size_t>(x) * words_;
  }
  void unite_rows(std::vector<std::uint64_t>& rows, OpId into, OpId from, std::size_t begin, std::size_t end) const;

  std::size_t words_;
  std::vector<OpId> landmarks_;  // by bit, ascending
  std::vector<std::uint64_t> reaches_, reached_by_;  // per scheduler node, words_ words each
  // Per representative: the words of its rows that can be non-zero, reaches_ in [first_word_, words_) and
  // reached_by_ in [0, end_word_).
  std::vector<std::uint32_t> first_word_, end_word_;
};

}  // namespace fusion::presets
