// plan_only_numerics.cpp — the plan-only module's stand-in for the reference evaluator (fusion_plan only).
//
// Contract: defines fusion::evaluate_numerics for the fusion_wasm_plan link (wasm/CMakeLists.txt), where it comes
// before the fusion_core archive, so wasm-ld takes this definition and leaves out core/src/numerics/evaluate.cpp
// and what only it reaches (the evaluator's programs and element-wise kernels): about 38 KiB gzipped that every
// embed would otherwise download. It is never called: bindings.cpp under FUSION_WASM_PLAN_ONLY answers a plan
// whose options ask for an evaluation with not_in_module before planning. Should it be reached anyway, its report
// lists every graph output as skipped, with the reason, rather than inventing figures.
#include <vector>

#include "fusion/numerics.h"

namespace fusion {

NumericsReport evaluate_numerics(const FusionGraph& graph, const FusionPlan&, const NumericsSettings&) {
  NumericsReport report;
  std::vector<char> read(graph.size(), 0);
  for (const FusionOp& op : graph.ops())
    for (OpId input : op.inputs) read[static_cast<std::size_t>(input)] = 1;
  for (OpId x = 0; x < static_cast<OpId>(graph.size()); ++x)  // the graph outputs, as the evaluator counts them
    if (!graph.op(x).is_source() && (graph.op(x).output || !read[static_cast<std::size_t>(x)]))
      report.skipped.push_back({x, "the reference evaluator is not in this WebAssembly module (fusion_plan)"});
  return report;
}

}  // namespace fusion
