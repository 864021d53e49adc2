// presets/xla_fusion_graph.h — the fusions left by priority fusion as a graph of their own, and the two
// later passes of the `xla` strategy that merge them into multi-output kernels.
//
// One node per source and per fusion (xla_priority_fusion.h), in topological order; a node reads the
// nodes its fusion reads (kept as one table of rows and output marks, detail/node_view.h: no FusionOp per node,
// which is most of what building the graph cost). Merges go through detail::GroupGraph (exact cycle check) and detail::GroupStats
// (operands + outputs, for max_group_operands). A group's iteration space is its reduction's input
// element count (its output's for a reduction that is not row/column-like, xla_kinds.h), or its root's
// element count when it holds no reduction; a group holding a transpose is compatible only with groups of
// the same transpose shapes or with loop groups (ShapesCompatibleForMultiOutputFusion and the transpose
// hero checks), never with a reduction. A lone bitcast (reshape) is no multi-output or horizontal root.
//  - multi_output() (xla/service/gpu/transforms/multi_output_fusion.cc), for each node in order:
//    siblings: the node's fusible readers (at most 16, reductions first) join pairwise when they are not
//    connected by an edge, have the same iteration space (and reduction output size), fit the budget and
//    make no cycle (FuseSiblings); then producer-consumer: a loop fusion read by two or more groups joins
//    the first reader with its iteration space and budget that makes no cycle, and stays an output.
//  - horizontal() (horizontal_loop_fusion.cc): for each node from the last to the first, and for the
//    graph outputs (the ROOT tuple), the loop groups among its operands with at most 128 members and
//    8192·8192 elements, sorted by element size and count, form spans of one element size and count (up
//    to 90 per batch; GetNextSpanOfFusions): each joins the open span when not connected to it by an edge,
//    within the budget and making no cycle, else opens the next; then the ones of at most 30 members and
//    128·2048 elements form spans of one element size that share no operand (sliced input fusion, up
//    to 32). Cycle checks of these merges first look for a proof of a cycle (one a walk found before between
//    the same two groups, kept until one of them merges across an edge; or the landmark index,
//    landmark_reach.h), then walk, bounded (4096 steps; a longer one is skipped).
// Each merge appends what formed the group to its notes. Cost: O((n + m) log n) plus bounded candidate
// lists per node.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "detail/group_graph.h"
#include "detail/group_stats.h"
#include "detail/node_view.h"
#include "presets/landmark_reach.h"
#include "presets/xla_priority_fusion.h"

namespace fusion::presets {

class XlaFusionGraph {
 public:
  XlaFusionGraph(const PresetInput& in, PriorityFusionResult priority);

  void multi_output();
  void horizontal();

  // The final groups over the original ops: representatives, copies, notes and every edge's reason.
  detail::Grouping grouping() const;

 private:
  enum class Role : std::uint8_t { source, loop, reduction, own_kernel };
  // Per op, the representatives of the groups computing it, as rows (ascending once grouping() sorts them).
  struct Holders {
    std::vector<std::int64_t> offsets;  // row x starts at offsets[x]
    std::vector<std::int64_t> ends;     // ... and ends at ends[x]
    std::vector<OpId> ids;
    OpId* begin(OpId x) { return ids.data() + offsets[x]; }
    OpId* end(OpId x) { return ids.data() + ends[x]; }
    const OpId* begin(OpId x) const { return ids.data() + offsets[x]; }
    const OpId* end(OpId x) const { return ids.data() + ends[x]; }
  };
  // Per node, and per representative for the group it names (merge() updates the group fields of the one that
  // stays; dtype_bytes and output stay the node's own). One cache line, so the candidate scans load one each.
  struct alignas(64) Group {
    std::uint64_t space = 0;          // iteration space (elements)
    std::uint64_t reduced = 0;        // the reduction's output elements (reduction groups)
    std::int64_t members = 0;         // original ops, copies counted per fusion
    std::int64_t dtype_bytes = 0;     // the node's element size
    std::int32_t transpose = -1;      // the first transpose's shapes (a tiled-transpose hero), numbered; -1: none
    std::int32_t siblings = 0, producer_outputs = 0, horizontal = 0;
    std::int32_t region = 0;          // its region, numbered (groups merge within one region only)
    Role role = Role::own_kernel;
    bool output = false;              // the node is a graph output
  };

