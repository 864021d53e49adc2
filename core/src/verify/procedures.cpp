// verify/procedures.cpp — what the compiler procedures (`tvm`, `xla`, `inductor`; docs/strategies.md,
// "Presets") guarantee about their groups, copies and edge reasons, checked from the plan alone. The shared
// rule table does not describe them, so these replace the group-kind, shape, connectivity and copy checks
// of the rule engine; membership, acyclicity, bytes, time and the edge list are checked as for every plan.
//
// tvm (FuseOps): no copies. A multi-op group holds no kOpaque op and at most one op of pattern kCommReduce
//   or above; exactly one member (the root) is read outside the group or is a graph output, and every
//   other member's readers are all inside; a kCommReduce op is the root; a kOutEWiseFusable op reads no
//   member, and every member it reaches inside the group is at most kBroadcast; at most max_depth members.
// xla (priority, multi-output, horizontal fusion): copies are loop ops (xla_kinds.h) that are not graph
//   outputs. A multi-op group holds no own-kernel op; no reduction reaches another inside the group
//   (reduce into reduce); every member a reduction reaches inside the group is elementwise with the
//   reduction's output element count (an epilogue); a scatter's in-place operand is not a member and a
//   scatter feeds no member.
// inductor (scheduler): copies are pointwise-kind ops (inductor_nodes.h) that are not graph outputs. A
//   multi-op group holds no own-kernel op, an extern matmul/conv only as a template (rules.epilogue), at
//   most one template, and all its reduction nodes share one iteration range (numel, rnumel).
// Edge reasons: `source` exactly when the producer is a source, `region` when the two ends run in
// different regions; otherwise the reasons each procedure gives (presets/*.cpp headers; a searched tvm plan also
// `cycle`, docs/design.md §17) where the graph
// makes them possible: see procedure_reasons below.
#include <algorithm>

#include "presets/inductor_nodes.h"
#include "presets/tvm_patterns.h"
#include "presets/xla_kinds.h"
#include "verify/context.h"

