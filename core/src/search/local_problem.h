// search/local_problem.h — one part of plan search (a component of fusible edges, components.h, or a union of
// them) as a bitmask problem.
//
// Members get local indices 0..k-1 in topological order; a set of members is a Bits<W> (bits.h) of W 64-bit
// words, the smallest width that holds k: 64, 256 or kMaxPartOps = 1,024 ops (width_for). The problem holds what
// the objective (§8 bytes, or the time model) and legality (fusion/search.h, space.h) need about the part, with
// every op outside it treated as a fixed single op ("relaxed" legality):
//   - per member: output bytes, whether its write is forced (output: true, no consumer, or a consumer outside
//     the part), and its consumers inside (a set);
//   - per outside producer that members read: its bytes and its readers inside (a set);
//   - the fusible edges (space.h), in the greedy order (consumers in order, inputs in first-occurrence order), with
//     their plan edge index; the pairs that may never share a group (`apart`: an edge between them that the space
//     keeps apart, under seed one that fails the shape rule);
//   - for a timed space: each member's vector and matrix flops (fusion/time_model.h) and the device; for tvm each
//     member's pattern, the members of pattern kCommReduce or above (`heavy`) and the kOutEWiseFusable ones; for
//     inductor each member's node kind and range and its closure's inlined ops;
//   - inductor: besides the edges, the pairs of members that read one buffer (space.h), as edges with plan_edge
//     -1, so a group may be joined by shared reads alone; xla: those of one iteration space (siblings) and the
//     pairs of loop members read by one op (packable), likewise;
//   - engine: per member whether it is heavy, a reduction, an anchor or a movement op, its output elements, the
//     members it reads (`inputs`) and the most elements an outside producer of it has; the rule table's limits and
//     horizontal switches; and the pairs of fusible readers of one tensor (space.h may_pair) as edges with plan_edge -1;
//   - xla: per member its role facts (reduction, elementwise, reshape, scatter and its in-place operand), output
//     elements, sibling key, `reach` (every member a path from it reaches, through anything), and `duplicable`
//     (xla_duplication.h); with_duplicated() then fixes which members exist only as copies (`duplicated`) and
//     what each member's group computes for it (`copy_of`);
//   - direct[i]: members that read member i; via[i]: members reachable from i by a path whose inner ops all lie
//     outside the part (at least one). A cycle through those is a cycle whatever the other parts do. after[i]
//     (timed spaces): members reachable from i by any path through at least one outside op (never in i's group).
// build_local_problem answers nullopt when the part has more than 64 W members or the outside paths take more
// than kMaxOutsideSteps steps to find; such a part keeps its greedy grouping.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "detail/topology.h"
#include "fusion/plan.h"
#include "search/bits.h"
#include "search/space.h"
#include "presets/tvm_patterns.h"

