// search/engine_pack.cpp — packing small loop groups by chain levels (engine_pack.h).
#include "search/engine_pack.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "fusion/strategy.h"

namespace fusion::search {
namespace {

// May the group join a pack (engine_pack.h): a kernel of loop ops of one region, no copy, small enough.
bool small_loop_group(const FusionGraph& g, const StrategyRules& rules, const FusionGroup& group) {
  if (!group.kernel || !group.recomputed.empty()) return false;
  const std::uint64_t small = static_cast<std::uint64_t>(rules.horizontal_small_bytes);
  if (group.bytes_read > small || group.bytes_written > small - group.bytes_read) return false;
  for (OpId x : group.ops) {
    const FusionOp& op = g.op(x);
    if (op.is_source() || is_heavy_kind(op.kind) || !is_loop_kind(op.kind, rules)) return false;
    if (op.region != g.op(group.ops.front()).region) return false;
  }
  return true;
}

// Per group: the most small groups on a path of the group graph ending at it (0 when there is none).
std::vector<std::uint64_t> levels(const FusionPlan& plan, const std::vector<char>& small) {
  const std::size_t n = plan.groups.size();
  std::vector<std::int32_t> owner;
  for (const FusionGroup& group : plan.groups)
    for (OpId x : group.ops)
      if (!std::binary_search(group.recomputed.begin(), group.recomputed.end(), x)) {
        if (owner.size() <= static_cast<std::size_t>(x)) owner.resize(static_cast<std::size_t>(x) + 1, -1);
        owner[static_cast<std::size_t>(x)] = group.id;
      }
  std::vector<std::vector<std::int32_t>> next(n);
  std::vector<std::int32_t> waiting(n, 0);
  for (const FusionGroup& group : plan.groups)
    for (OpId in : group.inputs) {
      const std::int32_t from = static_cast<std::size_t>(in) < owner.size() ? owner[static_cast<std::size_t>(in)] : -1;
      if (from < 0 || from == group.id) continue;
      next[static_cast<std::size_t>(from)].push_back(group.id);
      ++waiting[static_cast<std::size_t>(group.id)];
    }
  std::vector<std::uint64_t> level(n, 0);
  std::vector<std::int32_t> ready;
  for (std::size_t k = 0; k < n; ++k)
    if (waiting[k] == 0) ready.push_back(static_cast<std::int32_t>(k));
  while (!ready.empty()) {
    const std::size_t k = static_cast<std::size_t>(ready.back());
    ready.pop_back();
    if (small[k]) ++level[k];  // its predecessors have all raised it already
    for (std::int32_t t : next[k]) {
      level[static_cast<std::size_t>(t)] = std::max(level[static_cast<std::size_t>(t)], level[k]);
      if (--waiting[static_cast<std::size_t>(t)] == 0) ready.push_back(t);
    }
  }
  return level;
}

}  // namespace

std::optional<detail::Grouping> packed_by_levels(const FusionGraph& g, const PlannerOptions& options,
                                                 const detail::Grouping& grouping, const FusionPlan& plan) {
  const StrategyRules& rules = options.rules;
  if (rules.horizontal_small_bytes <= 0) return std::nullopt;
  std::vector<char> small(plan.groups.size(), 0);
  for (const FusionGroup& group : plan.groups) small[static_cast<std::size_t>(group.id)] = small_loop_group(g, rules, group);
  const std::vector<std::uint64_t> level = levels(plan, small);
  std::map<std::tuple<std::string, std::uint64_t>, std::vector<std::int32_t>> classes;  // (region, level) -> groups
  for (const FusionGroup& group : plan.groups)
    if (small[static_cast<std::size_t>(group.id)])
      classes[{g.op(group.ops.front()).region, level[static_cast<std::size_t>(group.id)]}].push_back(group.id);
  detail::Grouping out = grouping;
  bool packed = false;
  for (const auto& [key, members] : classes) {
    struct Pack { OpId rep; std::int64_t ops, operands; };
    std::vector<Pack> packs;
    for (std::int32_t id : members) {
      const FusionGroup& group = plan.groups[static_cast<std::size_t>(id)];
      const OpId rep = grouping.representative[static_cast<std::size_t>(group.ops.front())];
      const auto ops = static_cast<std::int64_t>(group.ops.size());
      const auto operands = static_cast<std::int64_t>(group.inputs.size() + group.outputs.size());
      const auto fits = [&](const Pack& p) {
        return (rules.max_group_ops <= 0 || p.ops + ops <= rules.max_group_ops) &&
               (rules.max_group_operands <= 0 || p.operands + operands <= rules.max_group_operands);
      };
      const auto pack = std::find_if(packs.begin(), packs.end(), fits);
      if (pack == packs.end()) { packs.push_back({rep, ops, operands}); continue; }
      for (OpId x : group.ops) out.representative[static_cast<std::size_t>(x)] = pack->rep;
      for (auto& copy : out.copies)
        if (copy.second == rep) copy.second = pack->rep;
      pack->ops += ops;
      pack->operands += operands;
      packed = true;
    }
  }
  if (!packed) return std::nullopt;
  return out;
}

}  // namespace fusion::search
