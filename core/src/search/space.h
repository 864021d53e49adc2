// search/space.h — what plan search chooses among, per strategy (fusion/search.h, docs/design.md §17).
//
// A space says which edges the search may merge (`fusible`), which two ops joined by an edge may never share a
// group (`apart`), which other pairs it may merge (`shares_buffer_pairs`), and what it minimises:
//   seed: fusible = §5 rules 1-5 pass on the edge alone (detail::local_reason == none); apart = the edge fails
//     them (inside a part of fusible edges only the shape rule can); objective bytes_fused.
//   tvm: FuseOps' group invariants (docs/strategies.md "tvm"; the verifier's checks of a tvm group). apart: the
//     producer is a reduction (a reduction takes no consumers) or a graph output (it would be a second root),
//     the consumer is kOutEWiseFusable (it reads its inputs from memory), both are kCommReduce or above (one
//     heavy op per group), or a kOutEWiseFusable producer feeds more than a kBroadcast op. fusible: the producer is
//     not a source, both run in one region, neither is kOpaque, and the two are not apart.
//   inductor: the scheduler's nodes (presets/inductor_nodes.h: the lowering is Inductor's and stays fixed; the
//     space's graph is the scheduler graph, whose ops are sources and realized ops reading the buffers their
//     closures read, and `original` the graph the plan is of). A node is fusible when it is pointwise,
//     a reduction, a ConcatKernel or a template. apart: either is not fusible, they run in different regions, both
//     are templates, the consumer is a template (it takes no producers), a template producer feeds anything but a
//     pointwise node or ConcatKernel of its numel, two reductions of different ranges, or a reduction (n, r) and a node whose
//     numel is neither n·r nor n. Two nodes that read one buffer may be merged too (the scheduler pairs the
//     nodes sharing a buffer): each reader with the next 64 (max_fusion_buffer_group_pairwise_attempts).
//   xla: the groups XLA's GPU passes (docs/strategies.md "xla") can leave, by what they guarantee. A node is fusible
//     when its role (presets/xla_kinds.h) is loop, reduction or scatter. apart: either is not fusible, they run in
//     different regions, the producer is a scatter (it feeds nothing) or the consumer a scatter reading it as its
//     in-place operand, a concat into a reduction, two reductions, or a reduction into anything but an elementwise
//     op of its output element count (its epilogue). Two members may also be merged when they read one buffer and
//     have one iteration space (multi-output sibling fusion, `siblings`) or are loop ops of one element count and
//     size read by one op (horizontal loop fusion, `packable`); a reshape (bitcast) and a scatter pair with
//     nothing. Recomputation (priority fusion's duplication) is the search's choice too (xla_duplication.h).
//   engine: seed with rules set, recompute none (the shared rule engine, docs/strategies.md; objective bytes_fused).
//     A node is fusible when the rules let it share a group (not a source; a loop kind, an anchor under epilogue, a
//     reduction under reduction_prologue or reduction_epilogue). apart: detail::strategy_edge_reason refuses the
//     edge on its own (each such refusal holds for every group holding both ends: the verifier's kind, anchor,
//     prologue, epilogue, layout and shape checks). With rules.horizontal or horizontal_small_bytes two fusible
//     readers of one tensor in one region, neither heavy, of one element count unless horizontal_small_bytes is set,
//     may be merged too (may_pair); group_rules.h says when the group they form is legal.
//     Small-kernel packing is not searched, and needs not be: under bytes, split any legal group into its
//     data-connected components (members joined by inside edges or by reading one tensor). Components share no
//     input and no edge, so the group's bytes are the sum of theirs; each stays legal (one heavy op at most, the
//     anchor, prologue and epilogue shapes and the shape rule look at inside edges only, which the split keeps; an
//     epilogue's outside reads are unchanged, as no edge joins two components; a part's bytes and the joins of
//     the horizontal rule are unchanged; max_group_ops, max_group_operands and max_live_values only shrink, as
//     inputs, outputs and members read twice split between the components), and acyclic (a path from one component
//     to another through outside ops and back would be a cycle through the unsplit group). So the fewest bytes over
//     plans whose groups are data-connected is the fewest over all legal plans.
// The group rules that depend on the whole group (tvm: one root, max_depth, a kOutEWiseFusable op's epilogue;
// inductor: one range, one template and its epilogue, max_group_ops; xla: reductions and their epilogues,
// scatters, bitcasts and max_group_operands) are group_rules.h's.
// Timed spaces (tvm, inductor, xla) minimise estimated time (time_fused_us), compared in whole picoseconds per kernel,
// rounded down. Nothing here depends on the current grouping: these are properties of an edge or op alone.
#pragma once

