// codegen/storage_c.h — the C text of the element storage helpers (docs/design.md §19 "Storage"): per storage
// of codegen/semantics.h, `ld_NAME` (element -> register of its compute type: float for f32, f16, bf16, f8;
// double for f64; the type itself for integers and bool), `st_NAME` (register -> element, rounded as
// fusion/numerics.h rounds: round-to-nearest-even to f16, bf16 and f8 E4M3FN from the f32 value), for integers
// and bool `cv_NAME` (double -> register: truncate toward zero and saturate, NaN gives 0; bool is x != 0), and the
// driver's `fill_NAME` / `widen_NAME` (element -> double). Each is guarded by a macro (`FUSION_f16`), so several
// programs concatenate into one translation unit. Only the storages given are written (and the types a struct
// carries). Shown by tests/core/codegen_run.test.cpp
// (the helpers compiled and checked against round_to on a set of values).
#pragma once

#include <map>
#include <string>

#include "codegen/semantics.h"

namespace fusion::codegen {

// Keyed by Storage::name.
using StorageSet = std::map<std::string, Storage>;

std::string storage_helpers_c(const StorageSet& storages);  // ld_/st_ (needs math.h, stdint.h, string.h)
std::string storage_fills_c(const StorageSet& storages);    // fill_/widen_ (needs the runtime's rnd)

}  // namespace fusion::codegen
