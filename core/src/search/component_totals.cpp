// search/component_totals.cpp — a component's bytes in a priced plan, and merged into one group.
#include "search/component_totals.h"

#include <algorithm>

#include "detail/saturating.h"
#include "fusion/time_model.h"

namespace fusion::search {

namespace {

// The plan's groups holding a member, ascending.
std::vector<std::int32_t> groups_of(const FusionPlan& plan, const SearchSpace& space, const std::vector<OpId>& members) {
  std::vector<std::int32_t> groups;
  for (OpId x : members) groups.push_back(plan.op_group[space.plan_op(x)]);
  std::sort(groups.begin(), groups.end());
  groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
  return groups;
}

}  // namespace

std::uint64_t plan_bytes(const FusionPlan& plan, const SearchSpace& space, const std::vector<OpId>& members) {
  std::uint64_t total = 0;
  for (std::int32_t id : groups_of(plan, space, members)) {
    const FusionGroup& group = plan.groups[static_cast<std::size_t>(id)];
    total += group.bytes_read + group.bytes_written;
  }
  return total;
}

std::uint64_t plan_time_ps(const FusionPlan& plan, const SearchSpace& space, const std::vector<OpId>& members) {
  std::uint64_t total = 0;
  for (std::int32_t id : groups_of(plan, space, members))
    total = detail::saturating_add(total, kernel_ps(plan.groups[static_cast<std::size_t>(id)].time_us));
  return total;
}

std::uint64_t total_time_ps(const FusionPlan& plan) {
  std::uint64_t total = 0;
  for (const FusionGroup& group : plan.groups) total = detail::saturating_add(total, kernel_ps(group.time_us));
  return total;
}

std::uint64_t merged_time_ps(const SearchSpace& space, std::uint64_t merged_bytes, const std::vector<OpId>& members) {
  const FusionGraph& g = space.original ? *space.original : space.graph;
  std::vector<OpId> computed;
  for (OpId x : members) {
    if (!space.lowered) computed.push_back(x);
    else for (OpId y : space.lowered->closure(x)) computed.push_back(y);
  }
  std::sort(computed.begin(), computed.end());
  computed.erase(std::unique(computed.begin(), computed.end()), computed.end());
  std::uint64_t vector_flops = 0, matrix_flops = 0;
  for (OpId x : computed) {
    std::uint64_t& sum = uses_matrix_peak(g.op(x).kind) ? matrix_flops : vector_flops;
    sum = detail::saturating_add(sum, op_flops(g, x));
  }
  return kernel_ps(kernel_time_us(merged_bytes, vector_flops, matrix_flops, space.hardware));
}

std::uint64_t merged_bytes(const SearchSpace& space, const detail::Producers& producers, const std::vector<OpId>& members,
                           const std::vector<std::int32_t>& component_of) {
  const std::int32_t self = component_of[members.front()];
  std::vector<OpId> read;
  std::uint64_t total = 0;
  for (OpId v : members) {
    for (const OpId* in = producers.begin(v); in != producers.end(v); ++in)
      if (component_of[*in] != self) read.push_back(*in);
    bool forced = space.graph_output(v);
    for (const OpId* c = space.consumers.begin(v); c != space.consumers.end(v) && !forced; ++c)
      forced = component_of[*c] != self;
    if (forced) total += space.bytes_of(v);
  }
  std::sort(read.begin(), read.end());
  read.erase(std::unique(read.begin(), read.end()), read.end());
  for (OpId p : read) total += space.bytes_of(p);
  return total;
}

}  // namespace fusion::search
