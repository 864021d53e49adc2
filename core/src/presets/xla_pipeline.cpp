// xla_pipeline.cpp — the `xla` strategy: priority fusion (xla_priority_fusion.h), then multi-output and
// horizontal loop fusion (xla_fusion_graph.h), each run when rules.passes lists it, in that order.
//
// Unfused edges get: source; region; then the producer's priority-fusion refusal — output (a graph
// output), barrier_producer / barrier_consumer (an end XLA does not fuse, or the pass is off), anchor
// (reduce into reduce), multi_pass (a reduction into a consumer that is not its elementwise epilogue),
// limit (operands, or our work bounds), unprofitable (negative priority) — given to the edge into the
// consumer that refused, and `consumers` to the producer's other edges; cycle for what is left.
#include <algorithm>

#include "presets/presets.h"
#include "presets/xla_fusion_graph.h"

namespace fusion::presets {

detail::Grouping form_xla_groups(const PresetInput& in) {
  XlaFusionGraph fusions(in, run_priority_fusion(in));
  if (in.options.rules.passes & xla_multi_output) fusions.multi_output();
  if (in.options.rules.passes & xla_horizontal) fusions.horizontal();
  detail::Grouping out = fusions.grouping();
  const PriorityFusionResult& priority = fusions.priority();
  // The priority fusion that computes each op first (for matching a refusing consumer).
  std::vector<OpId> fusion_root(in.graph.size(), -1);
  for (const XlaFusion& f : priority.fusions)
    for (OpId x : f.members)
      if (fusion_root[x] < 0) fusion_root[x] = f.root;
  std::vector<std::vector<OpId>> holders(in.graph.size());
  for (std::size_t x = 0; x < in.graph.size(); ++x)
    if (out.representative[x] >= 0) holders[x].push_back(out.representative[x]);
  for (const auto& [op, rep] : out.copies) holders[op].push_back(rep);
  out.reasons.assign(in.producers.ids.size(), EdgeReason::none);
  for (std::size_t v = 0; v < in.graph.size(); ++v) {
    if (holders[v].empty()) continue;
    const OpId group = holders[v].front();
    for (auto k = in.producers.offsets[v]; k < in.producers.offsets[v + 1]; ++k) {
      const OpId u = in.producers.ids[static_cast<std::size_t>(k)];
      if (std::find(holders[u].begin(), holders[u].end(), group) != holders[u].end()) continue;
      EdgeReason& reason = out.reasons[static_cast<std::size_t>(k)];
      const EdgeReason refused = priority.refusal[u];
      if (in.graph.op(u).is_source()) reason = EdgeReason::source;
      else if (in.graph.op(u).region != in.graph.op(static_cast<OpId>(v)).region) reason = EdgeReason::region;
      else if (refused == EdgeReason::none) reason = EdgeReason::cycle;
      else if (priority.consumer[u] < 0 || priority.consumer[u] == fusion_root[v]) reason = refused;
      else reason = EdgeReason::consumers;
    }
  }
  return out;
}

}  // namespace fusion::presets