  // What same_space compares of a group: its iteration space, its reduction's output size, its transpose shapes
  // (numbered; -1: none), and whether it holds a reduction.
  struct SpaceKey {
    std::uint64_t space = 0, reduced = 0;
    std::int32_t transpose = -1;
    bool reduction = false;
  };

  std::size_t node_count() const { return root_.size(); }
  detail::NodeView nodes() const { return {producers_, output_}; }
  OpId find(OpId node) { return groups_.find(node); }
  bool fusible(OpId group) const { return info_[group].role == Role::loop || info_[group].role == Role::reduction; }
  SpaceKey space_key(OpId group) const;
  static bool same_space(const SpaceKey& a, const SpaceKey& b);
  bool connected(OpId a, OpId b);                  // an edge between the two groups
  // Groups with these counts: surely over max_group_operands if merged, no edge between them.
  bool over_budget_unconnected(const detail::GroupCounts& a, const detail::GroupCounts& b) const;
  bool shares_operand(OpId a, OpId b);             // some node read by both groups
  // A proof that merging the groups makes a cycle, in either order: a cycle a walk found before between these two
  // groups (kept while neither has merged across an edge since), or the landmark proof.
  bool cycle_proved(OpId a, OpId b);
  void remember_cycle(OpId a, OpId b);
  // Cycle proof, budget, exact cycle check; the merged group. Callers merging groups with no edge between them
  // (siblings, horizontal) check over_budget_unconnected and cycle_proved first, before the dearer edge check.
  // `proof_tried`: the caller found no cycle_proved(a, b) with these groups just before (the proof is not tried
  // again).
  std::optional<OpId> merge(OpId a, OpId b, bool proof_tried = false);
  void edge_reasons(const Holders& holders, const std::vector<OpId>& first_fusion, detail::Grouping& out) const;
  void fuse_siblings(OpId parent);
  void fuse_into_consumer(OpId producer);
  void fuse_operands(std::span<const OpId> operands);
  template <typename Fits>
  void fuse_spans(std::vector<OpId>& candidates, std::int32_t most, Fits&& fits);  // sorts candidates
  bool loop_candidate(OpId group) const;  // a loop group within the same-shape batch limits
  void loop_operands(std::span<const OpId> nodes, std::vector<OpId>& out);

  const PresetInput& in_;
  PriorityFusionResult priority_;
  std::vector<OpId> root_;                    // node -> op id of the source or fusion root
  std::vector<std::size_t> fusion_of_;        // node -> index of its fusion in priority_ (sources: npos)
  std::vector<std::uint8_t> output_;          // node -> a graph output (a fusion whose root is one)
  detail::Producers producers_;               // node -> the nodes it reads (built after the three lists above)
  detail::Consumers consumers_;
  std::vector<OpId> order_;
  detail::GroupGraph groups_;
  LandmarkReach reach_;                       // proofs of cycles before the walk
  std::vector<std::vector<OpId>> members_;    // per representative: its nodes
  detail::GroupStats stats_;
  std::vector<Group> info_;                   // per representative
  std::vector<std::uint8_t> fusible_node_;    // per node: fusible() of its group (merges join fusible groups only)
  // Per representative, during horizontal(): a loop group within the same-shape batch limits (a byte, so the scan
  // of every node's operands reads no group record); set for all at its start, and for each merged group.
  std::vector<std::uint8_t> loop_candidate_;
  // Cycles the walks found, by pair of groups (smaller representative first), with the two groups' epochs then.
  // A path through a third group stays one when groups with no path between them merge (a group on the path
  // and one off it, or two off it, or one of the pair and one off it); a merge across an edge (producer into
  // consumer) may turn it into an edge, so it starts a new epoch of the merged group.
  std::unordered_map<std::uint64_t, std::uint64_t> known_cycles_;
  std::vector<std::uint32_t> epoch_;          // per representative
  std::vector<OpId> scratch_;                 // the one candidate list a pass step works on (no allocation per node)
  std::vector<OpId> batch_;                   // horizontal: the candidates of one kind of batch, sorted
  std::vector<SpaceKey> sibling_keys_;        // fuse_siblings' keys of scratch_
  std::vector<detail::GroupCounts> sibling_counts_;  // ... and their groups' counts
};

}  // namespace fusion::presets
