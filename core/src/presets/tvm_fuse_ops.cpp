// tvm_fuse_ops.cpp — the `tvm` strategy: TVM Relay's FuseOps (apache/tvm src/relay/transforms/fuse_ops.cc,
// GraphPartitioner::RunFuse), re-stated over our graph.
//
// Each non-source op starts as its own group with its pattern (tvm_patterns.h). Phases 0 and 1 visit the
// ops in topological order (TVM: post-DFS order) and try to fuse each op into its immediate
// post-dominator d (post_dominators.h), merging every op on the paths between them into d's group:
//  - skipped when the op's own group pattern is kOpaque, it has no post-dominator (graph outputs, or
//    consumers that never meet), it is already in d's group, or the fused group would pass max_depth
//    (d's group size plus the sizes of the groups on the paths; TVM's CountFusedNodesWithNewChild);
//  - kOutEWiseFusable (conv, matmul, pools; phase 0 only): when the combined pattern to d is kElemWise and
//    every group on the paths, d's included, is at most kBroadcast;
//  - at most kBroadcast: when the combined pattern to d is at most kInjective or kCommReduce, every group
//    on the paths is at most kInjective, and d's group is at most kInjective, kCommReduce or
//    kOutEWiseFusable;
//  - kInjective (phase 1 only): when every group on the paths, d's included, is at most kInjective;
//  - kCommReduce: never (a reduction takes no consumers).
// Merging takes the sink's group pattern, except that a group holding a kOutEWiseFusable op passes that
// pattern on. Phase 2 of TVM fuses injective ops into intermediate tuples; our graph has no tuple nodes
// (concat reads its inputs directly), so phase 0 and 1 already cover it. Ops of different regions never
// share a path. Every edge left unfused gets the first reason that fits: source, region, barrier_producer
// (an opaque or reduction producer), barrier_consumer (an opaque or kOutEWiseFusable consumer, or an
// injective producer into a reduction), output (a graph output), limit (max_depth), post_dominator.
// Cost: O((n + m) log n) for the tree; each fusion attempt walks at most max_depth ops (when set).
#include <algorithm>
#include <string>

#include "presets/post_dominators.h"
#include "presets/presets.h"
#include "presets/tvm_patterns.h"

namespace fusion::presets {
namespace {

using P = TvmPattern;

class FuseOps {
 public:
  explicit FuseOps(const PresetInput& in) : in_(in), tree_(in), max_depth_(in.options.rules.max_depth) {
    const std::size_t n = in.graph.size();
    parent_.assign(n, -1);
    size_.assign(n, 1);
    anchor_.assign(n, 0);
    pattern_.resize(n);
    refusal_.assign(n, EdgeReason::post_dominator);
    seen_.assign(n, 0);
    for (std::size_t x = 0; x < n; ++x) {
      pattern_[x] = tvm_pattern(in.graph.op(static_cast<OpId>(x)).kind);
      anchor_[x] = pattern_[x] == P::out_ewise_fusable;
    }
  }

  detail::Grouping run() {
    for (int phase = 0; phase < 2; ++phase)
      for (OpId x : in_.order)
        if (!in_.graph.op(x).is_source()) visit(x, phase);
    detail::Grouping out;
    out.representative.resize(in_.graph.size());
    for (std::size_t x = 0; x < in_.graph.size(); ++x) out.representative[x] = find(static_cast<OpId>(x));
    out.reasons.assign(in_.producers.ids.size(), EdgeReason::none);
    for (std::size_t v = 0; v < in_.graph.size(); ++v)
      for (auto k = in_.producers.offsets[v]; k < in_.producers.offsets[v + 1]; ++k) {
        const OpId u = in_.producers.ids[static_cast<std::size_t>(k)];
        if (find(u) != find(static_cast<OpId>(v))) out.reasons[static_cast<std::size_t>(k)] = reason(u, static_cast<OpId>(v));
      }
    describe(out);
    return out;
  }

 private:
  OpId find(OpId x) {
    OpId root = x;
    while (parent_[root] >= 0) root = parent_[root];
    while (parent_[x] >= 0) {
      const OpId next = parent_[x];
      parent_[x] = root;
      x = next;
    }
    return root;
  }

  void visit(OpId x, int phase) {
    const P own = pattern_[x];  // the op's own group object, as TVM reads it
    if (own == P::opaque) return;
    const OpId d = tree_.parent(x);
    if (d < 0) {
      refusal_[x] = is_graph_output(in_, x) ? EdgeReason::output : EdgeReason::post_dominator;
      return;
    }
    if (find(x) == find(d)) return;
    if (too_deep(x, d)) {
      refusal_[x] = EdgeReason::limit;
      return;
    }
    const P to_d = tree_.pattern(x);
    bool fuse = false;
    if (own == P::out_ewise_fusable) {
      if (phase != 0) return;
      fuse = to_d == P::elemwise && path_ok(x, d, [](P p, bool) { return p <= P::broadcast; });
    } else if (own <= P::broadcast) {
      fuse = (to_d <= P::injective || to_d == P::comm_reduce) && path_ok(x, d, [](P p, bool sink) {
               return sink ? p <= P::comm_reduce || p == P::out_ewise_fusable : p <= P::injective;
             });
    } else if (own == P::injective) {
      if (phase != 1) return;
      fuse = path_ok(x, d, [](P p, bool) { return p <= P::injective; });
    }
    if (fuse) commit(x, d);
  }

