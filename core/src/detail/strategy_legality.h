// detail/strategy_legality.h — the per-edge rules of the compiler-style strategies (docs/strategies.md).
//
// `strategy_edge_reason` decides one producer -> consumer edge on its own under a rule table: a source
// producer, different regions, heavy ops at both ends (`anchor`), a producer or consumer the rules do not
// let fuse (`barrier_*`), a transpose into a reduction (`layout`), a reduction epilogue of the wrong size
// (`multi_pass`), shapes (the shape rule of docs/design.md §5, except at movement ops and into
// reductions). `none` means the edge may merge as far as the edge goes; group-level rules (one heavy op
// per group, prologue/epilogue sides, limits, cycles) are strategy_grouping.h's. With all rules off it
// answers exactly as legality.h.
#pragma once

#include "detail/legality.h"
#include "fusion/strategy.h"

namespace fusion::detail {

inline std::uint64_t element_count(const FusionOp& op) { return shape_elements(op.shape).value_or(0); }

// Do the rules let any heavy op share a kernel?
inline bool heavy_fusion_on(const StrategyRules& r) {
  return r.epilogue || r.reduction_prologue || r.reduction_epilogue;
}

inline bool is_movement_in(const FusionOp& op, const StrategyRules& r) {
  return is_movement_kind(op.kind) && is_loop_kind(op.kind, r);
}

// Producer side: may this producer's group take this consumer in? (loop producer, anchor epilogue,
// reduction epilogue)
inline EdgeReason producer_side(const FusionOp& p, const FusionOp& c, const StrategyRules& r) {
  if (is_loop_kind(p.kind, r)) return EdgeReason::none;
  if (is_anchor_kind(p.kind) && r.epilogue && is_fusible(c.kind)) return EdgeReason::none;  // elementwise only
  if (is_reduction_kind(p.kind) && r.reduction_epilogue)
    return element_count(c) == element_count(p) ? EdgeReason::none : EdgeReason::multi_pass;
  return EdgeReason::barrier_producer;
}

inline EdgeReason strategy_edge_reason(const FusionOp& p, const FusionOp& c, const StrategyRules& r,
                                       bool broadcast) {
  if (p.is_source()) return EdgeReason::source;
  if (p.region != c.region) return EdgeReason::region;
  if (is_heavy_kind(p.kind) && is_heavy_kind(c.kind))
    return heavy_fusion_on(r) ? EdgeReason::anchor : EdgeReason::barrier_producer;
  if (const EdgeReason side = producer_side(p, c, r); side != EdgeReason::none) return side;
  if (is_reduction_kind(c.kind) && r.reduction_prologue)  // p is a loop op here
    return p.kind == OpKind::transpose ? EdgeReason::layout : EdgeReason::none;
  if (!is_loop_kind(c.kind, r)) return EdgeReason::barrier_consumer;
  if (is_movement_in(p, r) || is_movement_in(c, r)) return EdgeReason::none;
  return shapes_may_merge(p.shape, c.shape, broadcast) ? EdgeReason::none : EdgeReason::shape;
}

}  // namespace fusion::detail
