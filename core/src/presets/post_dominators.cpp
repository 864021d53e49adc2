// post_dominators.cpp — the tree of post_dominators.h.
#include "presets/post_dominators.h"

#include <algorithm>

namespace fusion::presets {
namespace {

TvmPattern combine(TvmPattern a, TvmPattern b) { return std::max(a, b); }

}  // namespace

PostDominatorTree::PostDominatorTree(const PresetInput& in) {
  const std::size_t n = in.graph.size();
  parent_.assign(n, -1);
  pattern_.assign(n, TvmPattern::opaque);
  depth_.assign(n, 0);
  jump_.assign(n, -1);
  jump_max_.assign(n, TvmPattern::opaque);
  for (auto it = in.order.rbegin(); it != in.order.rend(); ++it) {
    const OpId x = *it;
    if (in.graph.op(x).is_source()) continue;
    if (is_graph_output(in, x)) {
      attach(x, -1, TvmPattern::opaque);
      continue;
    }
    TvmPattern acc = TvmPattern::elemwise;
    OpId ancestor = -1;
    bool first = true;
    for (auto c = in.consumers.begin(x); c != in.consumers.end(x); ++c) {
      acc = combine(acc, tvm_edge_pattern(in.graph.op(x), in.graph.op(*c)));
      ancestor = first ? *c : (ancestor < 0 ? -1 : common_ancestor(ancestor, *c, acc));
      first = false;
    }
    attach(x, ancestor, acc);
  }
}

void PostDominatorTree::attach(OpId x, OpId parent, TvmPattern pattern) {
  parent_[x] = parent;
  pattern_[x] = pattern;
  if (parent < 0) {
    depth_[x] = 1;
    jump_[x] = x;
    jump_max_[x] = pattern;
    return;
  }
  depth_[x] = depth_[parent] + 1;
  const OpId j = jump_[parent];
  const bool even = parent != j && depth_[parent] - depth_[j] == depth_[j] - depth_[jump_[j]];
  jump_[x] = even ? jump_[j] : parent;
  jump_max_[x] = even ? combine(pattern, combine(jump_max_[parent], jump_max_[j])) : pattern;
}

// Climbs from x to its ancestor at `depth`, folding the patterns of the nodes it leaves into acc.
OpId PostDominatorTree::lift(OpId x, std::int32_t depth, TvmPattern& acc) const {
  while (depth_[x] > depth) {
    if (jump_[x] != x && depth_[jump_[x]] >= depth) {
      acc = combine(acc, jump_max_[x]);
      x = jump_[x];
    } else {
      acc = combine(acc, pattern_[x]);
      x = parent_[x];
    }
  }
  return x;
}

// The least common ancestor of a and b, or -1 when they are in different trees.
OpId PostDominatorTree::common_ancestor(OpId a, OpId b, TvmPattern& acc) const {
  if (depth_[a] > depth_[b]) a = lift(a, depth_[b], acc);
  if (depth_[b] > depth_[a]) b = lift(b, depth_[a], acc);
  while (a != b) {
    if (parent_[a] < 0 || parent_[b] < 0) return -1;  // two roots
    if (jump_[a] != jump_[b]) {
      acc = combine(acc, combine(jump_max_[a], jump_max_[b]));
      a = jump_[a];
      b = jump_[b];
    } else {
      acc = combine(acc, combine(pattern_[a], pattern_[b]));
      a = parent_[a];
      b = parent_[b];
    }
  }
  return a;
}

}  // namespace fusion::presets
