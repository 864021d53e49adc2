// codegen/emit_triton.h — Triton-style text for one kernel (codegen/kernel.h) and for a plan's kernels
// (docs/design.md §19). For reading, not for running here: `tl.program_id`, blocks of `BLOCK` elements,
// `tl.load`/`tl.store` with masks, values in f32 registers, `tl.dot` tiles for a matmul and a named helper for
// the other barrier kinds. Loads and stores carry the same `load N B` / `store N B` comments as the C dialect, so
// a kernel's annotations sum to its group's bytes_read and bytes_written. Shown by tests/core/codegen.test.cpp.
#pragma once

#include <string>

#include "codegen/kernel.h"

namespace fusion::codegen {

std::string emit_triton_kernel(const GraphFacts& facts, const Kernel& kernel);
std::string emit_triton_program(const GraphFacts& facts, const FusionPlan& plan);

}  // namespace fusion::codegen
