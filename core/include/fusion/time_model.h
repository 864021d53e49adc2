// fusion/time_model.h — flops per op and the roofline time of one kernel (docs/strategies.md, "Time model").
//
// op_flops follows the table of docs/strategies.md, first matching row first (n = output elements):
//   a source (no inputs, any kind), a movement kind (reshape broadcast slice concat transpose gather pad),
//     `identity`, `cast`                                            0
//   `matmul`   2·n·K, K = last dimension of the first input (a scalar first input counts as K = 1)
//   `conv`     2·n·(elements of the weight, the second input, ÷ its first dimension; 1 for a scalar
//              weight, 0 for an empty one); 2·n when there is no second input
//   a reduction (`reduce`, `reduce_*`), `max_pool`, `avg_pool`     elements of the first input
//   `softmax` 5·n; `layer_norm` 8·n; `batch_norm` 2·n
//   an expensive kind (fusion/strategy.h: exp log sqrt rsqrt sigmoid tanh gelu silu erf softplus pow sin
//     cos div reciprocal)                                           4·n
//   anything else (cheap elementwise, scatter, sort, scan, cumsum, opaque, ...)   n
// Counts saturate at UINT64_MAX instead of wrapping (values above 2^53 are not exact in JavaScript).
// matmul and conv flops run at the device's matrix (tensor-core) peak, all others at its vector peak.
//
// kernel_time_us is the roofline estimate of one kernel:
//   max(bytes / bandwidth, vector_flops / vector_peak + matrix_flops / matrix_peak) · 1e6 + launch_us.
// It does not decide which ops form a kernel (grouping does) nor which ops are sources (the caller gives
// sources no time). Shown by tests/core/time_model.test.cpp.
#pragma once

#include <algorithm>
#include <cstdint>

#include "fusion/graph.h"
#include "fusion/hardware.h"

namespace fusion {

// The flops of one op. Precondition: the op's inputs name existing ops.
std::uint64_t op_flops(const FusionGraph& graph, OpId id);

// True for matmul and conv: their flops count against matrix_flops_per_s.
bool uses_matrix_peak(OpKind kind);

// One kernel's estimated time in microseconds, launch included. In line: priority fusion (xla) asks it about a
// million times on a 100k-op graph.
inline double kernel_time_us(std::uint64_t bytes, std::uint64_t vector_flops, std::uint64_t matrix_flops,
                             const HardwareProfile& hardware) {
  const double memory_s = static_cast<double>(bytes) / hardware.bandwidth_bytes_per_s;
  const double compute_s = static_cast<double>(vector_flops) / hardware.vector_flops_per_s +
                           static_cast<double>(matrix_flops) / hardware.matrix_flops_per_s;
  return std::max(memory_s, compute_s) * 1e6 + hardware.launch_us;
}

}  // namespace fusion
