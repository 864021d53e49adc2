// time_model.cpp — the flops table and the roofline kernel time.
#include "fusion/time_model.h"

#include <algorithm>

#include "detail/saturating.h"
#include "fusion/strategy.h"

namespace fusion {
namespace {

using detail::element_count;
using detail::saturating_mul;

// Kinds whose flops are 0 when they have inputs.
bool is_free_kind(OpKind kind) { return is_movement_kind(kind) || kind == OpKind::identity || kind == OpKind::cast; }

bool is_pooling_kind(OpKind kind) { return kind == OpKind::max_pool || kind == OpKind::avg_pool; }

// K of a matmul: the last dimension of its first input (1 for a scalar).
std::uint64_t matmul_depth(const FusionGraph& g, const FusionOp& op) {
  const Shape& a = g.op(op.inputs.front()).shape;
  if (a.empty()) return 1;
  return a.back() > 0 ? static_cast<std::uint64_t>(a.back()) : 0;
}

// Multiply-adds per output element of a conv: the weight's elements over its first dimension.
std::uint64_t conv_depth(const FusionGraph& g, const FusionOp& op) {
  if (op.inputs.size() < 2) return 1;
  const Shape& w = g.op(op.inputs[1]).shape;
  if (w.empty()) return 1;
  const std::uint64_t elements = element_count(w);
  return elements == 0 ? 0 : elements / static_cast<std::uint64_t>(w.front());
}

// Flops per output element for the kinds that cost a fixed multiple of n.
std::uint64_t per_element(OpKind kind) {
  switch (kind) {
    case OpKind::softmax: return 5;
    case OpKind::layer_norm: return 8;
    case OpKind::batch_norm: return 2;
    default: return is_expensive_kind(kind) ? 4 : 1;
  }
}

}  // namespace

std::uint64_t op_flops(const FusionGraph& g, OpId id) {
  const FusionOp& op = g.op(id);
  if (op.is_source() || is_free_kind(op.kind)) return 0;
  const std::uint64_t n = element_count(op.shape);
  if (op.kind == OpKind::matmul) return saturating_mul(saturating_mul(2, n), matmul_depth(g, op));
  if (op.kind == OpKind::conv) return saturating_mul(saturating_mul(2, n), conv_depth(g, op));
  if (is_reduction_kind(op.kind) || is_pooling_kind(op.kind)) return element_count(g.op(op.inputs.front()).shape);
  return saturating_mul(per_element(op.kind), n);
}

bool uses_matrix_peak(OpKind kind) { return kind == OpKind::matmul || kind == OpKind::conv; }

}  // namespace fusion
