// hardware.cpp — the device profiles, each constant with its unit and public source.
//
// Units: bandwidth in bytes/s with 1 TB/s = 1e12 bytes/s (NVIDIA's datasheets use decimal units);
// throughput in flop/s with 1 TFLOP/s = 1e12. Written as decimal literals (3.35e12), each an exact
// integer in a double. Tensor figures are the dense ones (NVIDIA's datasheets
// headline 2x "with sparsity"; the footnoted dense figure is half of it).
#include "fusion/hardware.h"

#include <array>

namespace fusion {
namespace {

// Launch cost, microseconds per kernel, for every profile. Source: NVIDIA developer blog, A. Gray,
// "Getting Started with CUDA Graphs" (2019), which launches a tiny kernel back to back in a stream and
// measures about 3.8 us per kernel without a graph (V100, CUDA 10.1), of which the kernel itself runs
// about 2.9 us. It is an order-of-magnitude figure for "a few microseconds per launch", not a property
// of any of the three devices below; real launch overhead depends on driver, host CPU and graphs.
constexpr double kLaunchUs = 3.8;

constexpr std::array<HardwareProfile, 3> kProfiles = {{
    // NVIDIA H100 Tensor Core GPU datasheet / product page (nvidia.com/en-us/data-center/h100), H100 SXM
    // column: GPU memory bandwidth 3.35 TB/s; FP32 67 teraFLOPS; FP16 Tensor Core 1,979 teraFLOPS with
    // sparsity, so 989.5 dense.
    {"h100", "NVIDIA H100 SXM5 80GB", 3.35e12, 67.0e12, 989.5e12, kLaunchUs},
    // NVIDIA A100 Tensor Core GPU datasheet, A100 80GB SXM column: GPU memory bandwidth 2,039 GB/s;
    // FP32 19.5 TFLOPS; FP16 Tensor Core 312 TFLOPS (624 with sparsity).
    {"a100", "NVIDIA A100 SXM4 80GB", 2.039e12, 19.5e12, 312.0e12, kLaunchUs},
    // NVIDIA Ada Lovelace GPU architecture whitepaper, Appendix A (GeForce RTX 4090 column): memory
    // bandwidth 1008 GB/s (21 Gbps GDDR6X on a 384-bit bus); peak FP32 TFLOPS (non-tensor) 82.6; peak FP16
    // Tensor TFLOPS with FP32 accumulate 165.2 dense (330.4 with sparsity). GeForce parts run FP32
    // accumulate at half the FP16-accumulate rate (330.3 dense); we use FP32 accumulate, as training does.
    {"rtx4090", "NVIDIA GeForce RTX 4090", 1.008e12, 82.6e12, 165.2e12, kLaunchUs},
}};

constexpr std::array<std::string_view, 3> kNames = {"h100", "a100", "rtx4090"};

}  // namespace

std::optional<HardwareProfile> hardware_profile(std::string_view name) {
  for (const HardwareProfile& profile : kProfiles)
    if (profile.name == name) return profile;
  return std::nullopt;
}

std::span<const std::string_view> hardware_names() { return kNames; }

}  // namespace fusion
