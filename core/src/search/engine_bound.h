// search/engine_bound.h — a lower bound over every plan the shared rule engine allows with recomputation and
// small-kernel packing (docs/design.md §17 "Search under xla-classic and recompute"): `seed` with `recompute` cheap
// or all (bytes) and `xla-classic` (time). It needs no search and holds whatever copies and packs a plan makes.
//
// Coarse components: ops joined by an edge the rule table lets fuse on its own (space.fusible, engine space) and,
// when the rules join loop groups horizontally (horizontal or horizontal_small_bytes), every fusible non-heavy
// reader of one tensor in one region with the others (no window, no element-count test: coarser is safe).
// Why every plan's groups respect them: a group's members and copies are joined by fused edges, each one the rule
// table allows (the verifier's edge and kind checks), and by shared reads of loop parts; a recomputed copy of p
// sits in a group only beside a reader r of p, and p -> r is then a fused edge. Packing joins loop parts of
// different components, which share no read (else they would be one component).
//   bytes: each component C of non-source ops reads each outside tensor its members read at least once (an outside
//     producer is never a copy inside: that edge would join it to C) and writes each member read by another
//     component or that is a graph output (no reader outside C can hold a copy of it), except a marked output
//     that could exist only as copies (recomputable, with readers): its write is not counted. Sources are alone
//     in every plan, so their groups' bytes are the greedy plan's. Sum over components: bytes_lower.
//   time: every plan's kernels k have Σ_k max(b_k/bw, f_k) + K·launch ≥ max(Σb/bw, Σf) + K·launch, with Σb ≥ the
//     components' bytes above, Σf ≥ every non-source op's flops once (copies only add), and K at least the
//     kernels no plan can avoid: one per heavy op (one per group) and per op the rules never let share a group, plus
//     one per region with an op that only a loop group can hold and no heavy op that could host it. Kernel times
//     are rounded down to whole picoseconds per kernel, so one picosecond per possible kernel (non-source op) is
//     taken off, and two more for the double sums (time_slack_ps, within the verifier's tolerance of 2 ps per op
//     for an optimal plan): time_lower_ps.
// Work O((n + m) α(n)).
#pragma once

#include <cstdint>

#include "detail/topology.h"
#include "fusion/plan.h"
#include "search/space.h"

namespace fusion::search {

struct EngineBound {
  std::uint64_t bytes_lower = 0;    // ≤ bytes_fused of every legal plan
  std::uint64_t time_lower_ps = 0;  // ≤ the sum of kernel_ps(time_us) over the groups of every legal plan
  std::uint64_t time_slack_ps = 0;  // what was taken off for rounding: a plan within it of the bound is optimal
};

// space: kind engine over the planned graph, with the rules the plan is judged under (recompute included);
// greedy_plan: any legal plan of the graph (its source groups' bytes are every plan's).
EngineBound engine_lower_bound(const SearchSpace& space, const detail::Producers& producers,
                               const FusionPlan& greedy_plan);

}  // namespace fusion::search
