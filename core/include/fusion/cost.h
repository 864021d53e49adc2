// fusion/cost.h — the bytes-moved cost model of docs/design.md §8 and the time model of
// docs/strategies.md.
//
// Unfused: every op reads its distinct input tensors once and writes its output once. Fused: every
// group reads its inputs once — the distinct producers of any member (recomputed copies included) that
// are not members of the group — and writes its outputs once: the owned members (in `ops`, not in
// `recomputed`) that some group reads from memory (it holds a consumer but not them), that have no
// consumer, or whose op has `output: true`. Recomputed copies are never written; intermediates inside a
// group cost nothing. With resident_sources a source writes nothing (its consumers' reads still count).
// Byte counts are exact integers.
// Time (fusion/time_model.h, device plan.options.hardware): a group's flops are those of all its members,
// recomputed copies included; a group with a member that has inputs is a kernel (`kernel`), of kernel_time_us(bytes read
// + written, its vector flops, its matrix flops), a group of sources takes 0. Unfused, every non-source
// op is its own kernel with its unfused bytes. Flop sums saturate at UINT64_MAX.
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

// Fills every group's inputs, outputs, bytes_read, bytes_written, kernel, flops and time_us, each op's unfused
// bytes, and the plan's byte, flop and time totals, both speedups and kernel counts, from each group's
// `ops` and `recomputed` (op_group is not read). Preconditions: the graph validates (so no byte sum
// passes 2^53 - 1); every op is owned by at most one group and is a member of at least one; each
// group's ops and recomputed are ascending, recomputed a subset of ops; every op some group reads from
// memory is owned by a group; plan.options.hardware names a profile (an unknown name is priced as
// "a100" rather than failing — the planner rejects it first).
void price_plan(const FusionGraph& graph, FusionPlan& plan);

}  // namespace fusion
