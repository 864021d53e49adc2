// tvm_patterns.cpp — the kind -> OpPatternKind table of tvm_patterns.h.
#include "presets/tvm_patterns.h"

#include "fusion/strategy.h"

namespace fusion::presets {
namespace {

using K = OpKind;

bool is_unary(OpKind kind) {
  switch (kind) {
    case K::neg: case K::abs: case K::exp: case K::log: case K::sqrt: case K::rsqrt: case K::relu:
    case K::gelu: case K::sigmoid: case K::tanh: case K::silu: case K::cast: case K::erf:
    case K::reciprocal: case K::square: case K::sin: case K::cos: case K::floor: case K::ceil:
    case K::round: case K::sign: case K::logical_not: case K::softplus: case K::leaky_relu:
    case K::clamp: case K::identity:
      return true;
    default:
      return false;
  }
}

}  // namespace

TvmPattern tvm_pattern(OpKind kind) {
  if (is_unary(kind)) return TvmPattern::elemwise;
  if (is_fusible(kind) || kind == K::broadcast) return TvmPattern::broadcast;  // binary, where, batch_norm
  if (is_movement_kind(kind)) return TvmPattern::injective;
  if (is_reduction_kind(kind)) return TvmPattern::comm_reduce;
  if (is_anchor_kind(kind) || kind == K::max_pool || kind == K::avg_pool || kind == K::softmax || kind == K::layer_norm)
    return TvmPattern::out_ewise_fusable;
  return TvmPattern::opaque;
}

TvmPattern tvm_edge_pattern(const FusionOp& producer, const FusionOp& consumer) {
  const TvmPattern pattern = tvm_pattern(consumer.kind);
  if (pattern == TvmPattern::broadcast && producer.shape == consumer.shape) return TvmPattern::elemwise;
  return pattern;
}

std::string_view to_string(TvmPattern pattern) {
  switch (pattern) {
    case TvmPattern::elemwise: return "kElemWise";
    case TvmPattern::broadcast: return "kBroadcast";
    case TvmPattern::injective: return "kInjective";
    case TvmPattern::comm_reduce: return "kCommReduce";
    case TvmPattern::out_ewise_fusable: return "kOutEWiseFusable";
    case TvmPattern::opaque: return "kOpaque";
  }
  return "kOpaque";
}

}  // namespace fusion::presets
