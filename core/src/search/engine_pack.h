// search/engine_pack.h — small-kernel packing by chain levels over a finished plan, for the engine search under
// xla-classic (docs/design.md §17 "Search under xla-classic and recompute").
//
// packed_by_levels takes a plan's small loop groups (every member a loop kind of one region, no heavy op, no copy,
// bytes_read + bytes_written at most horizontal_small_bytes, so each of its parts moves at most that) and gives
// each its level: the most such groups on a path of the group graph ending at it. Groups of one level reach none of
// each other (a path would raise the later one's level), and a path between two packs only climbs levels, so
// packing each (region, level) class keeps the group graph acyclic; the fewest packs any plan can make of them is
// the longest such chain (engine_bound.h counts it). A class is split first-fit where max_group_ops or
// max_group_operands (inputs plus outputs summed, never below the pack's) would be passed. No edge is fused: a
// pack joins parts that read no tensor of each other. Packing never moves more bytes and saves a launch per
// group joined. nullopt when nothing packs. The caller checks the result (verify_groups: max_live_values and the
// rest) and keeps the unpacked grouping when it fails. Work O(n + m + G log G) over G groups.
#pragma once

#include <optional>

#include "detail/grouping.h"
#include "fusion/plan.h"

namespace fusion::search {

// grouping: the one `plan` was finished from (representatives; copies kept as they are).
std::optional<detail::Grouping> packed_by_levels(const FusionGraph& g, const PlannerOptions& options,
                                                 const detail::Grouping& grouping, const FusionPlan& plan);

}  // namespace fusion::search
