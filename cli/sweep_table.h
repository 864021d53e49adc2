// sweep_table.h — a sweep (fusion/sweep.h) as a readable text table (the CLI's --sweep with --table).
#pragma once

#include <string>

#include "fusion/sweep.h"

namespace fusion::cli {

// One row per value: bytes unfused and fused, byte speedup, time unfused and fused, time speedup, kernels, and
// on a row whose grouping differs from the row before, the exact value where it changes.
std::string format_sweep_table(const SweepResult& result);

}  // namespace fusion::cli
