// fusion/plan.h — the planner's result: groups, edge decisions with reasons, and bytes moved.
//
// A plan is a partition of the ops into groups (one GPU kernel each), listed in a topological order
// of the group graph (ties broken by smallest op id). Every distinct producer -> consumer edge has a
// decision: fused (both ends in one group) or the reason it was not. Produced by fusion/planner.h,
// checked by fusion/verify.h, written and read by fusion/json_io.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fusion/graph.h"
#include "fusion/numerics.h"
#include "fusion/op_kind.h"
#include "fusion/search.h"

namespace fusion {

enum class EdgeReason {
  none,              // the edge is fused
  source,            // the producer is a source (already in memory); sources stay alone
  barrier_producer,  // the producer is a barrier (not elementwise)
  barrier_consumer,  // the consumer is a barrier (not elementwise)
  shape,             // shapes are not broadcast-compatible (or not equal without broadcast)
  cycle,             // merging would put a barrier between two halves of one group
  // Reasons of the compiler-style strategies (docs/strategies.md); region also applies to seed.
  anchor,            // the group would hold two heavy ops (matmul, conv, reduction)
  layout,            // a layout-changing producer (transpose) does not fuse into a reduction
  multi_pass,        // a reduction epilogue would need a full-size tensor (softmax/layernorm-style passes)
  limit,             // the merged group would exceed max_group_ops, max_group_operands or max_live_values
  unprofitable,      // the time model says the merge or recomputation is slower
  region,            // the ops run in different control-flow regions
  // Reasons of the compiler procedures (docs/strategies.md, "Presets").
  post_dominator,    // tvm: the consumer is not on a fusible path to the producer's immediate post-dominator
  output,            // tvm, xla: the producer is a graph output, written by its own kernel
  consumers,         // xla: the producer fuses into all its consumers or none, and one of them cannot take it
  range,             // inductor: the two nodes' iteration ranges (numel, rnumel) are not compatible
  numerics,          // eager parity (docs/design.md §18): the producer is a rounding point the merge would remove
};

const char* to_string(EdgeReason reason);
std::optional<EdgeReason> parse_edge_reason(std::string_view name);

struct EdgeDecision {
  OpId producer;
  OpId consumer;
  bool fused;
  EdgeReason reason;  // none exactly when fused
};

struct FusionGroup {
  std::int32_t id = 0;
  std::vector<OpId> ops;      // members, ascending id
  std::vector<OpId> inputs;   // distinct producers outside the group, ascending id
  std::vector<OpId> outputs;  // members consumed outside the group or with no consumer, ascending id
  std::uint64_t bytes_read = 0;
  std::uint64_t bytes_written = 0;
  std::vector<OpId> recomputed;  // members owned by another group (or by none) and recomputed here, ascending
  std::string label;             // pattern label (docs/strategies.md), empty when none
  std::string rule;              // the compiler behaviour that formed it (docs/strategies.md), empty when none
  bool kernel = false;           // runs as a kernel: some member has inputs (a group of sources only does not)
  std::uint64_t flops = 0;
  double time_us = 0.0;          // 0 for a group of sources
  std::uint64_t bytes_unfused = 0;  // what the ops it owns move unfused (op_bytes_unfused summed; an op left only
                                    // as copies counts in the first group that recomputes it)
  std::int64_t bytes_saved = 0;     // bytes_unfused - (bytes_read + bytes_written); sums to the plan's saving
  // For a graph with named dimensions (docs/design.md §16): bytes_read / bytes_written as polynomials in the
  // names (fusion/formula.h text), nullopt when a coefficient does not fit.
  std::optional<std::string> bytes_read_formula, bytes_written_formula;
  std::vector<NumericsNote> numerics;  // what running it as one kernel may change (options.numerics, §18)
};

// Something the caller may want to know that did not stop the plan, e.g. {"unused_dim", "...", "/dims/N"}.
struct PlanWarning {
  std::string code;
  std::string message;
  std::string path;
  bool operator==(const PlanWarning&) const = default;
};

enum class Recompute { none, cheap, all };

// The passes of the `xla` preset's pipeline, in pipeline order (a bit set in StrategyRules::passes).
enum XlaPass : std::uint8_t { xla_priority = 1, xla_multi_output = 2, xla_horizontal = 4 };

// The rule table of docs/strategies.md. A strategy preset fills it; options may override any rule.
struct StrategyRules {
  bool horizontal = false;
  std::uint64_t horizontal_small_bytes = 0;  // 0 = no small-kernel packing
  std::int64_t horizontal_max_ops = 0;       // 0 = no cap
  bool epilogue = false;
  bool reduction_prologue = false;
  bool reduction_epilogue = false;
  Recompute recompute = Recompute::none;
  std::vector<OpKind> movement;              // data-movement kinds treated as loop ops
  std::int64_t max_group_ops = 0;            // 0 = no limit
  std::int64_t max_group_operands = 0;
  std::int64_t max_live_values = 0;
  bool refuse_unprofitable = false;
  // Rules of the compiler procedures (docs/strategies.md, "Presets").
  std::uint8_t passes = 0;                   // xla: XlaPass bits
  std::int64_t max_depth = 0;                // tvm: most ops one fusion step may produce (FuseOps max_depth)
  std::int64_t max_pointwise_cat_inputs = 0; // inductor: a concat with more inputs is a copy kernel of its own

