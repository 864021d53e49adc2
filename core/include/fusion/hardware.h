// fusion/hardware.h — the device profiles of the time model (docs/strategies.md, "Time model").
//
// A profile is four published peak figures of one GPU: memory bandwidth, FP32 vector throughput, FP16
// dense tensor-core throughput, and a per-kernel launch cost. The numbers, their units and their public
// sources are in core/src/hardware.cpp; they are peaks, not measurements, so times are estimates for
// comparing plans, not predictions. Used by fusion/time_model.h; shown by tests/core/time_model.test.cpp.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace fusion {

struct HardwareProfile {
  std::string_view name;         // "h100", "a100", "rtx4090" (the `hardware` option)
  std::string_view description;  // the exact product, e.g. "NVIDIA A100 SXM4 80GB"
  double bandwidth_bytes_per_s;  // peak DRAM bandwidth, bytes per second (1 TB/s = 1e12)
  double vector_flops_per_s;     // peak FP32 non-tensor throughput, flop per second
  double matrix_flops_per_s;     // peak FP16 dense tensor-core throughput, flop per second
  double launch_us;              // cost of one kernel launch, microseconds
};

// The profile of that name, or nullopt for an unknown name.
std::optional<HardwareProfile> hardware_profile(std::string_view name);

// "h100", "a100", "rtx4090", in that order.
std::span<const std::string_view> hardware_names();

}  // namespace fusion
