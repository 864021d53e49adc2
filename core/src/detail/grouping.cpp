// grouping.cpp — greedy merging with the lock-step cycle check described in grouping.h.
#include "detail/grouping.h"

#include <algorithm>
#include <utility>

#include "detail/group_graph.h"
#include "detail/legality.h"

namespace fusion::detail {

Grouping form_groups(const FusionGraph& g, const Producers& producers, const Consumers& consumers,
                     const std::vector<OpId>& order, const PlannerOptions& options) {
  const std::size_t n = g.size();
  Grouping result;
  result.reasons.assign(producers.ids.size(), EdgeReason::none);
  GroupGraph groups(g, consumers, order);

  for (OpId v : order) {
    const FusionOp& consumer = g.op(v);
    const OpId* inputs = producers.begin(v);
    const std::size_t count = producers.count(v);
    EdgeReason* reasons = result.reasons.data() + producers.offsets[v];
    for (std::size_t k = 0; k < count; ++k) {
      reasons[k] = local_reason(g.op(inputs[k]), consumer, options.broadcast);
      if (reasons[k] == EdgeReason::shape) groups.forbid(inputs[k], v);
    }
    for (std::size_t k = 0; k < count; ++k) {
      if (reasons[k] != EdgeReason::none) continue;
      const OpId a = groups.find(inputs[k]);
      const OpId c = groups.find(v);
      if (a == c) continue;  // already inside one group
      if (groups.has_forbidden_pair(a, c)) {
        reasons[k] = EdgeReason::shape;
      } else if (!groups.merge_if_acyclic(a, c)) {
        reasons[k] = EdgeReason::cycle;
      }
    }
  }
  result.representative.resize(n);
  for (std::size_t x = 0; x < n; ++x) result.representative[x] = groups.find(static_cast<OpId>(x));
  return result;
}

}  // namespace fusion::detail
