// numerics/notes.h — the static numerics notes of a plan (docs/design.md §18): what running a group as one
// kernel may change in its results, per group, from the graph and the grouping alone.
//
// Rules, for each group (members include recomputed copies; a group of one op gets no notes). "Float" is f64,
// f32, f16, bf16 or f8 (fusion/numerics.h numeric_type); an edge is inside the group when both ends are members.
//  - rounding: a member u that is a rounding point (is_rounding_point: f16, bf16 or f8, and not an exact kind —
//    neg abs relu max min identity where sign floor ceil round clamp — all of whose inputs have u's type) read by
//    another member. The reader gets u's f32 value: the rounding to u's type that the unfused graph does on
//    every store is gone. ops: [u, its readers in the group, ascending].
//  - contraction: an add or sub v with a float type and a mul u among its inputs, inside the group, with a float
//    type: an FMA candidate (nvcc --fmad, LLVM fp-contract). One note per v, about its first such input in input
//    order (the one the evaluator contracts). ops: [u, v]. Not under eager parity, which contracts nothing.
//  - reduction_order: a reduction that sums or multiplies (reduce, reduce_sum, reduce_mean, reduce_prod,
//    softmax, layer_norm, cumsum) with a float type, in a group with other ops: the fused kernel's loop nest, not
//    the reduction's own kernel, decides the order its elements are added in. ops: [r].
//  - nan: a max, min, clamp, reduce_max or reduce_min with a float type, in a group with other ops: whether NaN
//    propagates (PyTorch) or is dropped (IEEE maxNum, fast-math) is the fused kernel's choice; and a where whose
//    condition is a comparison (equal, less, greater) inside the group: with fast-math (no NaNs) the comparison
//    may be folded. ops: [op] or [where, comparison].
//  - cast: a cast v whose input u is a cast inside the group, where u's type holds fewer bytes than v's, or is
//    a different float format of the same size (f32 -> f16 -> f32, f16 -> bf16 -> f16): a fused kernel may
//    elide the pair (Inductor does without emulate_precision_casts), dropping what the narrow type cut off.
//    ops: [u, v].
// Notes are listed per group by member, ascending, each member's in the order above (a contraction note is its
// add/sub's, a cast note its second cast's, a where's nan note the where's). Deterministic; linear in the
// members and their edges (plus a binary search per edge). Shown by tests/core/numerics.test.cpp.
#pragma once

#include <vector>

#include "fusion/numerics.h"
#include "fusion/plan.h"

namespace fusion::numerics {

std::vector<NumericsNote> group_notes(const FusionGraph& graph, const FusionPlan& plan, const FusionGroup& group);

// The add/sub's input that the fused kernel contracts with it (a mul member of the same group), or -1.
OpId contracted_input(const FusionGraph& graph, const FusionGroup& group, OpId v);

}  // namespace fusion::numerics
