// fusion/verify.h — an independent check of any plan against docs/design.md §5-§8 and docs/strategies.md
// (described in docs/design.md §11).
//
// verify_plan trusts nothing the planner or the cost model computed: given a graph that validates, the
// options (whose `rules` are already resolved from the strategy) and a plan (from the planner, from JSON, or
// hand-made), it checks, per the rules:
//  - membership: every op owned by exactly one group (op_group names it), or present only as recomputed
//    copies (op_group names the first group holding one); `recomputed` an ascending subset of `ops`; copies
//    only of kinds the `recompute` rule allows, each read by a member of its group, never read from memory;
//  - group shapes: multi-op groups hold loop kinds plus at most one heavy op allowed by its rule; an anchor
//    has no producer and no movement op in its group; a reduction's epilogue stays on its iteration space
//    and reads nothing larger from outside; its prologue feeds it no transpose directly and feeds no other
//    member; one region per group; the shape rule on every inside edge without a movement end and not into a
//    reduction; one connected part, or (with horizontal rules) parts joined by a shared input or each
//    small; max_group_ops, max_group_operands, max_live_values;
//  - the group graph (copies read their producers) is acyclic;
//  - inputs, outputs (copies never written; `output` ops always), bytes, totals, each group's `kernel` flag
//    (true exactly when a member has inputs) and the kernel counts, flops and
//    the roofline time of fusion/hardware.h's profile (relative tolerance 1e-9);
//  - the edge list has every distinct edge once, fused exactly when the producer is a member of the
//    consumer's group, with a reason that fits the graph, the rules and the groups (verify/edges.cpp);
//  - every group's generated kernel (fusion/codegen.h, both dialects) loads and stores, by its annotations,
//    exactly the group's bytes_read and bytes_written (verify/code.cpp).
// It returns the violations found (empty for a valid plan). It shares no code with the planner or the cost
// model beyond the graph and shape primitives, fusion/strategy.h's kind sets and fusion/hardware.h's
// profiles. Shown by tests/core/verify.test.cpp and tests/core/verify_strategies.test.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fusion/graph.h"
#include "fusion/plan.h"

namespace fusion {

struct Violation {
  std::string code;  // partition, recompute, not_fusible, anchor, multi_pass, layout, range, region, shape,
                     // disconnected, limit, cycle, inputs, outputs, bytes, kernels, totals, time, edges, code
  std::string message;
  std::optional<std::int64_t> group;
  std::optional<std::int64_t> op;
};

// Precondition: validate(graph) is empty. At most kMaxReportedErrors violations are listed.
std::vector<Violation> verify_plan(const FusionGraph& graph, const PlannerOptions& options,
                                   const FusionPlan& plan);

// Only the checks of the groups themselves (membership, copies, kinds, parts and limits, acyclic), none of the
// bytes, times, edges, formulas, certificate, numerics or code: what plan search asks of a candidate grouping
// before it prices it as the planner does (docs/design.md §17). Precondition: as verify_plan.
std::vector<Violation> verify_groups(const FusionGraph& graph, const PlannerOptions& options, const FusionPlan& plan);

}  // namespace fusion
