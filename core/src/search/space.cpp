// search/space.cpp — the edge and op rules of each search space (space.h).
#include "search/space.h"

#include "detail/legality.h"
#include "detail/strategy_legality.h"
#include "presets/tvm_patterns.h"
#include "presets/xla_kinds.h"

namespace fusion::search {
namespace {

using presets::InductorNode;
using presets::TvmPattern;

bool tvm_apart(const SearchSpace& s, OpId p, OpId c) {
  const TvmPattern a = presets::tvm_pattern(s.graph.op(p).kind), b = presets::tvm_pattern(s.graph.op(c).kind);
  return a == TvmPattern::comm_reduce || s.graph_output(p) || b == TvmPattern::out_ewise_fusable ||
         (a >= TvmPattern::comm_reduce && b >= TvmPattern::comm_reduce) ||
         (a == TvmPattern::out_ewise_fusable && b > TvmPattern::broadcast);
}

std::int32_t region_of(const SearchSpace& s, OpId x) { return s.lowered->op_region[s.plan_op(x)]; }

// Can a reduction's range and another node's share a kernel (codegen/simd.py can_fuse)?
bool ranges_fit(const presets::SchedulerGraph& l, OpId a, OpId b) {
  const bool ra = l.node[a] == InductorNode::reduction, rb = l.node[b] == InductorNode::reduction;
  if (ra && rb) return l.range[a] == l.range[b];
  if (!ra && !rb) return true;  // two numels may still meet a reduction that bridges them
  return ra ? l.range[a].takes(l.range[b].numel) : l.range[b].takes(l.range[a].numel);
}

// May a template's group hold this node: a pointwise node or a ConcatKernel (the scheduler's pointwise_only) of
// the template's numel.
bool epilogue_of(const presets::SchedulerGraph& l, OpId t, OpId x) {
  return presets::pointwise_only(l.node[x]) && l.range[x].numel == l.range[t].numel;
}

bool inductor_apart(const SearchSpace& s, OpId p, OpId c) {
  const presets::SchedulerGraph& l = *s.lowered;
  if (!s.fusible_node(p) || !s.fusible_node(c) || region_of(s, p) != region_of(s, c)) return true;
  if (l.node[c] == InductorNode::template_kernel) return true;
  if (l.node[p] == InductorNode::template_kernel && !epilogue_of(l, p, c)) return true;
  return !ranges_fit(l, p, c);
}

using presets::XlaRole;

std::uint64_t elements_of(const FusionOp& op) { return shape_elements(op.shape).value_or(0); }

bool xla_apart(const SearchSpace& s, OpId p, OpId c) {
  if (!s.fusible_node(p) || !s.fusible_node(c) || s.graph.op(p).region != s.graph.op(c).region) return true;
  const XlaRole a = presets::xla_role(s.graph, p), b = presets::xla_role(s.graph, c);
  const FusionOp& consumer = s.graph.op(c);
  if (a == XlaRole::scatter || (b == XlaRole::scatter && !consumer.inputs.empty() && consumer.inputs.front() == p)) return true;
  if (s.graph.op(p).kind == OpKind::concat && b == XlaRole::reduction) return true;
  if (a != XlaRole::reduction) return false;
  return b != XlaRole::loop || !is_fusible(consumer.kind) || elements_of(consumer) != elements_of(s.graph.op(p));
}

// engine: may the rules let this op share a group (the verifier's kind check)?
bool engine_member(const FusionOp& op, const StrategyRules& r) {
  if (op.is_source()) return false;
  if (is_loop_kind(op.kind, r)) return true;
  if (is_anchor_kind(op.kind)) return r.epilogue;
  return is_reduction_kind(op.kind) && (r.reduction_prologue || r.reduction_epilogue);
}

}  // namespace

bool same_iteration_space(const SiblingKey& a, const SiblingKey& b) {
  if (!a.pairs || !b.pairs) return false;
  if (a.transpose || b.transpose) {
    if (a.reduction || b.reduction) return false;
    if (a.transpose && b.transpose && (a.transpose_in != b.transpose_in || a.transpose_out != b.transpose_out))
      return false;
  }
  return a.space == b.space && (!a.reduction || !b.reduction || a.reduced == b.reduced);
}

SiblingKey SearchSpace::sibling_key(OpId x) const {
  const FusionOp& op = graph.op(x);
  const XlaRole role = presets::xla_role(graph, x);
  SiblingKey key;
  key.pairs = fusible_node(x) && role != XlaRole::scatter && op.kind != OpKind::reshape;
  key.space = elements_of(op);
  if (role == XlaRole::reduction) {
    key.reduction = true;
    key.reduced = key.space;
    if (presets::contiguous_reduction(graph, x) && !op.inputs.empty()) key.space = elements_of(graph.op(op.inputs.front()));
  }
  if (op.kind == OpKind::transpose && !op.inputs.empty()) {
    key.transpose = true;
    key.transpose_in = graph.op(op.inputs.front()).shape;
    key.transpose_out = op.shape;
  }
  return key;
}

bool SearchSpace::packable(OpId a, OpId b) const {
  const FusionOp& x = graph.op(a);
  const FusionOp& y = graph.op(b);
  const auto loop = [&](OpId id, const FusionOp& op) {
    return fusible_node(id) && presets::xla_role(graph, id) == XlaRole::loop && op.kind != OpKind::reshape;
  };
  return loop(a, x) && loop(b, y) && x.region == y.region && elements_of(x) == elements_of(y) &&
         x.dtype_bytes == y.dtype_bytes;
}

std::uint64_t SearchSpace::bytes_of(OpId x) const {
  if (lowered) return lowered->bytes[x];
  return tensor_bytes(graph.op(x).shape, graph.op(x).dtype_bytes).value_or(0);
}

bool SearchSpace::marked_output(OpId x) const { return original ? original->op(plan_op(x)).output : graph.op(x).output; }

bool SearchSpace::fusible_node(OpId x) const {
  switch (kind) {
    case SpaceKind::seed: return !graph.op(x).is_source();
    case SpaceKind::tvm: return !graph.op(x).is_source() && presets::tvm_pattern(graph.op(x).kind) != TvmPattern::opaque;
    case SpaceKind::xla: return !graph.op(x).is_source() && presets::xla_role(graph, x) != presets::XlaRole::own_kernel;
    case SpaceKind::engine: return engine_member(graph.op(x), *rules);
    case SpaceKind::inductor: break;
  }
  const InductorNode node = lowered->node[x];
  return !lowered->is_source(x) && node != InductorNode::own_kernel;
}

bool SearchSpace::apart(OpId p, OpId c) const {
  switch (kind) {
    case SpaceKind::seed: return detail::local_reason(graph.op(p), graph.op(c), broadcast) != EdgeReason::none;
    case SpaceKind::tvm: return tvm_apart(*this, p, c);
    case SpaceKind::inductor: return inductor_apart(*this, p, c);
    case SpaceKind::xla: return xla_apart(*this, p, c);
    case SpaceKind::engine:
      return detail::strategy_edge_reason(graph.op(p), graph.op(c), *rules, broadcast) != EdgeReason::none;
  }
  return true;
}

bool SearchSpace::fusible(OpId p, OpId c) const {
  switch (kind) {
    case SpaceKind::seed: return !apart(p, c);
    case SpaceKind::tvm:
      return fusible_node(p) && fusible_node(c) && graph.op(p).region == graph.op(c).region && !apart(p, c);
    case SpaceKind::inductor:
    case SpaceKind::xla:
    case SpaceKind::engine: return !apart(p, c);
  }
  return false;
}

bool SearchSpace::may_pair(OpId a, OpId b) const {
  if (kind == SpaceKind::engine)  // only loop groups join horizontally; siblings need one element count
    return fusible_node(a) && fusible_node(b) && graph.op(a).region == graph.op(b).region &&
           !is_heavy_kind(graph.op(a).kind) && !is_heavy_kind(graph.op(b).kind) &&
           (rules->horizontal_small_bytes > 0 || detail::element_count(graph.op(a)) == detail::element_count(graph.op(b)));
  if (kind == SpaceKind::xla)
    return graph.op(a).region == graph.op(b).region && same_iteration_space(sibling_key(a), sibling_key(b));
  if (!fusible_node(a) || !fusible_node(b) || region_of(*this, a) != region_of(*this, b)) return false;
  const presets::SchedulerGraph& l = *lowered;
  const bool ta = l.node[a] == InductorNode::template_kernel, tb = l.node[b] == InductorNode::template_kernel;
  if (ta && tb) return false;
  if ((ta && !epilogue_of(l, a, b)) || (tb && !epilogue_of(l, b, a))) return false;  // a template's epilogues
  return ranges_fit(l, a, b);
}

}  // namespace fusion::search
