// verify/group_kinds.cpp — what a multi-op group may hold (docs/strategies.md, "Group shapes under the
// rules"): loop kinds (elementwise and the movement kinds the rules list) plus at most one heavy op, allowed
// by its rule; an anchor with no producer inside the group and no movement op beside it (its epilogue is
// elementwise); a reduction's epilogue (members reachable from it, and side inputs reaching those but not it) on
// the reduced iteration space and reading nothing larger from outside, its prologue (members reaching it) with no transpose feeding it directly and
// no consumer inside the group but the reduction's other prologue members; one region; and the shape rule
// (docs/design.md §5) on every inside edge without a movement end and not into a reduction.
#include <algorithm>

#include "fusion/strategy.h"
#include "verify/context.h"

namespace fusion::verifier {
namespace {

// Why the rules keep this op out of a multi-op group, or nullptr when it may be there.
const char* kind_refusal(const FusionOp& op, const StrategyRules& rules) {
  if (op.is_source()) return "a source";
  if (is_loop_kind(op.kind, rules)) return nullptr;
  if (is_anchor_kind(op.kind)) return rules.epilogue ? nullptr : "an anchor while epilogue is off";
  if (is_reduction_kind(op.kind))
    return rules.reduction_prologue || rules.reduction_epilogue
               ? nullptr
               : "a reduction while reduction_prologue and reduction_epilogue are off";
  return "a barrier";
}

// Flags members that may not share a group; returns the position of the group's one heavy op when its rule
// allows it there, else -1 (two heavy ops are flagged here).
std::ptrdiff_t check_member_kinds(Context& c, const FusionGroup& group) {
  std::ptrdiff_t heavy = -1;
  int heavy_ops = 0;
  bool refused = false;
  for (std::size_t j = 0; j < group.ops.size(); ++j) {
    const OpId x = group.ops[j];
    const FusionOp& op = c.g.op(x);
    const char* why = kind_refusal(op, c.rules);
    if (why)
      c.fail(
          "not_fusible",
          "group " + std::to_string(group.id) + " holds " + op_text(c.g, x) + ", " + why + ", with other ops",
          group.id, x);
    if (!is_heavy_kind(op.kind) || op.is_source()) continue;
    if (++heavy_ops == 2)
      c.fail("anchor",
             "group " + std::to_string(group.id) + " holds two heavy ops, " +
                 op_text(c.g, group.ops[static_cast<std::size_t>(heavy)]) + " and " + op_text(c.g, x) +
                 "; a group holds at most one matmul, conv or reduction",
             group.id, x);
    if (heavy_ops == 1) heavy = static_cast<std::ptrdiff_t>(j);
    refused = refused || why;
  }
  return heavy_ops == 1 && !refused ? heavy : -1;
}

void check_regions(Context& c, const FusionGroup& group) {
  const OpId first = group.ops.front();
  for (OpId x : group.ops)
    if (c.g.op(x).region != c.g.op(first).region) {
      c.fail("region",
             "group " + std::to_string(group.id) + " mixes regions '" + c.g.op(first).region + "' (" +
                 op_text(c.g, first) + ") and '" + c.g.op(x).region + "' (" + op_text(c.g, x) + ")",
             group.id, x);
      return;
    }
}

void check_inner_shapes(Context& c, const FusionGroup& group, const std::vector<InnerEdge>& edges) {
  for (const auto& [from, to] : edges) {
    const OpId producer = group.ops[from], consumer = group.ops[to];
    if (!shape_checked(c.g.op(producer), c.g.op(consumer)) || c.shapes_ok(producer, consumer)) continue;
    c.fail("shape",
           "ops " + std::to_string(producer) + " " + shape_to_string(c.g.op(producer).shape) + " and " +
               std::to_string(consumer) + " " + shape_to_string(c.g.op(consumer).shape) + " share group " +
               std::to_string(group.id) + " but their shapes may not merge",
           group.id, consumer);
  }
}

// Positions reachable from `starts` along inner edges, forward (downstream) or backward (upstream); a start is in
// the answer only when reachable from another.
std::vector<std::size_t> reach(std::size_t members, const std::vector<InnerEdge>& edges,
                               std::vector<std::size_t> starts, bool forward) {
  std::vector<std::vector<std::size_t>> next(members);
  for (const auto& [from, to] : edges) forward ? next[from].push_back(to) : next[to].push_back(from);
  std::vector<char> seen(members, 0);
  std::vector<std::size_t> stack = std::move(starts), out;
  while (!stack.empty()) {
    const std::size_t j = stack.back();
    stack.pop_back();
    for (std::size_t k : next[j])
      if (!seen[k]) {
        seen[k] = 1;
        out.push_back(k);
        stack.push_back(k);
      }
  }
  return out;
}

// An anchor reads its inputs from memory, and its epilogue is elementwise only.
void check_anchor(Context& c, const FusionGroup& group, std::size_t anchor,
                  const std::vector<InnerEdge>& edges) {
  for (OpId x : group.ops)
    if (is_movement_kind(c.g.op(x).kind))
      c.fail("anchor",
             op_text(c.g, x) + " shares group " + std::to_string(group.id) + " with anchor " +
                 op_text(c.g, group.ops[anchor]) + "; an anchor's epilogue is elementwise only",
             group.id, x);
  for (const auto& [from, to] : edges)
    if (to == anchor)
      c.fail("anchor",
             op_text(c.g, group.ops[anchor]) + " reads " + op_text(c.g, group.ops[from]) + " inside group " +
                 std::to_string(group.id) + "; an anchor reads its inputs from memory",
             group.id, group.ops[anchor]);
}

// An epilogue member: the reduction's element count, nothing larger read from outside.
void check_epilogue_member(Context& c, const FusionGroup& group, OpId r, OpId x) {
  const std::string where =
      op_text(c.g, x) + " follows reduction " + op_text(c.g, r) + " in group " + std::to_string(group.id);
  const std::uint64_t reduced = c.elements_of(r);
  if (!c.rules.reduction_epilogue)
    return c.fail("not_fusible", where + ", but reduction_epilogue is off", group.id, x);
  if (c.elements_of(x) != reduced)
    c.fail("multi_pass",
           where + " but has " + std::to_string(c.elements_of(x)) + " elements, not the reduction's " +
               std::to_string(reduced),
           group.id, x);
  for (OpId in : c.producers[static_cast<std::size_t>(x)])
    if (!c.holds(group.id, in) && c.elements_of(in) > reduced)
      c.fail("multi_pass",
             where + " but reads " + op_text(c.g, in) + " (" + std::to_string(c.elements_of(in)) +
                 " elements) from outside; an epilogue reads at most the reduction's " +
                 std::to_string(reduced),
             group.id, x);
}

void check_prologue_member(Context& c, const FusionGroup& group, OpId r, OpId x) {
  if (!c.rules.reduction_prologue)
    return c.fail("not_fusible",
                  op_text(c.g, x) + " feeds reduction " + op_text(c.g, r) + " in group " +
                      std::to_string(group.id) + ", but reduction_prologue is off",
                  group.id, x);
  const std::vector<OpId>& ins = c.producers[static_cast<std::size_t>(r)];
  if (c.g.op(x).kind == OpKind::transpose && std::binary_search(ins.begin(), ins.end(), x))
    c.fail("layout",
           op_text(c.g, x) + " feeds reduction " + op_text(c.g, r) + " inside group " +
               std::to_string(group.id) + "; a transpose never fuses into a reduction",
           group.id, x);
}

// The reduction reads its prologue in full, so a prologue member feeds nothing else in the group.
void check_prologue_readers(Context& c, const FusionGroup& group, std::size_t r,
                            const std::vector<char>& prologue, const std::vector<InnerEdge>& edges) {
  for (const auto& [from, to] : edges)
    if (prologue[from] && !prologue[to] && to != r)
      c.fail("multi_pass",
             op_text(c.g, group.ops[to]) + " reads " + op_text(c.g, group.ops[from]) + ", which reduction " +
                 op_text(c.g, group.ops[r]) + " reads in full, inside group " + std::to_string(group.id) +
                 "; it needs a second pass",
             group.id, group.ops[to]);
}

// Prologue: the members reaching the reduction. Epilogue: the members it reaches, and the side inputs that reach
// those without reaching the reduction (greedy joins both through the epilogue rule).
void check_reduction(Context& c, const FusionGroup& group, std::size_t r,
                     const std::vector<InnerEdge>& edges) {
  const OpId reduction = group.ops[r];
  std::vector<char> prologue(group.ops.size(), 0);
  for (std::size_t j : reach(group.ops.size(), edges, {r}, false)) {
    prologue[j] = 1;
    check_prologue_member(c, group, reduction, group.ops[j]);
  }
  std::vector<std::size_t> epilogue = reach(group.ops.size(), edges, {r}, true);
  for (std::size_t j : reach(group.ops.size(), edges, epilogue, false))  // the side inputs
    if (j != r && !prologue[j]) epilogue.push_back(j);
  std::sort(epilogue.begin(), epilogue.end());
  epilogue.erase(std::unique(epilogue.begin(), epilogue.end()), epilogue.end());
  for (std::size_t j : epilogue) check_epilogue_member(c, group, reduction, group.ops[j]);
  check_prologue_readers(c, group, r, prologue, edges);
}

}  // namespace

void check_group_kinds(Context& c) {
  if (c.procedure != Procedure::rules) {
    for (const FusionGroup& group : c.plan.groups)
      if (group.ops.size() > 1) check_regions(c, group);
    return check_procedure_groups(c);
  }
  for (const FusionGroup& group : c.plan.groups) {
    if (group.ops.size() < 2) continue;
    const std::vector<InnerEdge> edges = inner_edges(c, group);
    check_regions(c, group);
    check_inner_shapes(c, group, edges);
    const std::ptrdiff_t heavy = check_member_kinds(c, group);
    if (heavy < 0) continue;
    const auto h = static_cast<std::size_t>(heavy);
    if (is_anchor_kind(c.g.op(group.ops[h]).kind))
      check_anchor(c, group, h, edges);
    else
      check_reduction(c, group, h, edges);
  }
}

}  // namespace fusion::verifier
