// codegen/emit_c.h — C11 text for one kernel (codegen/kernel.h) and the whole program (docs/design.md §19).
//
// A kernel is `static void NAME(inputs..., outputs..., float *restrict ws)`: inputs `const T *restrict t<id>`,
// outputs `T *restrict t<id>` (T the storage of codegen/semantics.h), scratch `w<id>` carved from `ws` (float, or
// double for a member computed in double). Each
// load and store line carries its `load N B` / `store N B` comment (the first read of an input counts its bytes,
// later reads in the same kernel count 0). A group of sources emits its fill function instead, whose stores count
// the sources' bytes (0 with resident_sources). Shown by tests/core/codegen.test.cpp.
#pragma once

#include <string>

#include "codegen/kernel.h"
#include "fusion/codegen.h"

namespace fusion::codegen {

// `prefix` goes before the kernel's name and the program's `seed` (CodegenOptions::prefix).
std::string emit_c_kernel(const GraphFacts& facts, const Kernel& kernel, const std::string& prefix = {});
std::string emit_c_program(const GraphFacts& facts, const FusionPlan& plan, const CodegenOptions& options);

}  // namespace fusion::codegen
