// search/lowered_plan.h — inductor's search runs over the scheduler graph (space.h, presets/inductor_nodes.h);
// these carry groupings between it and the planned graph.
//
// to_scheduler: the greedy grouping by scheduler id: each node's representative is its group's (a realized op or
//   a source, never an inlined op), the rules keyed the same way, a `none` reason per scheduler edge (unused).
// to_planned: a grouping of the scheduler graph as a plan's: realized ops and sources take their node's
//   representative; an inlined op computed by one group only (the inlined ops of its members' closures) is a member
//   of it, and one computed by several is a copy in each and owned by none (Inductor recomputes inlined
//   expressions in each kernel), as the scheduler's own plan has them; reasons are the greedy
//   plan's (`complete_cut_reasons` fixes the edges the search cut), rules mapped back.
// complete_cut_reasons: after pricing, an edge left unfused whose reason is still none (greedy fused it) gets
//   the scheduler's refusal for the two groups: `limit` (more than max_group_ops nodes), `barrier_producer` (a
//   template would take more than pointwise epilogues of its numel), `range` (reduction ranges or numels that do
//   not fit one kernel), else `cycle`.
// Work O(n + m + closure sizes).
#pragma once

#include "detail/grouping.h"
#include "presets/inductor_nodes.h"

namespace fusion::search {

// edges: the number of distinct edges of the scheduler graph (its producer rows).
detail::Grouping to_scheduler(const detail::Grouping& greedy, const presets::SchedulerGraph& lowered, std::size_t edges);
detail::Grouping to_planned(const detail::Grouping& searched, const presets::SchedulerGraph& lowered,
                            const detail::Grouping& greedy);
void complete_cut_reasons(const presets::SchedulerGraph& lowered, std::int64_t max_group_ops, FusionPlan& plan);

}  // namespace fusion::search
