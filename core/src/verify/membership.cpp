// verify/membership.cpp — who holds each op: one owning group (or only recomputed copies), op_group naming
// it, well-formed member and recomputed lists; and which recomputed copies the rules allow.
#include <algorithm>

#include "fusion/strategy.h"
#include "verify/context.h"

namespace fusion::verifier {
namespace {

bool strictly_ascending(const std::vector<OpId>& ids) {
  return std::adjacent_find(ids.begin(), ids.end(), [](OpId a, OpId b) { return a >= b; }) == ids.end();
}

// One group's lists: id, non-empty, ascending members that exist, recomputed an ascending subset of them.
// False when the lists are unusable (the caller then stops after the partition checks).
bool check_group_lists(Context& c, std::size_t i) {
  const FusionGroup& group = c.plan.groups[i];
  const auto gid = static_cast<std::int64_t>(i);
  const std::string name = "group " + std::to_string(i);
  if (group.id != static_cast<std::int32_t>(i))
    c.fail("partition", "group at position " + std::to_string(i) + " has id " + std::to_string(group.id),
           gid);
  if (group.ops.empty()) c.fail("partition", name + " is empty", gid);
  for (OpId x : group.ops)
    if (x < 0 || static_cast<std::size_t>(x) >= c.g.size()) {
      c.fail("partition", name + " lists op " + std::to_string(x) + ", which does not exist", gid);
      return false;
    }
  if (!strictly_ascending(group.ops)) {
    c.fail("partition", "the ops of " + name + " are not in ascending order (or one is listed twice)", gid);
    return false;
  }
  const bool subset = std::all_of(group.recomputed.begin(), group.recomputed.end(), [&](OpId x) {
    return std::binary_search(group.ops.begin(), group.ops.end(), x);
  });
  if (strictly_ascending(group.recomputed) && subset) return true;
  c.fail("recompute",
         name + " lists recomputed ops " + list_to_string(group.recomputed) +
             ", which must be ascending and among its ops " + list_to_string(group.ops),
         gid);
  return false;
}

// Each op: at most one owner, else at least one copy; op_group names the owner, else the first copy.
bool check_holders(Context& c, const std::vector<int>& owned, const std::vector<std::int32_t>& first_copy) {
  for (std::size_t x = 0; x < c.g.size(); ++x) {
    const auto op = static_cast<std::int64_t>(x);
    const std::int32_t said = c.plan.op_group[x];
    if (said < 0 || static_cast<std::size_t>(said) >= c.plan.groups.size()) {
      c.fail("partition",
             "op_group of op " + std::to_string(x) + " is " + std::to_string(said) + ", not a group id", {},
             op);
      return false;
    }
    if (owned[x] > 1 || (owned[x] == 0 && first_copy[x] < 0))
      c.fail("partition",
             "op " + std::to_string(x) + " is listed in " + std::to_string(owned[x]) +
                 " groups; every op belongs to exactly one (recomputed copies aside)",
             {}, op);
    else if (owned[x] == 1 && said != c.owner[x])
      c.fail("partition",
             "op " + std::to_string(x) + " is listed in group " + std::to_string(c.owner[x]) +
                 " but op_group says " + std::to_string(said),
             said, op);
    else if (owned[x] == 0 && said != first_copy[x])
      c.fail("partition",
             "op " + std::to_string(x) +
                 " exists only as recomputed copies; op_group must name the "
                 "first group recomputing it (" +
                 std::to_string(first_copy[x]) + "), not " + std::to_string(said),
             said, op);
  }
  return true;
}

// Why the rules forbid recomputing this op, or nullptr when they allow it.
const char* copy_forbidden(const FusionOp& op, const StrategyRules& rules) {
  if (rules.recompute == Recompute::none) return "the rules say recompute: none";
  if (op.is_source()) return "a source is never recomputed";
  if (is_heavy_kind(op.kind)) return "a heavy op (matmul, conv, reduction) is never recomputed";
  if (rules.recompute == Recompute::cheap && is_expensive_kind(op.kind))
    return "it is an expensive kind and the rules say recompute: cheap";
  return nullptr;
}

}  // namespace

bool check_membership(Context& c) {
  const std::size_t n = c.g.size();
  if (c.plan.op_group.size() != n) {
    c.fail("partition", "op_group has " + std::to_string(c.plan.op_group.size()) + " entries for " +
                            std::to_string(n) + " ops");
    return false;
  }
  std::vector<int> owned(n, 0);
  std::vector<std::int32_t> first_copy(n, -1);
  c.owner.assign(n, -1);
  bool usable = true;
  for (std::size_t i = 0; i < c.plan.groups.size(); ++i) {
    if (!check_group_lists(c, i)) {
      usable = false;
      continue;
    }
    const FusionGroup& group = c.plan.groups[i];
    for (OpId x : group.ops) {
      const bool copy = is_recomputed(group, x);
      if (copy && first_copy[x] < 0) first_copy[x] = static_cast<std::int32_t>(i);
      if (copy) continue;
      ++owned[x];
      c.owner[x] = static_cast<std::int32_t>(i);
    }
  }
  return usable && check_holders(c, owned, first_copy) && c.out.empty();
}

void check_recompute(Context& c) {
  for (const FusionGroup& group : c.plan.groups)
    for (OpId x : group.recomputed) {
      const std::string what = "group " + std::to_string(group.id) + " recomputes " + op_text(c.g, x);
      const char* why = c.procedure == Procedure::rules ? copy_forbidden(c.g.op(x), c.rules) : procedure_copy_refusal(c, x);
      if (why)
        c.fail("recompute", what + ", but " + why, group.id, x);
      const std::vector<OpId>& readers = c.readers[static_cast<std::size_t>(x)];
      if (std::none_of(readers.begin(), readers.end(), [&](OpId r) { return c.holds(group.id, r); }))
        c.fail("recompute", what + ", but no member of the group reads it", group.id, x);
    }
}

}  // namespace fusion::verifier
