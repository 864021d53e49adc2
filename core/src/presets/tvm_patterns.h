// presets/tvm_patterns.h — TVM's operator pattern kinds (include/tvm/relay/op_attr_types.h, OpPatternKind)
// for every kind we have, and the pattern of one dataflow edge.
//
// Kinds: unary elementwise ops are kElemWise; binary and ternary elementwise ops (they broadcast),
// batch_norm (inference batch norm is a broadcast multiply-add after SimplifyInference) and `broadcast`
// (broadcast_to) are kBroadcast; reshape, transpose, slice, concat, pad and gather (take) are kInjective;
// reductions are kCommReduce; matmul (dense), conv (conv2d), the pools, softmax (nn.softmax) and layer_norm
// (as Relax annotates it) are kOutEWiseFusable; scatter, scan, cumsum, sort and opaque are kOpaque. An edge's pattern is its consumer's,
// except that a kBroadcast consumer reading an input of its own shape makes a kElemWise edge (FuseOps'
// IndexedForwardGraph does the same).
#pragma once

#include <cstdint>
#include <string_view>

#include "fusion/graph.h"

namespace fusion::presets {

enum class TvmPattern : std::uint8_t {
  elemwise = 0,
  broadcast = 1,
  injective = 2,
  comm_reduce = 3,
  out_ewise_fusable = 4,
  opaque = 8,
};

TvmPattern tvm_pattern(OpKind kind);
TvmPattern tvm_edge_pattern(const FusionOp& producer, const FusionOp& consumer);
// "kElemWise", "kBroadcast", ... as TVM spells them.
std::string_view to_string(TvmPattern pattern);

}  // namespace fusion::presets
