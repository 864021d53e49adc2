// search/component_totals.cpp — a component's bytes in a priced plan, and merged into one group.
#include "search/component_totals.h"

#include <algorithm>

namespace fusion::search {

std::uint64_t plan_bytes(const FusionPlan& plan, const std::vector<OpId>& members) {
  std::vector<std::int32_t> groups;
  for (OpId x : members) groups.push_back(plan.op_group[x]);
  std::sort(groups.begin(), groups.end());
  groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
  std::uint64_t total = 0;
  for (std::int32_t id : groups) {
    const FusionGroup& group = plan.groups[static_cast<std::size_t>(id)];
    total += group.bytes_read + group.bytes_written;
  }
  return total;
}

std::uint64_t merged_bytes(const FusionGraph& g, const detail::Producers& producers, const detail::Consumers& consumers,
                           const std::vector<OpId>& members, const std::vector<std::int32_t>& component_of) {
  const std::int32_t self = component_of[members.front()];
  auto bytes_of = [&g](OpId x) { return tensor_bytes(g.op(x).shape, g.op(x).dtype_bytes).value_or(0); };
  std::vector<OpId> read;
  std::uint64_t total = 0;
  for (OpId v : members) {
    for (const OpId* in = producers.begin(v); in != producers.end(v); ++in)
      if (component_of[*in] != self) read.push_back(*in);
    bool forced = g.op(v).output || consumers.count(v) == 0;
    for (const OpId* c = consumers.begin(v); c != consumers.end(v) && !forced; ++c) forced = component_of[*c] != self;
    if (forced) total += bytes_of(v);
  }
  std::sort(read.begin(), read.end());
  read.erase(std::unique(read.begin(), read.end()), read.end());
  for (OpId p : read) total += bytes_of(p);
  return total;
}

}  // namespace fusion::search
