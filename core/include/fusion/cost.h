// fusion/cost.h — the bytes-moved cost model of DESIGN.md section 5.
//
// Unfused: every op reads its distinct input tensors once and writes its output once. Fused: every
// group reads its distinct external inputs once and writes its outputs (members consumed outside the
// group, or with no consumer) once; intermediates inside a group cost nothing. With resident_sources a
// source writes nothing (its consumers' reads still count). All counts are exact integers.
// Runs after grouping (planner.h); does not decide anything about groups. Shown by
// tests/core/cost.test.cpp.
#pragma once

#include <cstdint>
#include <optional>

#include "fusion/graph.h"
#include "fusion/plan.h"

namespace fusion {

// Total unfused bytes, or nullopt when it exceeds 2^53 - 1. Precondition: inputs name existing ops.
std::optional<std::uint64_t> unfused_bytes(const FusionGraph& graph, bool resident_sources);

// The bytes one op moves unfused (its distinct inputs read plus its output written).
std::uint64_t op_bytes_unfused(const FusionGraph& graph, OpId id, bool resident_sources);

// Fills every group's inputs, outputs, bytes_read and bytes_written, each op's unfused bytes, and the
// plan's totals, speedup and kernel counts, from plan.op_group and each group's ops. Precondition: the graph validates (so
// no sum overflows) and op_group is a partition consistent with the groups' ops.
void price_plan(const FusionGraph& graph, FusionPlan& plan);

}  // namespace fusion
