// fusion/sweep.h — the plan across the values of one named dimension (docs/design.md §16, "Sweeps").
//
// sweep() plans the graph at each value of one name (the other names as the planner's options and the graph's
// defaults bind them): FROM, every power of two strictly between, and TO when step is 0, else FROM, FROM+STEP, ...
// and TO. Each row holds the plan's totals and whether its grouping (every group's ops) differs from the previous
// row's. Between two rows whose groupings differ, bisection over the values between finds an exact change point:
// a value `at` whose grouping differs from the grouping at at - 1 (a grouping can change and change back between
// two rows unseen; a finer step shows it). Work: one plan per row plus O(log gap) plans per change; when the first
// plan proves its grouping independent of the values (docs/design.md §16), the other rows keep its groups and are
// only bound, validated and priced. A bad range is
// invalid_options at /sweep (path of the field); a problem at one value (e.g. byte_overflow) is that value's error,
// its message starting with the binding. Shown by tests/core/dims.test.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fusion/error.h"
#include "fusion/graph.h"
#include "fusion/planner.h"

namespace fusion {

inline constexpr std::size_t kMaxSweepRows = 65536;

struct SweepSpec {
  std::string dim;          // the name swept
  std::int64_t from = 1, to = 1;
  std::int64_t step = 0;    // 0: powers of two between from and to
};

struct SweepRow {
  std::int64_t value = 0;
  std::uint64_t bytes_unfused = 0, bytes_fused = 0;
  double speedup_estimate = 1.0;
  double time_unfused_us = 0.0, time_fused_us = 0.0, time_speedup = 1.0;
  std::int64_t kernels_fused = 0;
  bool changed = false;     // the grouping differs from the previous row's
  std::int64_t change_at = 0;  // when changed: an exact change point after the previous row (SweepChange::at)
};

struct SweepChange {
  std::int64_t at = 0;      // the grouping at `at` differs from the grouping at at - 1
  std::int64_t kernels_before = 0, kernels_after = 0;
};

struct SweepResult {
  std::string dim;
  std::vector<SweepRow> rows;
  std::vector<SweepChange> changes;
};

// The values a spec visits, or invalid_options (path /sweep/...).
Expected<std::vector<std::int64_t>> sweep_values(const SweepSpec& spec);

Expected<SweepResult> sweep(const FusionGraph& graph, const FusionPlanner& planner, const SweepSpec& spec);

}  // namespace fusion
