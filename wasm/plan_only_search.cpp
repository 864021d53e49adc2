// plan_only_search.cpp — the plan-only module's stand-in for plan search (fusion_plan only).
//
// Contract: defines fusion::search::search_plan for the fusion_wasm_plan link (wasm/CMakeLists.txt), where it comes
// before the fusion_core archive, so wasm-ld takes this definition and leaves out the search (branch and bound,
// partitions, local problems, components, differences) for every bitset width: what the element and the light
// ?embed never run (a link with &optimal loads the page's code and the full module). It is never called:
// bindings.cpp under FUSION_WASM_PLAN_ONLY answers options that ask for a search with not_in_module at /search
// before planning. Should it be reached anyway, it answers the greedy plan with a bounded certificate whose bound
// is 0 (true of every plan), rather than claiming a proof.
#include "search/component_totals.h"
#include "search/search.h"

namespace fusion::search {

SearchOutcome search_plan(const SearchSpace& space, const detail::Producers&, const std::vector<OpId>&,
                          const PlannerOptions&, const detail::Grouping& greedy, const FusionPlan& greedy_plan) {
  SearchOutcome out;
  out.grouping = greedy;
  out.expected_score = space.timed() ? total_time_ps(greedy_plan) : greedy_plan.bytes_fused;
  SearchCertificate& c = out.certificate;
  c.present = true;
  c.status = "bounded";
  c.objective = space.timed() ? "time" : "bytes";
  c.greedy_bytes_fused = greedy_plan.bytes_fused;
  c.greedy_time_fused_us = greedy_plan.time_fused_us;
  return out;
}

}  // namespace fusion::search