namespace fusion::verifier {
namespace {

using presets::TvmPattern;

std::string group_text(const FusionGroup& group) { return "group " + std::to_string(group.id); }

bool graph_output(const Context& c, OpId x) {
  return c.g.op(x).output || c.readers[static_cast<std::size_t>(x)].empty();
}

// Members reachable from position `start` along inner edges, as positions.
std::vector<std::size_t> downstream(std::size_t members, const std::vector<InnerEdge>& edges, std::size_t start) {
  std::vector<std::vector<std::size_t>> next(members);
  for (const auto& [from, to] : edges) next[from].push_back(to);
  std::vector<char> seen(members, 0);
  std::vector<std::size_t> stack = {start}, out;
  while (!stack.empty()) {
    const std::size_t j = stack.back();
    stack.pop_back();
    for (std::size_t k : next[j])
      if (!seen[k]) seen[k] = 1, out.push_back(k), stack.push_back(k);
  }
  return out;
}

void check_tvm_group(Context& c, const FusionGroup& group, const std::vector<InnerEdge>& edges) {
  std::ptrdiff_t heavy = -1, roots = 0;
  for (std::size_t j = 0; j < group.ops.size(); ++j) {
    const OpId x = group.ops[j];
    const TvmPattern p = presets::tvm_pattern(c.g.op(x).kind);
    if (p == TvmPattern::opaque)
      c.fail("not_fusible", group_text(group) + " holds " + op_text(c.g, x) + ", which is kOpaque", group.id, x);
    if (p >= TvmPattern::comm_reduce) {
      if (heavy >= 0)
        c.fail("anchor", group_text(group) + " holds two ops of pattern kCommReduce or above, " +
                             op_text(c.g, group.ops[static_cast<std::size_t>(heavy)]) + " and " + op_text(c.g, x),
               group.id, x);
      heavy = static_cast<std::ptrdiff_t>(j);
    }
    const auto& readers = c.readers[static_cast<std::size_t>(x)];
    const bool root = graph_output(c, x) || std::any_of(readers.begin(), readers.end(), [&](OpId r) {
                        return !c.holds(group.id, r);
                      });
    if (root && ++roots == 2)
      c.fail("disconnected", group_text(group) + " has two roots (members read outside it or graph outputs), the "
                             "second " + op_text(c.g, x) + "; FuseOps groups end in one post-dominator",
             group.id, x);
    if (root && p == TvmPattern::comm_reduce) continue;
    if (!root && p == TvmPattern::comm_reduce)
      c.fail("multi_pass", op_text(c.g, x) + " is read inside " + group_text(group) +
                               "; a reduction takes no consumers in FuseOps", group.id, x);
  }
  for (const auto& [from, to] : edges) {
    const TvmPattern b = presets::tvm_pattern(c.g.op(group.ops[to]).kind);
    if (b == TvmPattern::out_ewise_fusable)
      c.fail("anchor", op_text(c.g, group.ops[to]) + " reads " + op_text(c.g, group.ops[from]) + " inside " +
                           group_text(group) + "; a kOutEWiseFusable op reads its inputs from memory",
             group.id, group.ops[to]);
  }
  if (heavy >= 0 && presets::tvm_pattern(c.g.op(group.ops[static_cast<std::size_t>(heavy)]).kind) ==
                        TvmPattern::out_ewise_fusable)
    for (std::size_t j : downstream(group.ops.size(), edges, static_cast<std::size_t>(heavy)))
      if (presets::tvm_pattern(c.g.op(group.ops[j]).kind) > TvmPattern::broadcast)
        c.fail("anchor", op_text(c.g, group.ops[j]) + " follows " +
                             op_text(c.g, group.ops[static_cast<std::size_t>(heavy)]) + " in " + group_text(group) +
                             "; a kOutEWiseFusable op takes elementwise and broadcast epilogues only",
               group.id, group.ops[j]);
  const std::int64_t depth = c.rules.max_depth;
  if (depth > 0 && static_cast<std::int64_t>(group.ops.size()) > depth)
    c.fail("limit", group_text(group) + " has " + std::to_string(group.ops.size()) + " ops against max_depth = " +
                        std::to_string(depth), group.id);
}

void check_xla_group(Context& c, const FusionGroup& group, const std::vector<InnerEdge>& edges) {
  for (std::size_t j = 0; j < group.ops.size(); ++j) {
    const OpId x = group.ops[j];
    const presets::XlaRole role = presets::xla_role(c.g, x);
    if (role == presets::XlaRole::own_kernel)
      c.fail("not_fusible", group_text(group) + " holds " + op_text(c.g, x) + ", which XLA does not fuse", group.id, x);
    if (role == presets::XlaRole::scatter && c.holds(group.id, c.g.op(x).inputs.front()))
      c.fail("not_fusible", group_text(group) + " holds the in-place operand of scatter " + op_text(c.g, x), group.id, x);
    if (role != presets::XlaRole::reduction && role != presets::XlaRole::scatter) continue;
    for (std::size_t k : downstream(group.ops.size(), edges, j)) {
      const OpId y = group.ops[k];
      if (role == presets::XlaRole::scatter || presets::xla_role(c.g, y) == presets::XlaRole::reduction)
        c.fail("anchor", op_text(c.g, y) + " follows " + op_text(c.g, x) + " inside " + group_text(group) +
                             "; XLA fuses neither a reduction into a reduction nor anything after a scatter",
               group.id, y);
      else if (!is_fusible(c.g.op(y).kind) || c.elements_of(y) != c.elements_of(x))
        c.fail("multi_pass", op_text(c.g, y) + " follows reduction " + op_text(c.g, x) + " inside " +
                                 group_text(group) + " but is not an elementwise epilogue of its output size",
               group.id, y);
    }
  }
}

void check_inductor_group(Context& c, const FusionGroup& group) {
  std::optional<presets::IterationRange> range;
  int templates = 0;
  for (OpId x : group.ops) {
    const presets::InductorNode node = presets::inductor_node_kind(c.g, x, c.rules);
    if (node == presets::InductorNode::own_kernel)
      c.fail("not_fusible", group_text(group) + " holds " + op_text(c.g, x) + ", a kernel of its own in Inductor",
             group.id, x);
    if (node == presets::InductorNode::template_kernel && ++templates == 2)
      c.fail("anchor", group_text(group) + " holds two templates; " + op_text(c.g, x) + " is the second", group.id, x);
    if (node != presets::InductorNode::reduction) continue;
    const presets::IterationRange r = presets::inductor_range(c.g, x);
    if (range && !(*range == r))
      c.fail("range", group_text(group) + " holds reductions of different iteration ranges; " + op_text(c.g, x) +
                          " has (" + std::to_string(r.numel) + ", " + std::to_string(r.rnumel) + ")",
             group.id, x);
    range = range.value_or(r);
  }
}

}  // namespace

void check_procedure_groups(Context& c) {
  for (const FusionGroup& group : c.plan.groups) {
    if (group.ops.size() < 2) continue;
    const std::vector<InnerEdge> edges = inner_edges(c, group);
    switch (c.procedure) {
      case Procedure::tvm: check_tvm_group(c, group, edges); break;
      case Procedure::xla: check_xla_group(c, group, edges); break;
      case Procedure::inductor: check_inductor_group(c, group); break;
      case Procedure::rules: break;
    }
  }
}

const char* procedure_copy_refusal(const Context& c, OpId x) {
  if (graph_output(c, x)) return "it is a graph output";
  switch (c.procedure) {
    case Procedure::tvm: return "FuseOps never duplicates an op";
    case Procedure::xla:
      return presets::xla_role(c.g, x) == presets::XlaRole::loop ? nullptr : "XLA duplicates loop ops only";
    case Procedure::inductor:
      return presets::inductor_node_kind(c.g, x, c.rules) == presets::InductorNode::pointwise
                 ? nullptr
                 : "Inductor inlines pointwise ops only";
    case Procedure::rules: break;
  }
  return nullptr;
}

std::uint32_t procedure_reasons(const Context& c, OpId producer, OpId consumer) {
  const auto bit = [](EdgeReason r) { return std::uint32_t{1} << static_cast<unsigned>(r); };
  const FusionOp& p = c.g.op(producer);
  const FusionOp& q = c.g.op(consumer);
  if (p.is_source()) return bit(EdgeReason::source);
  std::uint32_t out = p.region != q.region ? bit(EdgeReason::region) : 0;
  if (graph_output(c, producer)) out |= bit(EdgeReason::output);
  if (c.procedure == Procedure::tvm) {
    const TvmPattern a = presets::tvm_pattern(p.kind), b = presets::tvm_pattern(q.kind);
    if (a == TvmPattern::opaque || a == TvmPattern::comm_reduce) out |= bit(EdgeReason::barrier_producer);
    if (b == TvmPattern::opaque || b == TvmPattern::out_ewise_fusable ||
        (a == TvmPattern::injective && b == TvmPattern::comm_reduce))
      out |= bit(EdgeReason::barrier_consumer);
    if (c.rules.max_depth > 0) out |= bit(EdgeReason::limit);
    if (c.plan.search.present) out |= bit(EdgeReason::cycle);  // plan search: merging would close a cycle
    return out | bit(EdgeReason::post_dominator);
  }
  if (c.procedure == Procedure::xla) {
    const presets::XlaRole a = presets::xla_role(c.g, producer), b = presets::xla_role(c.g, consumer);
    const bool priority_on = (c.rules.passes & xla_priority) != 0;
    if (a != presets::XlaRole::loop || !priority_on) out |= bit(EdgeReason::barrier_producer);
    // A consumer XLA does not fuse into (a library call, a bitcast, a scatter's in-place operand), or one in a
    // fusion that refused the producer (a concat into a reduction, a scatter fusion).
    if (b == presets::XlaRole::own_kernel || b == presets::XlaRole::scatter || q.kind == OpKind::reshape ||
        (p.kind == OpKind::concat && b == presets::XlaRole::reduction) || c.is_multi(c.group_of(consumer)))
      out |= bit(EdgeReason::barrier_consumer);
    // consumers, unprofitable, limit and cycle depend on the fusions of the moment (readers duplicated into
    // several kernels, priorities), which the final plan does not show.
    return out | bit(EdgeReason::consumers) | bit(EdgeReason::anchor) | bit(EdgeReason::multi_pass) | bit(EdgeReason::limit) |
           bit(EdgeReason::unprofitable) | bit(EdgeReason::cycle);
  }
  const auto fusible = [&](OpId x) {
    const presets::InductorNode node = presets::inductor_node_kind(c.g, x, c.rules);
    return node == presets::InductorNode::pointwise || node == presets::InductorNode::reduction ||
           node == presets::InductorNode::concat_kernel;
  };
  if (!fusible(producer)) out |= bit(EdgeReason::barrier_producer);
  if (!fusible(consumer)) out |= bit(EdgeReason::barrier_consumer);
  if (c.rules.epilogue) out |= bit(EdgeReason::barrier_producer) | bit(EdgeReason::barrier_consumer);
  if (c.rules.max_group_ops > 0) out |= bit(EdgeReason::limit);
  return out | bit(EdgeReason::range) | bit(EdgeReason::cycle);
}

}  // namespace fusion::verifier
