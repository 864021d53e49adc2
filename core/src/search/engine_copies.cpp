// search/engine_copies.cpp — the recompute pass over a searched grouping (engine_copies.h).
#include "search/engine_copies.h"

#include <string>
#include <utility>

#include "detail/recompute.h"
#include "fusion/strategy.h"

namespace fusion::search {

detail::Grouping with_copies(const presets::PresetInput& in, detail::Grouping grouping) {
  const FusionGraph& g = in.graph;
  std::vector<OpId> heavy(g.size(), -1);  // per representative
  for (std::size_t x = 0; x < g.size(); ++x)
    if (is_heavy_kind(g.op(static_cast<OpId>(x)).kind)) heavy[grouping.representative[x]] = static_cast<OpId>(x);
  grouping.copies.clear();
  detail::recompute(detail::RecomputeInput{g, in.producers, in.consumers, in.order, in.options, heavy}, grouping);
  return with_search_rules(in, std::move(grouping));
}

detail::Grouping with_search_rules(const presets::PresetInput& in, detail::Grouping grouping) {
  const FusionGraph& g = in.graph;
  grouping.rules.clear();
  if (in.options.strategy != "xla-classic") return grouping;
  std::vector<std::int64_t> size(g.size(), 0);
  for (OpId rep : grouping.representative)
    if (rep >= 0) ++size[rep];
  for (const auto& copy : grouping.copies) ++size[copy.second];
  for (std::size_t rep = 0; rep < g.size(); ++rep)
    if (size[rep] > 1)
      grouping.rules.emplace_back(static_cast<OpId>(rep),
                                  "plan search: " + std::to_string(size[rep]) + " ops, the fastest grouping the rule engine allows");
  return grouping;
}

}  // namespace fusion::search