#include <cstdint>

#include "detail/topology.h"
#include "fusion/hardware.h"
#include "fusion/plan.h"
#include "presets/inductor_nodes.h"

namespace fusion::search {

enum class SpaceKind : std::uint8_t { seed, tvm, inductor, xla, engine };

// A kernel's time in whole picoseconds, rounded down (saturating): the unit a timed space compares in.
inline std::uint64_t kernel_ps(double us) {
  const double ps = us * 1e6;
  return ps >= 1.8e19 ? std::uint64_t{18'000'000'000'000'000'000u} : static_cast<std::uint64_t>(ps);
}

// xla: what multi-output sibling fusion compares of two ops (XLA's iteration space, space.cpp).
struct SiblingKey {
  std::uint64_t space = 0, reduced = 0;  // iteration space; a reduction's output elements
  bool reduction = false, transpose = false, pairs = false;  // pairs: may pair at all (not a bitcast or scatter)
  Shape transpose_in, transpose_out;
};
bool same_iteration_space(const SiblingKey& a, const SiblingKey& b);

// Each reader of a buffer is paired with at most this many later readers (inductor, xla).
inline constexpr std::size_t kSharedBufferWindow = 64;

struct SearchSpace {
  const FusionGraph& graph;             // the graph searched (inductor: the scheduler graph)
  const detail::Consumers& consumers;   // its consumer rows
  SpaceKind kind = SpaceKind::seed;
  bool broadcast = true;
  std::int64_t max_depth = 0;  // tvm: most ops per group; inductor: max_group_ops; 0 for no limit
  HardwareProfile hardware{};  // the time objective's device
  const FusionGraph* original = nullptr;             // inductor: the planned graph
  const presets::SchedulerGraph* lowered = nullptr;  // inductor: its lowering
  std::int64_t max_operands = 0;                     // xla: max_group_operands (0 for no limit)
  const StrategyRules* rules = nullptr;              // engine: the rule table

  bool timed() const { return kind != SpaceKind::seed && kind != SpaceKind::engine; }
  OpId plan_op(OpId x) const { return lowered ? lowered->original[x] : x; }  // the op of the plan
  std::uint64_t bytes_of(OpId x) const;  // its output's bytes
  bool marked_output(OpId x) const;      // `output: true`
  bool graph_output(OpId x) const { return marked_output(x) || consumers.count(x) == 0; }
  bool fusible_node(OpId x) const;       // may it share a group at all (a source never does)
  bool apart(OpId p, OpId c) const;      // may the two ends of edge p -> c never share a group?
  bool fusible(OpId p, OpId c) const;    // may the search merge edge p -> c?
  bool shares_buffer_pairs() const {
    return kind == SpaceKind::inductor || kind == SpaceKind::xla ||
           (kind == SpaceKind::engine && (rules->horizontal || rules->horizontal_small_bytes > 0));
  }
  bool may_pair(OpId a, OpId b) const;   // may two readers of one buffer be merged (inductor; xla: siblings; engine)?
  SiblingKey sibling_key(OpId x) const;  // xla
  bool packable(OpId a, OpId b) const;   // xla: may two ops read by one op be merged (horizontal loop fusion)?
};

}  // namespace fusion::search
