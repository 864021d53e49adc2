// fusion/labels.h — pattern labels of fused groups (docs/strategies.md, "Pattern labels").
//
// label_groups sets every group's `label` from its members (`ops`, recomputed copies included). The
// first matching row wins; a group that matches none gets "":
//   1. "conv+bn+relu"     members include a `conv`, a `batch_norm` and a `relu`.
//   2. "conv+bias+act"    members include a `conv`, an `add`, and an activation: one of `relu gelu silu
//      "matmul+bias+act"  sigmoid tanh leaky_relu clamp`; else the same with a `matmul` (conv is
//                         checked first when a group holds both).
//   3. "conv+bias"        members include a `conv` and an `add`; else a `matmul` and an `add`.
//      "matmul+bias"
//   4. "softmax"          a `softmax` member, or an `exp` member that is an input of a `reduce_sum` or
//                         `reduce` member.
//   5. "layernorm"        a `layer_norm` member, or both a `reduce_mean` and an `rsqrt` member.
//   6. "silu"             a `silu` member, or a `mul` member with exactly two inputs, one a `sigmoid`
//                         member whose first input is the other (x · sigmoid(x), in either order).
//   7. "residual add"     an `add` member with exactly two inputs that are distinct non-source ops of
//                         equal shape, at least one of them not a member of this group.
// Rows 1-3 and 5 only ask which kinds are present, not how they are wired. Runs after grouping, in time
// linear in the total size of the groups plus their members' inputs (plus one pass to size a scratch
// array over the ops). Changes nothing but labels. Shown by tests/core/labels.test.cpp.
#pragma once

#include "fusion/graph.h"
#include "fusion/plan.h"

namespace fusion {

// Precondition: every id in a group's ops names an op of the graph.
void label_groups(const FusionGraph& graph, FusionPlan& plan);

}  // namespace fusion
