// search/component_totals.h — whole-component byte figures that need no search (components.h).
//
// plan_bytes: what a priced plan's groups inside the component read and write (bytes_read + bytes_written of
// each group holding one of its members), i.e. the component's share of the plan's bytes_fused (§8).
// merged_bytes: the bytes if the whole component were one group: each outside producer its members read, once,
// plus every member whose write is forced (output: true, no consumer, or a consumer outside the component).
// Merging never adds bytes, so merged_bytes is a lower bound for every partition of the component.
// plan_time_ps / merged_time_ps: the same for the time model, in whole picoseconds per kernel rounded down
// (space.h kernel_ps): the plan's groups' time_us, and one kernel of merged_bytes and every member's flops.
#pragma once

#include <cstdint>
#include <vector>

#include "detail/topology.h"
#include "fusion/plan.h"
#include "search/space.h"

namespace fusion::search {

// members: ops of the space's graph (space.h); plan_* map them to the plan's ops.
std::uint64_t plan_bytes(const FusionPlan& plan, const SearchSpace& space, const std::vector<OpId>& members);
std::uint64_t merged_bytes(const SearchSpace& space, const detail::Producers& producers,
                           const std::vector<OpId>& members, const std::vector<std::int32_t>& component_of);
std::uint64_t plan_time_ps(const FusionPlan& plan, const SearchSpace& space, const std::vector<OpId>& members);
std::uint64_t total_time_ps(const FusionPlan& plan);  // every group of the plan
// Flops counted on the planned graph, each op once (under inductor the union of the members' closures).
std::uint64_t merged_time_ps(const SearchSpace& space, std::uint64_t merged_bytes, const std::vector<OpId>& members);

}  // namespace fusion::search