namespace fusion::search {

inline constexpr std::size_t kMaxPartOps = 1024;
inline constexpr std::int64_t kMaxOutsideSteps = 1 << 20;

// The number of words a part of `ops` members needs: 1, 4 or 16; 0 when it has more than kMaxPartOps.
constexpr std::size_t width_for(std::size_t ops) { return ops <= 64 ? 1 : ops <= 256 ? 4 : ops <= kMaxPartOps ? 16 : 0; }

struct LocalEdge {
  int producer = 0, consumer = 0;  // local indices
  std::int64_t plan_edge = 0;      // index into the space graph's edge list (producer rows); -1 for a pair
                                   // of readers of one buffer (inductor)
};

template <std::size_t W>
struct OutsideRead {
  std::uint64_t bytes = 0;
  Bits<W> readers;
};

template <std::size_t W>
struct LocalProblem {
  using Mask = Bits<W>;
  std::vector<OpId> ops;                  // local index -> op id
  std::vector<std::uint64_t> bytes;       // output bytes
  std::vector<bool> forced_write;
  std::vector<Mask> consumers;            // members reading it
  std::vector<Mask> apart;                // members it may never share a group with
  std::vector<Mask> apart_readers;        // members reading it that it may never share a group with (apart, or
                                          // also reached through outside ops)
  std::vector<Mask> direct, via;          // see above
  std::vector<Mask> after;                // members a path from it reaches through an outside op (see above)
  std::vector<OutsideRead<W>> outside_reads;
  std::vector<LocalEdge> edges;           // fusible edges, greedy order
  // What the space adds (space.h): its kind and limit, and for a timed space the flops and device.
  SpaceKind kind = SpaceKind::seed;
  std::int64_t max_depth = 0;
  HardwareProfile hardware{};
  std::vector<std::uint64_t> vector_flops, matrix_flops;  // per member, timed spaces only
  std::vector<presets::TvmPattern> pattern;               // per member, tvm only
  Mask heavy, out_ewise;                                  // tvm only
  Mask unpostdominated;  // tvm only: members no other member post-dominates (roots in every partition)
  // inductor only: per member its node kind and range, and the inlined ops of its closure (indices into the
  // inlined flops, each op once per part), which a group computes once however many members hold them.
  std::vector<presets::InductorNode> node;
  std::vector<presets::IterationRange> range;
  Mask templates, reductions;
  std::vector<std::vector<std::uint32_t>> inlined;
  std::vector<std::uint64_t> inlined_vector_flops, inlined_matrix_flops;
  // xla only (reductions above too).
  std::int64_t max_operands = 0;              // max_group_operands, 0 for none
  Mask elementwise, reshapes, scatters, duplicable;
  std::vector<int> inplace;                   // per scatter member: its in-place operand's local index, else -1
  std::vector<std::uint64_t> elements;        // output elements
  std::vector<SiblingKey> sibling;
  std::vector<Mask> reach;
  Mask duplicated;                            // members that exist only as copies (with_duplicated)
  std::vector<Mask> copy_of;                  // per member: the duplicated members its group computes for it
  // engine only (heavy, reductions, elements and max_operands above too; max_depth is max_group_ops).
  Mask anchors, movement;                     // anchors (matmul, conv); movement kinds
  std::vector<Mask> inputs;                   // per member: the members it reads
  std::vector<std::uint64_t> outside_elements;  // per member: the most elements of a producer outside the part
  std::vector<LocalEdge> refused;             // the edges apart pairs come from, plan_edge their reason (EdgeReason)
  std::int64_t max_live = 0;                  // max_live_values, 0 for none
  bool horizontal = false;                    // rules.horizontal
  std::uint64_t small_bytes = 0;              // rules.horizontal_small_bytes
};

// position: op -> its index in the topological order.
template <std::size_t W>
std::optional<LocalProblem<W>> build_local_problem(const SearchSpace& space, const detail::Producers& producers,
                                                   const std::vector<OpId>& members,
                                                   const std::vector<std::int64_t>& position);

// Members of g reachable from the members `from` along `next` (consumers or direct: downstream; inputs: upstream)
// inside g; a member of `from` is in the answer only when reachable from one.
template <std::size_t W>
Bits<W> reach_within(const std::vector<Bits<W>>& next, const Bits<W>& g, const Bits<W>& from) {
  Bits<W> seen, frontier;
  from.each([&](std::size_t s) { frontier |= next[s] & g; });
  while (frontier.any()) {
    seen |= frontier;
    Bits<W> more;
    frontier.each([&](std::size_t s) { more |= next[s] & g; });
    frontier = more.minus(seen);
  }
  return seen;
}

// Pairs of members listed together (readers of one buffer, members read by one op, readers of one copy) that
// accepts(a, b) (local indices) accepts, each with the next kSharedBufferWindow of its list (space.h), appended to
// p.edges with plan_edge -1, without repeating a pair already there.
template <std::size_t W, typename Accepts>
void add_pairs(const std::vector<std::vector<int>>& lists, Accepts&& accepts, LocalProblem<W>& p) {
  std::vector<Bits<W>> paired(p.ops.size());
  for (const LocalEdge& e : p.edges) {
    paired[static_cast<std::size_t>(e.producer)].set(static_cast<std::size_t>(e.consumer));
    paired[static_cast<std::size_t>(e.consumer)].set(static_cast<std::size_t>(e.producer));
  }
  for (const std::vector<int>& list : lists)
    for (std::size_t a = 0; a < list.size(); ++a)
      for (std::size_t b = a + 1; b < list.size() && b <= a + kSharedBufferWindow; ++b) {
        const auto x = static_cast<std::size_t>(list[a]), y = static_cast<std::size_t>(list[b]);
        if (paired[x].test(y) || !accepts(x, y)) continue;
        paired[x].set(y);
        paired[y].set(x);
        p.edges.push_back({list[a], list[b], -1});
      }
}

// Fills after[] from direct[] and via[] (see above); local indices are topological, so one pass from the last member.
template <std::size_t W>
void find_cycle_order(LocalProblem<W>& p);

}  // namespace fusion::search
