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

#include <span>
#include <vector>

#include "presets/presets.h"
#include "presets/xla_kinds.h"

namespace fusion::presets {

// What the pass reads of an op, fixed from the start (one record per op, so its hot loops do not touch the ops;
// handed on in the result, so the later passes need not load the ops again either).
struct XlaOpFacts {
  std::uint64_t bytes = 0, elements = 0;  // its output's
  std::int32_t region = 0;                // numbered: equal numbers for ops of the same region
  OpId blocked_by = -1;                   // its first reader that takes no producer, or -1
  XlaRole role = XlaRole::own_kernel;     // xla_role()
  OpKind kind = OpKind::input;
  bool output = false;  // a graph output (is_graph_output)
  bool source = false;
};

// One fusion, viewed in a PriorityFusionResult (valid while the result lives and is not changed).
struct XlaFusion {
  OpId root = -1;                  // the op whose value the fusion computes (its id names the fusion)
  std::span<const OpId> members;   // in no set order (not sorted: no reader needs it), root included; duplicated
                                   // producers sit in several fusions
  std::span<const OpId> inputs;    // ascending: sources and roots of other fusions it reads
};

// The live fusions by root in topological order; fusion k's members and inputs are rows k of two flat tables.
struct PriorityFusionResult {
  std::vector<OpId> roots;
  std::vector<std::int64_t> member_offsets, input_offsets;  // row k: [offsets[k], offsets[k + 1])
  std::vector<OpId> members, inputs;
  std::vector<EdgeReason> refusal;   // per op: why it was not fused into its consumers (none when it was)
  std::vector<OpId> consumer;        // per op: the consumer that refused it, -1 when the reason holds for all
  std::vector<XlaOpFacts> facts;     // per op

  std::size_t size() const { return roots.size(); }
  XlaFusion fusion(std::size_t k) const {
    auto row = [](const std::vector<OpId>& ids, const std::vector<std::int64_t>& offsets, std::size_t k) {
      return std::span<const OpId>(ids.data() + offsets[k], static_cast<std::size_t>(offsets[k + 1] - offsets[k]));
    };
    return {roots[k], row(members, member_offsets, k), row(inputs, input_offsets, k)};
  }
};

PriorityFusionResult run_priority_fusion(const PresetInput& in);

}  // namespace fusion::presets
