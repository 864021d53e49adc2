// presets/inductor_nodes.h — TorchInductor's lowering, as far as fusion sees it: which ops become scheduler
// nodes (realized buffers), which are inlined into their readers, and each node's iteration range.
//
// Node kinds (pytorch/pytorch torch/_inductor/lowering.py, ir.py): elementwise ops, the movement kinds,
// pools and a concat of at most 8 inputs (MAX_COMPLEX_POINTWISE_CAT) or max_pointwise_cat_inputs are
// pointwise (range (numel, 1)); a wider concat is a ConcatKernel: its inputs are realized (written into
// slices of its buffer), and the concat is a pointwise node reading them; a reduction is a reduction node
// (range (output elements, input elements / output elements)), except that one over at most 8 elements
// per output is unrolled into pointwise code (unroll_reductions_threshold); `softmax` and `layer_norm`
// decompose into reductions over the last dimension (range (numel / last, last)); matmul and conv are
// extern kernels (templates that take pointwise epilogues when rules.epilogue is on); scatter, sort,
// scan, cumsum and opaque are kernels of their own.
//
// Realization (ir.py TensorBox.realize / mark_reuse, graph.py needs_realized_inputs): every node that is
// not pointwise is realized, and a pointwise op is realized when it is a graph output, when a reader needs
// realized inputs (an extern, template, own-kernel or ConcatKernel reader, or one in another region), or when it has two or more readers and its
// inlined expression reads more than 4 buffers (realize_reads_threshold) or holds more than 30 ops
// (realize_opcount_threshold), or, whatever its readers, when its expression reads more than 8 buffers
// (realize_acc_reads_threshold) or holds more than 30 ops (has_exceeded_max_reads). Every other pointwise op is inlined: computed inside each reader's
// expression, so it belongs to the closure of every realized node that reaches it through inlined ops.
//
// The scheduler graph has one op per source and per realized op, reading the buffers its closure reads,
// in topological order. Cost: O(n + m) plus the closures, whose sizes the thresholds bound.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "presets/presets.h"

namespace fusion::presets {

enum class InductorNode : std::uint8_t { pointwise, reduction, template_kernel, concat_kernel, own_kernel };

struct IterationRange {
  std::uint64_t numel = 0;
  std::uint64_t rnumel = 1;  // 1 for pointwise
  bool operator==(const IterationRange&) const = default;
  // May a node of `other` elements share a kernel with a reduction of this range (codegen/simd.py can_fuse):
  // it iterates over the reduction's input (numel·rnumel) or its output (numel)?
  bool takes(std::uint64_t other) const { return other == numel * rnumel || other == numel; }
};

// Node kinds that codegen as pointwise loops (the scheduler's pointwise_only): what a template takes as epilogue.
inline bool pointwise_only(InductorNode node) {
  return node == InductorNode::pointwise || node == InductorNode::concat_kernel;
}

struct SchedulerGraph {
  FusionGraph graph;  // sources and realized ops (kind and inputs: the buffers their closures read)
  std::vector<OpId> original;         // scheduler id -> op id
  std::vector<OpId> scheduler_id;     // op id -> scheduler id, -1 for inlined ops
  std::vector<InductorNode> node;     // per scheduler id
  std::vector<IterationRange> range;  // per scheduler id
  std::vector<std::uint64_t> bytes;   // per scheduler id: its buffer's size (0 when too large to say)
  std::vector<std::int32_t> op_region;  // per op (not scheduler id): its region, numbered (0: top level)
  // Per scheduler id, rows by closure_offsets: the op and the inlined ops it computes (op ids, ascending).
  std::vector<std::size_t> closure_offsets;
  std::vector<OpId> closure_ops;

  bool is_source(OpId id) const {  // (a source computes nothing: its closure is empty)
    return closure_offsets[static_cast<std::size_t>(id)] == closure_offsets[static_cast<std::size_t>(id) + 1];
  }
  std::span<const OpId> closure(OpId id) const {
    const auto row = static_cast<std::size_t>(id);
    return std::span<const OpId>(closure_ops)
        .subspan(closure_offsets[row], closure_offsets[row + 1] - closure_offsets[row]);
  }
};

// Is this a concat with too many inputs to be lowered as masked loads?
bool wide_concat(const FusionOp& op, const StrategyRules& rules);
InductorNode inductor_node_kind(const FusionGraph& graph, OpId x, const StrategyRules& rules);
// The iteration range of a reduction node (softmax and layer_norm over their last dimension).
IterationRange inductor_range(const FusionGraph& graph, OpId x);
SchedulerGraph lower_for_inductor(const PresetInput& in);

}  // namespace fusion::presets
