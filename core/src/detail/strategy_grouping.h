// detail/strategy_grouping.h — group formation under a compiler-style rule table (docs/strategies.md).
//
// Three passes over a validated graph, each deterministic:
//  1. Vertical: ops in topological order, each op's distinct inputs in order (as grouping.h), merging
//     producer -> consumer edges that strategy_legality.h allows, subject to the group rules: at most one
//     heavy op per group (`anchor`); an anchor reads its inputs from memory (`barrier_consumer`) and
//     takes elementwise members only (`anchor`); a reduction group takes prologue members only through
//     the reduction's own inputs, all of them upstream of it (`multi_pass`), no transpose directly into
//     it (`layout`), and epilogue members only of the reduction's output size that read nothing larger
//     from outside and none of its prologue (`multi_pass`); limits (`limit`); no shape-forbidden pair in
//     one group (`shape`); the exact cycle check of group_graph.h (`cycle`).
//  2. Horizontal (rules.horizontal / horizontal_small_bytes): loop groups whose members read one shared
//     tensor with the same element count merge (sibling, multi-output fusion); small loop groups are
//     packed in order. Capped by horizontal_max_ops and the limits; the cycle check runs with a step
//     budget, so a merge whose check would be long is skipped (safe, never a cycle).
//  3. Recompute (rules.recompute): a cheap producer read by other groups is copied into them when that
//     moves fewer bytes and, with refuse_unprofitable, takes less time (recompute.h states the exact rule).
// Under `xla-classic` each multi-op group is described in XLA's classic words (Grouping::rules).
// Cost: as grouping.h for pass 1, plus O(size of the smaller group) per group-rule check; pass 2 does at
// most 16 candidates per op with bounded checks; pass 3 is linear in the edges. Nothing recurses.
#pragma once

#include "detail/grouping.h"

namespace fusion::detail {

Grouping form_strategy_groups(const FusionGraph& graph, const Producers& producers, const Consumers& consumers,
                              const std::vector<OpId>& order, const PlannerOptions& options);

}  // namespace fusion::detail