  bool operator==(const StrategyRules&) const = default;
};

// Is op a recomputed copy in this group (listed in group.recomputed)?
inline bool is_recomputed(const FusionGroup& group, OpId op) {
  return std::binary_search(group.recomputed.begin(), group.recomputed.end(), op);
}

struct PlannerOptions {
  bool broadcast = true;          // merged edges need broadcast-compatible (else equal) shapes
  bool resident_sources = false;  // sources cost nothing (their consumers' reads still count)
  std::string strategy = "seed";  // "seed" (docs/design.md §5-§6), "xla", "xla-classic", "tvm", "inductor"
  std::string hardware = "a100";  // the time model's device profile (fusion/hardware.h)
  StrategyRules rules;            // resolved: the preset's rules with the caller's overrides applied
  DimValues dims;                 // values of named dimensions, over the graph's defaults (docs/design.md §16)
  SearchSettings search;          // greedy (default) or optimal plan search (fusion/search.h, docs/design.md §17)
  NumericsSettings numerics;      // notes, reference evaluation, eager parity (fusion/numerics.h, docs/design.md §18)
};

struct FusionPlan {
  PlannerOptions options;
  std::vector<FusionGroup> groups;
  std::vector<std::int32_t> op_group;  // op id -> group id
  std::vector<EdgeDecision> edges;     // by consumer id, then first occurrence among its inputs
  std::vector<std::uint64_t> op_bytes_unfused;  // per op: its distinct inputs read + its output written
  std::uint64_t bytes_unfused = 0;
  std::uint64_t bytes_fused = 0;
  double speedup_estimate = 1.0;       // bytes_unfused / bytes_fused, 1.0 when both are 0
  std::int64_t kernels_unfused = 0;    // ops that are not sources
  std::int64_t kernels_fused = 0;      // groups with kernel true
  std::uint64_t flops_unfused = 0;     // time model (docs/strategies.md): every op once
  std::uint64_t flops_fused = 0;       // every group's members, recomputed copies included
  double time_unfused_us = 0.0;        // one kernel per non-source op
  double time_fused_us = 0.0;          // one kernel per non-source group
  double time_speedup = 1.0;           // time_unfused_us / time_fused_us, 1.0 when both are 0
  // Named dimensions (docs/design.md §16), filled when the graph uses names (has_dims).
  bool has_dims = false;
  DimValues dims;                      // the values used, by name
  bool grouping_independent_of_dims = false;  // proven: every value of every name gives this grouping
  std::optional<std::string> bytes_unfused_formula, bytes_fused_formula, bytes_saved_formula;
  std::vector<PlanWarning> warnings;   // e.g. unused_dim
  SearchCertificate search;            // filled when options.search.mode is optimal (fusion/search.h)
  NumericsReport numerics;             // filled when options.numerics evaluates (fusion/numerics.h)
};

}  // namespace fusion
