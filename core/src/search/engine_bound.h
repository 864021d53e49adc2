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
//     that could exist only as copies (recomputable, with readers): its write is not counted.
//     Blocked edges: a fusible edge p -> c inside C, where p has a reader b that never shares a group (not
//     fusible) and b reaches c (a search bounded in visits; out of budget, not blocked), is never fused: the
//     kernel G owning c does not own p (G -> b -> G would be a cycle), and p's owner H (it exists: b reads p's
//     output) is not G. So G reads p, or holds a copy of p and gets p's inputs the same way, down to tensors it
//     reads: an op of C (a read the sum above never counts), or one outside C, which H needs too and reads a second
//     time (no copy of an outside producer sits beside its reader) unless H reads an op of C between the two.
//     needed(p) = min(bytes(p), the most of needed over p's inputs), where an input outside C counts min(its
//     bytes, the least bytes of C's ops between it and p), a non-copyable op of C its bytes; depth and calls are
//     capped (0 beyond). The most of needed(p) over C's blocked edges is added to C (not the sum: the reads of
//     two edges may be one). Sources are alone in every plan, so their groups' bytes are the greedy plan's. Sum
//     over components: bytes_lower.
//   time: an op the rules never let share a group (not a source, not fusible: a barrier, an anchor without
//     epilogues, ...) is its own kernel in every plan, with its own reads and write: priced alone. The other kernels
//     k have Σ_k max(b_k/bw, f_k) + K·launch ≥ max(Σb/bw, Σf) + K·launch, with Σb ≥ the bytes above of the
//     components of fusible ops, Σf ≥ every fusible op's flops once (copies only add), and K at least one per heavy
//     op that may share a group (one per group; heavy kernels never pack), plus, over the components of loop ops
//     only: one per component that packs with nothing (two when it holds a blocked edge, see bytes), plus per region
//     the longest chain of ops of the others, each reaching the next by a path whose first edge the rule table
//     never fuses, or by any path when it may not be recomputed and the next lies in another component. Their
//     owners (each but the last has one: across a never-fused edge its reader reads its output) and any instance
//     of the last are distinct kernels: with o_i's owner G holding o_j, walk the path back from o_j. Inside G all
//     the way, it would make the first edge a fused one, or o_i and o_{i+1} one part (parts lie in one
//     component); else G reads a path op from another kernel, which (walking on) gets o_i's value read from G (no
//     copy of o_i sits across a never-fused edge, and the other kind has none), a cycle of the group graph.
//     A part of a group (members joined by inside edges, copies included, all of one component) moves at least
//     the inputs of its first op and the output of its last (a copy is never last; the last op's readers are
//     outside the group, and it is written unless it may be recomputed in each of them: counted 0 for a copyable
//     op that is no graph output), so at least the component's least input bytes of an op plus its least such
//     output bytes; parts of different components share no read, so they share a group only by each moving at
//     most horizontal_small_bytes (the verifier's parts rule).
//     A component whose least part is larger therefore has kernels of its own.
//     Kernel times are rounded down to whole picoseconds per kernel, so one picosecond per possible kernel
//     (non-source op) is taken off, and two more for the double sums (time_slack_ps, within the verifier's
//     tolerance of 2 ps per op for an optimal plan): time_lower_ps.
// Work O((n + m) α(n)) plus the blocked-edge searches (at most 4,096 visits each, 2^22 in all) and, per region
// holding packable components (at most 8, else one kernel each), one O(n + m) chain pass.
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
