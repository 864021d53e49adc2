// detail/legality.h — the per-edge rules of docs/design.md §5 (rules 1-5).
//
// `local_reason` decides one producer -> consumer edge on its own: a source producer, ops of different
// control-flow regions (docs/strategies.md: a rule of every strategy), a barrier at either end, or shapes
// that may not share a kernel. It answers `EdgeReason::none` when the edge may be merged as far as the
// edge itself goes; the rules about whole groups (every inside edge obeys the shape rule, the group graph
// stays acyclic: rules 6-7) are the grouping stage's (grouping.h). Shown by tests/core/planner.test.cpp
// and tests/core/strategies.test.cpp.
#pragma once

#include "fusion/graph.h"
#include "fusion/plan.h"

namespace fusion::detail {

// Can this op ever share a group with another op? (fusible kind and not a source)
inline bool is_mergeable(const FusionOp& op) { return !op.is_source() && is_fusible(op.kind); }

// The shape rule: broadcast-compatible shapes, or equal shapes when broadcast is off.
inline bool shapes_may_merge(const Shape& producer, const Shape& consumer, bool broadcast) {
  return broadcast ? broadcast_compatible(producer, consumer) : producer == consumer;
}

inline EdgeReason local_reason(const FusionOp& producer, const FusionOp& consumer, bool broadcast) {
  if (producer.is_source()) return EdgeReason::source;
  if (producer.region != consumer.region) return EdgeReason::region;
  if (!is_fusible(producer.kind)) return EdgeReason::barrier_producer;
  if (!is_fusible(consumer.kind)) return EdgeReason::barrier_consumer;
  if (!shapes_may_merge(producer.shape, consumer.shape, broadcast)) return EdgeReason::shape;
  return EdgeReason::none;
}

}  // namespace fusion::detail
