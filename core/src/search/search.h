// search/search.h — plan search (fusion/search.h, docs/design.md §17): the algorithm, for every space (space.h:
// seed minimises bytes, tvm, inductor and xla estimated time in whole picoseconds per kernel; "bytes" below means the
// objective). Under xla a part is searched over duplication and partitions (xla_part.h), the improved parts'
// copies replace greedy's, and the cycle check of step 3 follows the copies' reads too (group_cycles.h).
//
// 1. Decomposition (components.h). Groups never cross a component of fusible edges and bytes are a sum over
//    groups, so each component is priced and searched alone. The acyclic rule is the one thing components share:
//    each is searched under the relaxed rule (a cycle through its own groups and single outside ops; such a
//    cycle is a cycle whatever the others do), so a component's relaxed optimum is a lower bound for its share
//    of every legal plan, and the sum over components a lower bound for the whole plan.
// 2. Per component: nothing to search when greedy's bytes already equal the merged bound (component_totals.h);
//    otherwise branch and bound (branch_and_bound.h) from greedy's bytes as incumbent, with the budget the
//    parts before it left (parts smallest first, ties in topological order of their first member). A part is
//    searched with sets of 1, 4 or 16 words (bits.h, local_problem.h: up to 64, 256 or kMaxPartOps = 1,024 ops);
//    parts of more than 1,024 ops, or whose outside paths are too long to list, keep greedy's grouping and their
//    merged bound.
// 3. Assembly: greedy's grouping with each improved component's best partition. If the combined group graph has
//    a cycle (two components' choices together), every improved component with a group on or after a cycle goes
//    back to greedy's grouping, until none is left (greedy alone is acyclic, so this ends); the bound stays valid
//    and the status becomes bounded.
// 4. Reasons: edges of an improved component that stay apart get `shape` when a shape-apart pair lies between
//    their two groups, else `cycle` (the search keeps only maximal partitions, so merging them would close a
//    cycle); other edges keep greedy's reasons.
// The answer is optimal exactly when its bytes meet the proven lower bound: always when every component was
// settled (searched to the end or already at its bound) and none went back to greedy; by luck otherwise.
#pragma once

#include "detail/grouping.h"
#include "search/space.h"

namespace fusion::search {

struct SearchOutcome {
  detail::Grouping grouping;        // the chosen plan's grouping (greedy's where nothing better was kept)
  SearchCertificate certificate;    // everything but the gap (left to the caller)
  std::uint64_t expected_score = 0; // what the grouping must price to (a self-check): bytes_fused, or under a
                                    // timed space total_time_ps of the plan (component_totals.h)
};

// greedy / greedy_plan: the strategy's greedy grouping and its numbered, priced plan; space: space.h.
SearchOutcome search_plan(const SearchSpace& space, const detail::Producers& producers, const std::vector<OpId>& order,
                          const PlannerOptions& options, const detail::Grouping& greedy, const FusionPlan& greedy_plan);

}  // namespace fusion::search
