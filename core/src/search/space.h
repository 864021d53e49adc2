// search/space.h — what plan search chooses among, per strategy (fusion/search.h, docs/design.md §17).
//
// A space says which edges the search may merge (`fusible`), which two ops joined by an edge may never share a
// group (`apart`), and what it minimises:
//   seed: fusible = §5 rules 1-5 pass on the edge alone (detail::local_reason == none); apart = the edge fails
//     them (inside a part of fusible edges only the shape rule can); objective bytes_fused.
//   tvm: FuseOps' group invariants (docs/strategies.md "tvm"; the verifier's checks of a tvm group). apart: the
//     producer is a reduction (a reduction takes no consumers) or a graph output (it would be a second root),
//     the consumer is kOutEWiseFusable (it reads its inputs from memory), both are kCommReduce or above (one
//     heavy op per group), or a kOutEWiseFusable producer feeds more than a kBroadcast op. fusible: the producer is
//     not a source, both run in one region, neither is kOpaque, and the two are not apart. The group rules that
//     depend on the whole group (one root, max_depth, a kOutEWiseFusable op's epilogue) are group_rules.h's.
//     Objective: estimated time (time_fused_us), compared in whole picoseconds per kernel, rounded down.
// Nothing here depends on the current grouping: these are properties of an edge or op alone.
#pragma once

#include <cstdint>

#include "detail/legality.h"
#include "detail/topology.h"
#include "fusion/hardware.h"
#include "fusion/plan.h"
#include "presets/tvm_patterns.h"

namespace fusion::search {

enum class SpaceKind : std::uint8_t { seed, tvm };

// A kernel's time in whole picoseconds, rounded down (saturating): the unit a timed space compares in.
inline std::uint64_t kernel_ps(double us) {
  const double ps = us * 1e6;
  return ps >= 1.8e19 ? std::uint64_t{18'000'000'000'000'000'000u} : static_cast<std::uint64_t>(ps);
}

struct SearchSpace {
  const FusionGraph& graph;
  const detail::Consumers& consumers;
  SpaceKind kind = SpaceKind::seed;
  bool broadcast = true;
  std::int64_t max_depth = 0;  // tvm: most ops per group, 0 for no limit
  HardwareProfile hardware{};  // the time objective's device

  bool timed() const { return kind != SpaceKind::seed; }

  bool graph_output(OpId x) const { return graph.op(x).output || consumers.count(x) == 0; }

  // May the two ends of edge p -> c never share a group?
  bool apart(OpId p, OpId c) const {
    if (kind == SpaceKind::seed) return detail::local_reason(graph.op(p), graph.op(c), broadcast) != EdgeReason::none;
    using presets::TvmPattern;
    const TvmPattern a = presets::tvm_pattern(graph.op(p).kind), b = presets::tvm_pattern(graph.op(c).kind);
    return a == TvmPattern::comm_reduce || graph_output(p) || b == TvmPattern::out_ewise_fusable ||
           (a >= TvmPattern::comm_reduce && b >= TvmPattern::comm_reduce) ||
           (a == TvmPattern::out_ewise_fusable && b > TvmPattern::broadcast);
  }

  // May the search merge edge p -> c?
  bool fusible(OpId p, OpId c) const {
    if (kind == SpaceKind::seed) return !apart(p, c);
    const FusionOp& a = graph.op(p);
    const FusionOp& b = graph.op(c);
    using presets::TvmPattern;
    return !a.is_source() && a.region == b.region && presets::tvm_pattern(a.kind) != TvmPattern::opaque &&
           presets::tvm_pattern(b.kind) != TvmPattern::opaque && !apart(p, c);
  }
};

}  // namespace fusion::search
