// detail/dim_formulas.h — what a plan says about its named dimensions (docs/design.md §16).
//
// For a bound graph that uses names and its priced plan: the values used, every group's bytes_read and
// bytes_written and the plan's unfused, fused and saved bytes as polynomials in the names (the sums of §8 over the
// same tensors the pricing summed, each tensor's bytes a term of fusion/formula.h), and whether the grouping is
// proven independent of the values. The proof covers `seed` with its own rule table, whose only size-dependent
// decision is the shape rule (§5) on edges between two fusible ops of one region: each such edge must compare
// every aligned pair of dimensions as two numbers, the same name (or product) twice, or (with broadcast) a name
// against 1, or
// hold a pair that never matches whatever the values. `tvm` decides on op kinds and structure, and on sizes only
// where a kBroadcast consumer compares an input's shape with its own: each such comparison must be decided the same
// way (two numbers, the same name twice, different ranks). Every other strategy may depend on sizes (the time
// model, element counts, byte limits), so it is never claimed for them. O(ops + edges) polynomial additions.
#pragma once

#include "fusion/graph.h"
#include "fusion/plan.h"

namespace fusion::detail {

void describe_dims(const FusionGraph& bound, FusionPlan& plan);

}  // namespace fusion::detail
