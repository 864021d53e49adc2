// grouping.cpp — greedy merging with the lock-step cycle check described in grouping.h.
#include "detail/grouping.h"

#include <algorithm>
#include <utility>

#include "detail/group_graph.h"
#include "detail/legality.h"

namespace fusion::detail {
namespace {

// Eager parity (docs/design.md §18): per group representative, the ops across an edge out of a rounding point,
// which may never share its group (the reader would get the value unrounded). Lists move to the merged group.
class RoundingPairs {
 public:
  explicit RoundingPairs(std::size_t n) : pairs_(n) {}
  void add(OpId rep_u, OpId u, OpId rep_v, OpId v) { pairs_[rep_u].push_back(v), pairs_[rep_v].push_back(u); }
  bool between(GroupGraph& groups, OpId a, OpId c) const {
    for (OpId other : pairs_[a])
      if (groups.find(other) == c) return true;
    return false;
  }
  void merged(OpId into, OpId a, OpId c) {
    for (OpId old : {a, c})
      if (old != into) {
        pairs_[into].insert(pairs_[into].end(), pairs_[old].begin(), pairs_[old].end());
        pairs_[old].clear();
      }
  }

 private:
  std::vector<std::vector<OpId>> pairs_;
};

}  // namespace

Grouping form_groups(const FusionGraph& g, const Producers& producers, const Consumers& consumers,
                     const std::vector<OpId>& order, const PlannerOptions& options) {
  const std::size_t n = g.size();
  Grouping result;
  result.reasons.assign(producers.ids.size(), EdgeReason::none);
  GroupGraph groups(g, consumers, order);
  const bool parity = options.numerics.parity;
  RoundingPairs rounding(parity ? n : 0);

  for (OpId v : order) {
    const FusionOp& consumer = g.op(v);
    const OpId* inputs = producers.begin(v);
    const std::size_t count = producers.count(v);
    EdgeReason* reasons = result.reasons.data() + producers.offsets[v];
    for (std::size_t k = 0; k < count; ++k) {
      reasons[k] = local_reason(g.op(inputs[k]), consumer, options.broadcast);
      if (reasons[k] == EdgeReason::none && parity && is_rounding_point(g, inputs[k])) {
        reasons[k] = EdgeReason::numerics;  // eager parity keeps the rounding (docs/design.md §18)
        rounding.add(groups.find(inputs[k]), inputs[k], groups.find(v), v);
      }
      if (reasons[k] == EdgeReason::shape) groups.forbid(inputs[k], v);
    }
    for (std::size_t k = 0; k < count; ++k) {
      if (reasons[k] != EdgeReason::none) continue;
      const OpId a = groups.find(inputs[k]);
      const OpId c = groups.find(v);
      if (a == c) continue;  // already inside one group
      if (groups.has_forbidden_pair(a, c)) {
        reasons[k] = EdgeReason::shape;
      } else if (parity && (rounding.between(groups, a, c) || rounding.between(groups, c, a))) {
        reasons[k] = EdgeReason::numerics;
      } else if (!groups.merge_if_acyclic(a, c)) {
        reasons[k] = EdgeReason::cycle;
      } else if (parity) {
        rounding.merged(groups.find(v), a, c);
      }
    }
  }
  result.representative.resize(n);
  for (std::size_t x = 0; x < n; ++x) result.representative[x] = groups.find(static_cast<OpId>(x));
  return result;
}

}  // namespace fusion::detail
