// presets/xla_kinds.h — what XLA's GPU fusion passes can put in a fusion, for our kinds.
//
// Loop members (HloInstruction::IsElementwise and the data-movement ops XLA fuses: bitcast/reshape,
// broadcast, slice, concatenate, transpose/copy, pad, gather/dynamic-slice) may sit in any fusion, except a
// reshape that changes the element size (a bit-width-changing bitcast, not loop-fusible); a reduction is
// the hero of a reduction (input) fusion; a scatter is the root of an input-fused scatter; everything
// else is a kernel of its own: dot and convolution (library calls), and the kinds XLA would lower
// differently than a fusion of ours (softmax, layer_norm, pools as reduce-window, sort, scan, cumsum,
// opaque). A reduction is row/column-like (IsReductionFromOrToContiguousDimensions) when, dimensions of
// size 1 aside, its output is its input with one contiguous run of dimensions removed; any other
// reduction is emitted as a loop over its output. Shared by the `xla` procedure and the verifier.
#pragma once

#include <algorithm>

#include "fusion/graph.h"
#include "fusion/strategy.h"

namespace fusion::presets {

enum class XlaRole { loop, reduction, scatter, own_kernel };

inline XlaRole xla_role(const FusionGraph& graph, OpId x) {
  const FusionOp& op = graph.op(x);
  if (op.kind == OpKind::reshape && !op.inputs.empty() && graph.op(op.inputs.front()).dtype_bytes != op.dtype_bytes)
    return XlaRole::own_kernel;
  if (is_fusible(op.kind) || is_movement_kind(op.kind)) return XlaRole::loop;
  if (is_reduction_kind(op.kind)) return XlaRole::reduction;
  if (op.kind == OpKind::scatter) return XlaRole::scatter;
  return XlaRole::own_kernel;
}

// Is the reduction row- or column-like (see above)?
inline bool contiguous_reduction(const FusionGraph& graph, OpId x) {
  const FusionOp& op = graph.op(x);
  if (op.inputs.empty()) return true;
  Shape in, out;
  for (std::int64_t d : graph.op(op.inputs.front()).shape) if (d != 1) in.push_back(d);
  for (std::int64_t d : op.shape) if (d != 1) out.push_back(d);
  if (out.size() > in.size()) return false;
  std::size_t head = 0;
  while (head < out.size() && out[head] == in[head]) ++head;
  const std::size_t tail = out.size() - head;  // the rest must be in's last dimensions
  return std::equal(out.begin() + static_cast<std::ptrdiff_t>(head), out.end(), in.end() - static_cast<std::ptrdiff_t>(tail));
}

}  // namespace fusion::presets