  // Walks the ops on the paths from x (exclusive) to its post-dominator d (inclusive), calling visit on
  // each; stops when visit returns false. Iterative; each op once per walk.
  template <typename Visit>
  bool walk(OpId x, OpId d, Visit&& visit, bool include_start) {
    ++mark_;
    std::vector<OpId>& stack = stack_;
    stack.clear();
    if (include_start) {
      seen_[x] = mark_;
      if (!visit(x)) return false;
    }
    for (auto c = in_.consumers.begin(x); c != in_.consumers.end(x); ++c) stack.push_back(*c);
    while (!stack.empty()) {
      const OpId y = stack.back();
      stack.pop_back();
      if (seen_[y] == mark_) continue;
      seen_[y] = mark_;
      if (!visit(y)) return false;
      if (y == d) continue;
      for (auto c = in_.consumers.begin(y); c != in_.consumers.end(y); ++c) stack.push_back(*c);
    }
    return true;
  }

  template <typename Condition>
  bool path_ok(OpId x, OpId d, Condition&& condition) {
    const std::string& region = in_.graph.op(x).region;
    return walk(x, d, [&](OpId y) {
      return in_.graph.op(y).region == region && condition(pattern_[find(y)], y == d);
    }, false);
  }

  // Would fusing x into d make a group larger than max_depth? d's group plus every other group met on the
  // paths from x (inclusive) to d; the walk stops as soon as the count passes the limit.
  bool too_deep(OpId x, OpId d) {
    if (max_depth_ <= 0) return false;
    const OpId target = find(d);
    std::int64_t count = size_[target];
    ++group_mark_;
    if (group_seen_.size() != in_.graph.size()) group_seen_.assign(in_.graph.size(), 0);
    const bool within = walk(x, d, [&](OpId y) {
      const OpId g = find(y);
      if (y != d && g != target && group_seen_[g] != group_mark_) {
        group_seen_[g] = group_mark_;
        count += size_[g];
      }
      return count <= max_depth_;
    }, true);
    return !within;
  }

  void merge(OpId child, OpId into) {
    child = find(child);
    into = find(into);
    if (child == into) return;
    size_[into] += size_[child];
    parent_[child] = into;
    if (anchor_[child]) {
      anchor_[into] = 1;
      pattern_[into] = std::max(pattern_[into], pattern_[child]);
    }
  }

  void commit(OpId x, OpId d) {
    walk(x, d, [&](OpId y) {
      if (y != d) merge(y, d);
      return true;
    }, true);
  }

  EdgeReason reason(OpId u, OpId v) const {
    const FusionOp& p = in_.graph.op(u);
    const FusionOp& c = in_.graph.op(v);
    if (p.is_source()) return EdgeReason::source;
    if (p.region != c.region) return EdgeReason::region;
    const P from = tvm_pattern(p.kind), to = tvm_pattern(c.kind);
    if (from == P::opaque || from == P::comm_reduce) return EdgeReason::barrier_producer;
    if (to == P::opaque || to == P::out_ewise_fusable) return EdgeReason::barrier_consumer;
    if (from == P::injective && to == P::comm_reduce) return EdgeReason::barrier_consumer;
    return refusal_[u];
  }

  void describe(detail::Grouping& out) {
    std::vector<std::int32_t> count(in_.graph.size(), 0);
    for (OpId rep : out.representative) ++count[rep];
    for (std::size_t x = 0; x < in_.graph.size(); ++x) {
      if (out.representative[x] != static_cast<OpId>(x) || count[x] < 2) continue;
      const FusionOp& root = in_.graph.op(static_cast<OpId>(x));
      std::string text = "FuseOps " + std::string(to_string(pattern_[x])) + ": " + std::to_string(count[x]) +
                         " ops fused into their post-dominator " + std::string(to_string(root.kind));
      if (!root.name.empty()) text += " '" + root.name + "'";
      out.rules.emplace_back(static_cast<OpId>(x), std::move(text));
    }
  }

  const PresetInput& in_;
  PostDominatorTree tree_;
  std::int64_t max_depth_;
  std::vector<OpId> parent_;            // union-find over ops (TVM's Group objects)
  std::vector<std::int64_t> size_;      // per root: ops in the group
  std::vector<char> anchor_;            // per root: holds a kOutEWiseFusable op
  std::vector<P> pattern_;              // per op's group object: the op's pattern, updated while a root
  std::vector<EdgeReason> refusal_;     // per op: why its last fusion attempt failed
  std::vector<std::uint32_t> seen_;     // per op: last walk that reached it
  std::vector<std::uint32_t> group_seen_;
  std::uint32_t mark_ = 0, group_mark_ = 0;
  std::vector<OpId> stack_;
};

}  // namespace

detail::Grouping form_tvm_groups(const PresetInput& in) { return FuseOps(in).run(); }

}  // namespace fusion::presets
