// presets/post_dominators.h — the post-dominator tree TVM's FuseOps builds (DominatorTree::PostDom), with
// the combined edge pattern from each op to its immediate post-dominator.
//
// Over the non-source ops of a validated graph, in reverse topological order: a graph output (`output`, or
// read by no op; TVM's extern_ref) has no post-dominator. Any other op's immediate post-dominator is the
// least common ancestor, in the tree built so far, of its consumers; none when they lie in different trees
// (in TVM they would meet only at the function's output tuple, which nothing fuses into). The op's pattern
// is the largest of its out-edges' patterns (tvm_patterns.h) and of the tree patterns of every node passed
// while climbing to that ancestor (the ancestor itself excluded), starting from kElemWise — as TVM's
// LeastCommonAncestor accumulates it.
//
// Climbing uses jump pointers (each node keeps one ancestor jump whose length depends only on its depth,
// with the largest pattern along the jump), so each common-ancestor query takes O(log depth) steps and the
// tree costs O((n + m) log n) time and O(n) memory. TVM climbs one parent at a time, which is quadratic on
// graphs where every op also feeds the last one (dense connections); the answer is the same.
#pragma once

#include <vector>

#include "presets/presets.h"
#include "presets/tvm_patterns.h"

namespace fusion::presets {

class PostDominatorTree {
 public:
  explicit PostDominatorTree(const PresetInput& in);

  OpId parent(OpId x) const { return parent_[x]; }          // immediate post-dominator, or -1
  TvmPattern pattern(OpId x) const { return pattern_[x]; }  // combined pattern to it

 private:
  OpId common_ancestor(OpId a, OpId b, TvmPattern& acc) const;
  OpId lift(OpId x, std::int32_t depth, TvmPattern& acc) const;
  void attach(OpId x, OpId parent, TvmPattern pattern);

  std::vector<OpId> parent_;
  std::vector<TvmPattern> pattern_;
  std::vector<std::int32_t> depth_;  // 1 for a root; 0 for ops not in the tree (sources)
  std::vector<OpId> jump_;           // an ancestor (the node itself for a root)
  std::vector<TvmPattern> jump_max_; // largest pattern from the node up to, not including, jump_
};

}  // namespace fusion::presets
