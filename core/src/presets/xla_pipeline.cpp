// xla_pipeline.cpp — the `xla` strategy: priority fusion (xla_priority_fusion.h), then multi-output and
// horizontal loop fusion (xla_fusion_graph.h), each run when rules.passes lists it, in that order.
//
// Unfused edges get: source; region; then the producer's priority-fusion refusal — output (a graph
// output), barrier_producer / barrier_consumer (an end XLA does not fuse, or the pass is off), anchor
// (reduce into reduce), multi_pass (a reduction into a consumer that is not its elementwise epilogue),
// limit (operands, or our work bounds), unprofitable (negative priority) — given to the edge into the
// consumer that refused, and `consumers` to the producer's other edges; cycle for what is left
// (XlaFusionGraph::grouping gives them, where it knows which groups hold each op).
#include "presets/presets.h"
#include "presets/xla_fusion_graph.h"

namespace fusion::presets {

detail::Grouping form_xla_groups(const PresetInput& in) {
  XlaFusionGraph fusions(in, run_priority_fusion(in));
  if (in.options.rules.passes & xla_multi_output) fusions.multi_output();
  if (in.options.rules.passes & xla_horizontal) fusions.horizontal();
  return fusions.grouping();
}

}  // namespace fusion::presets
