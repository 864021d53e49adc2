// presets/xla_priority_fusion.h — the first pass of the `xla` strategy: XLA's GPU priority fusion
// (openxla/xla xla/service/gpu/transforms/priority_fusion.cc, PriorityFusion / GpuPriorityFusionQueue),
// re-stated over our graph and time model.
//
// Every non-source op starts as a fusion of its own. A producer P is fused into ALL the fusions that read
// it, a copy in each (so P disappears and no cycle can arise), when it can fuse into every one of them:
//  - P and each consumer C are fusible (xla_kinds.h), run in one region, and P is not a graph output
//    (the ROOT tuple is not fusible);
//  - a P holding a reduction (a reduction fusion) has exactly one consumer, which holds no reduction
//    (DoNotFuseReduceIntoReduce), only elementwise ops of the reduction's output size, and reads nothing
//    but P and scalar sources (a reduction epilogue; EpilogueFusion / EpilogueFusionFails);
//  - a consumer that is a bitcast (reshape) is skipped: P fuses into its other readers and keeps its own
//    kernel for the bitcasts (CanFuseWithAllNonBitcastUsers); a bitcast producer goes first;
//  - a scatter takes producers of its updates and indices, not of its in-place operand, and fuses into
//    nothing (CanEmitInputFusedScatter); a concat does not fuse into a reduction (DontFuseConcat);
//  - C with P stays within max_group_operands inputs + outputs (FusionFitsInBudget);
//  - P has at most 64 consumer fusions, and the copies made in all stay under 16 per op of the graph plus
//    1024 (bounds on our work that XLA does not have).
// Its priority is the time the fusion saves under the time model (docs/strategies.md): P's kernel plus the
// consumers' kernels as they are, minus the consumers' kernels with P inside. Producers are fused highest
// priority first (ties: earlier in the topological order), skipping negative priorities; after each
// fusion the priorities of the fused consumers and of their producers are computed again (an indexed
// max-heap, one entry per producer, updated in place; each consumer's part of a priority is cached until the
// producer or that consumer changes). With the pass off, every op stays a fusion of its own.
// A producer read by a kernel that takes no producer (own kernel, not a bitcast) is refused at the start
// and never looked at again: such a reader never fuses away, and none is ever added.
// Cost: O((n + m) log n) heap work; each priority costs O(consumers x operands).
#pragma once

#include <string>
#include <vector>

#include "presets/presets.h"

namespace fusion::presets {

struct XlaFusion {
  OpId root = -1;               // the op whose value the fusion computes (its id names the fusion)
  std::vector<OpId> members;    // ascending, root included; duplicated producers sit in several fusions
  std::vector<OpId> inputs;     // ascending: sources and roots of other fusions it reads
};

struct PriorityFusionResult {
  std::vector<XlaFusion> fusions;    // the live fusions, by root in topological order
  std::vector<EdgeReason> refusal;   // per op: why it was not fused into its consumers (none when it was)
  std::vector<OpId> consumer;        // per op: the consumer that refused it, -1 when the reason holds for all
};

PriorityFusionResult run_priority_fusion(const PresetInput& in);

}  // namespace fusion::presets
