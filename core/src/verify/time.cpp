// verify/time.cpp — flops and the roofline time of docs/strategies.md ("Time model"), recomputed from the
// graph, the groups (recomputed copies count in every group that holds them) and the device profile.
//
// Flops saturate at UINT64_MAX rather than wrap. Times are compared with a relative tolerance of 1e-9,
// since the plan may sum the same terms in another order.
#include <algorithm>
#include <cmath>
#include <limits>

#include "fusion/hardware.h"
#include "fusion/strategy.h"
#include "verify/context.h"

namespace fusion::verifier {
namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

std::uint64_t add(std::uint64_t a, std::uint64_t b) { return a > kMax - b ? kMax : a + b; }
std::uint64_t mul(std::uint64_t a, std::uint64_t b) { return (a != 0 && b > kMax / a) ? kMax : a * b; }

bool close(double a, double b) {
  return a == b || std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

// Multiply-adds per output element of a conv: the weight's elements over its first dimension.
std::uint64_t conv_depth(const Context& c, const FusionOp& op) {
  if (op.inputs.size() < 2) return 1;
  const OpId w = op.inputs[1];
  const std::uint64_t elements = c.elements_of(w);
  if (c.g.op(w).shape.empty() || elements == 0) return elements;
  return elements / static_cast<std::uint64_t>(c.g.op(w).shape.front());
}

std::uint64_t flops_of(const Context& c, OpId x) {
  const FusionOp& op = c.g.op(x);
  const OpKind k = op.kind;
  if (op.is_source() || is_movement_kind(k) || k == OpKind::identity || k == OpKind::cast) return 0;
  const std::uint64_t n = c.elements_of(x);
  if (k == OpKind::matmul) {
    const Shape& a = c.g.op(op.inputs.front()).shape;
    return mul(2 * n, a.empty() ? 1 : static_cast<std::uint64_t>(a.back()));
  }
  if (k == OpKind::conv) return mul(2 * n, conv_depth(c, op));
  if (is_reduction_kind(k) || k == OpKind::max_pool || k == OpKind::avg_pool)
    return c.elements_of(op.inputs.front());
  if (k == OpKind::softmax) return mul(5, n);
  if (k == OpKind::layer_norm) return mul(8, n);
  if (k == OpKind::batch_norm) return 2 * n;
  return is_expensive_kind(k) ? mul(4, n) : n;
}

struct Kernel {
  std::uint64_t vector_flops = 0, matrix_flops = 0;
  void add_op(const Context& c, OpId x) {
    std::uint64_t& sum = is_anchor_kind(c.g.op(x).kind) ? matrix_flops : vector_flops;
    sum = add(sum, flops_of(c, x));
  }
  std::uint64_t flops() const { return add(vector_flops, matrix_flops); }
  double time_us(std::uint64_t bytes, const HardwareProfile& hw) const {
    const double memory = static_cast<double>(bytes) / hw.bandwidth_bytes_per_s;
    const double compute = static_cast<double>(vector_flops) / hw.vector_flops_per_s +
                           static_cast<double>(matrix_flops) / hw.matrix_flops_per_s;
    return std::max(memory, compute) * 1e6 + hw.launch_us;
  }
};

// One group's flops and time; returns its time (0 for a group of sources).
double check_group_time(Context& c, const FusionGroup& group, const HardwareProfile& hw,
                        std::uint64_t& flops) {
  Kernel kernel;
  for (OpId x : group.ops) kernel.add_op(c, x);
  const GroupIo& io = c.io[static_cast<std::size_t>(group.id)];
  const double time = c.runs_kernel(group) ? kernel.time_us(io.read + io.written, hw) : 0.0;
  if (group.flops != kernel.flops() || !close(group.time_us, time))
    c.fail("time",
           "group " + std::to_string(group.id) + " reports " + std::to_string(group.flops) + " flops and " +
               std::to_string(group.time_us) + " us; the time model gives " + std::to_string(kernel.flops()) +
               " and " + std::to_string(time),
           group.id);
  flops = add(flops, kernel.flops());
  return time;
}

void check_total(Context& c, const char* what, double reported, double model) {
  if (!close(reported, model))
    c.fail("time", std::string(what) + " is " + std::to_string(reported) + "; the time model gives " +
                       std::to_string(model));
}

}  // namespace

void check_time(Context& c) {
  const std::optional<HardwareProfile> hw = hardware_profile(c.options.hardware);
  if (!hw) return c.fail("time", "hardware '" + c.options.hardware + "' has no profile in the time model");
  std::uint64_t flops_fused = 0, flops_unfused = 0;
  double fused = 0.0, unfused = 0.0;
  for (const FusionGroup& group : c.plan.groups) fused += check_group_time(c, group, *hw, flops_fused);
  for (std::size_t x = 0; x < c.g.size(); ++x) {
    Kernel kernel;
    kernel.add_op(c, static_cast<OpId>(x));
    flops_unfused = add(flops_unfused, kernel.flops());
    if (!c.g.op(static_cast<OpId>(x)).is_source())
      unfused += kernel.time_us(c.unfused_bytes_of(static_cast<OpId>(x)), *hw);
  }
  const FusionPlan& p = c.plan;
  if (p.flops_unfused != flops_unfused || p.flops_fused != flops_fused)
    c.fail("time", "flops are " + std::to_string(p.flops_unfused) + " -> " + std::to_string(p.flops_fused) +
                       "; the time model gives " + std::to_string(flops_unfused) + " -> " +
                       std::to_string(flops_fused));
  check_total(c, "time_unfused_us", p.time_unfused_us, unfused);
  check_total(c, "time_fused_us", p.time_fused_us, fused);
  check_total(c, "time_speedup", p.time_speedup, fused == 0.0 ? 1.0 : unfused / fused);
}

}  // namespace fusion::verifier
