// presets/presets.h — the compiler procedures behind the `tvm`, `xla` and `inductor` strategies.
//
// Each procedure re-states, over our graph, the decisions of one compiler's fusion pass (docs/strategies.md,
// "Presets", names the files and functions each one follows and where we knowingly depart). Each takes a
// validated graph with its producer/consumer rows and a topological order, and returns a Grouping
// (detail/grouping.h): the representative of every op's group (-1 for an op that exists only as copies),
// copies, a reason for every distinct edge, and the behaviour that formed each multi-op group. The planner
// numbers, prices and labels the groups as for every strategy; the verifier checks them (core/src/verify/).
// Everything is deterministic and iterative (no recursion), and near-linear in the graph.
#pragma once

#include "detail/grouping.h"
#include "detail/topology.h"
#include "fusion/plan.h"

namespace fusion::presets {

struct PresetInput {
  const FusionGraph& graph;
  const detail::Producers& producers;
  const detail::Consumers& consumers;
  const std::vector<OpId>& order;
  const PlannerOptions& options;
};

// TVM Relay FuseOps over the post-dominator tree (tvm_fuse_ops.cpp).
detail::Grouping form_tvm_groups(const PresetInput& in);
// XLA's GPU pipeline: priority fusion, multi-output fusion, horizontal loop fusion (xla_pipeline.cpp).
detail::Grouping form_xla_groups(const PresetInput& in);
// TorchInductor's scheduler: can_fuse / score_fusion rounds (inductor_scheduler.cpp).
detail::Grouping form_inductor_groups(const PresetInput& in);

// Is this op a graph output: marked `output`, or read by no op?
inline bool is_graph_output(const PresetInput& in, OpId x) {
  return in.graph.op(x).output || in.consumers.count(x) == 0;
}

}  // namespace fusion::presets
