// verify/edges.cpp — the edge list: every distinct edge once, fused exactly when the producer is a member
// (owned or recomputed) of the consumer's group (op_group), and an unfused edge's reason one that fits.
//
// A reason fits when the graph, the rules and the final groups make it true:
//  - an edge the rules refuse on its own has that reason, first match of: source (the producer is a source;
//    nothing else fits then), barrier_producer (the producer takes no such fused consumer: not a loop kind,
//    nor a heavy op whose epilogue rule is on, an anchor's epilogue being elementwise only), barrier_consumer
//    (the consumer takes no fused producers: not a loop kind, nor a reduction with reduction_prologue),
//    layout (transpose -> reduction), shape (the shape rule where shape_checked says it applies); also anchor
//    for heavy -> heavy when a heavy-op rule is on, and multi_pass for a reduction -> consumer of another element
//    count under reduction_epilogue;
//  - an edge legal on its own was refused for the groups it joins: cycle; any reason some edge between the
//    two groups has on its own; the roles of the heavy ops they hold (heavy_roles below); limit when a limit
//    is set that the two groups together could pass; unprofitable when the producer may be recomputed under
//    the rules. A shape edge may also carry the heavy-op reasons;
//  - region whenever the two ends run in different regions.
#include <algorithm>
#include <map>

#include "fusion/strategy.h"
#include "verify/context.h"

namespace fusion::verifier {
namespace {

using Reasons = std::uint32_t;
constexpr Reasons bit(EdgeReason r) { return Reasons{1} << static_cast<unsigned>(r); }

// May this consumer fuse after this producer, as far as the producer's kind goes? (An anchor's epilogue is
// elementwise only.)
bool takes_consumer(const FusionOp& op, const FusionOp& consumer, const StrategyRules& rules) {
  return is_loop_kind(op.kind, rules) ||
         (is_anchor_kind(op.kind) && rules.epilogue && is_fusible(consumer.kind)) ||
         (is_reduction_kind(op.kind) && rules.reduction_epilogue);
}

bool takes_producers(const FusionOp& op, const StrategyRules& rules) {
  return is_loop_kind(op.kind, rules) || (is_reduction_kind(op.kind) && rules.reduction_prologue);
}

EdgeReason local_reason(const Context& c, OpId producer, OpId consumer) {
  const FusionOp& p = c.g.op(producer);
  const FusionOp& q = c.g.op(consumer);
  if (p.is_source()) return EdgeReason::source;
  if (!takes_consumer(p, q, c.rules)) return EdgeReason::barrier_producer;
  if (!takes_producers(q, c.rules)) return EdgeReason::barrier_consumer;
  if (p.kind == OpKind::transpose && is_reduction_kind(q.kind)) return EdgeReason::layout;
  if (shape_checked(p, q) && !c.shapes_ok(producer, consumer)) return EdgeReason::shape;
  return EdgeReason::none;
}

// Reasons that also fit an edge on its own, whatever the first match: two heavy ops (when a rule lets heavy
// ops fuse at all), and a reduction epilogue of the wrong size.
Reasons local_extras(const Context& c, OpId producer, OpId consumer) {
  const FusionOp& p = c.g.op(producer);
  const FusionOp& q = c.g.op(consumer);
  const StrategyRules& r = c.rules;
  Reasons out = 0;
  if (is_heavy_kind(p.kind) && is_heavy_kind(q.kind) &&
      (r.epilogue || r.reduction_prologue || r.reduction_epilogue))
    out |= bit(EdgeReason::anchor);
  if (is_reduction_kind(p.kind) && r.reduction_epilogue && c.elements_of(consumer) != c.elements_of(producer))
    out |= bit(EdgeReason::multi_pass);
  return out;
}

bool recomputable(const FusionOp& op, const StrategyRules& rules) {
  if (rules.recompute == Recompute::none || op.is_source() || !is_loop_kind(op.kind, rules)) return false;
  return rules.recompute == Recompute::all || !is_expensive_kind(op.kind);
}

// What each group holds that a merge with it could run into.
enum Holds : char {
  kAnchor = 1,
  kReduction = 2,
  kClosedHeavy = 4,
  kMovement = 8
};  // closed: epilogue rule off

class ReasonJudge {
 public:
  explicit ReasonJudge(const Context& c) : c_(c), holds_(c.plan.groups.size(), 0) {
    for (const FusionGroup& group : c.plan.groups)
      for (OpId x : group.ops) holds_[group.id] |= holds(c.g.op(x));
    for (const Edge& e : c.edges)
      if (c.group_of(e.producer) != c.group_of(e.consumer))
        between_[key(e.producer, e.consumer)] |= bit(local_reason(c, e.producer, e.consumer)) |
                                                  (c.options.numerics.parity && is_rounding_point(c.g, e.producer)
                                                       ? bit(EdgeReason::numerics) : 0);
  }

  Reasons allowed(OpId producer, OpId consumer) const {
    const EdgeReason local = local_reason(c_, producer, consumer);
    if (local == EdgeReason::source) return bit(local);
    Reasons out = c_.g.op(producer).region != c_.g.op(consumer).region ? bit(EdgeReason::region) : 0;
    out |= bit(local) | local_extras(c_, producer, consumer);
    if (local == EdgeReason::none) out |= joined_groups(producer, consumer);
    if (local == EdgeReason::none && c_.options.numerics.parity && is_rounding_point(c_.g, producer))
      out |= bit(EdgeReason::numerics);  // eager parity (docs/design.md §18)
    if (local == EdgeReason::none || local == EdgeReason::shape) out |= heavy_roles(producer, consumer);
    return out & ~bit(EdgeReason::none);
  }

 private:
  char holds(const FusionOp& op) const {
    if (op.is_source()) return 0;
    if (is_movement_kind(op.kind)) return kMovement;
    if (is_anchor_kind(op.kind)) return kAnchor | (c_.rules.epilogue ? 0 : kClosedHeavy);
    if (is_reduction_kind(op.kind)) return kReduction | (c_.rules.reduction_epilogue ? 0 : kClosedHeavy);
    return 0;
  }

  std::pair<std::int32_t, std::int32_t> key(OpId a, OpId b) const {
    return std::minmax(c_.group_of(a), c_.group_of(b));
  }

  // Reasons a merge of the two groups could meet, beyond the edge itself.
  Reasons joined_groups(OpId producer, OpId consumer) const {
    Reasons out = bit(EdgeReason::cycle);
    if (const auto it = between_.find(key(producer, consumer)); it != between_.end())
      out |= it->second & ~bit(EdgeReason::source);
    const StrategyRules& r = c_.rules;
    const std::size_t size =
        c_.plan.groups[c_.group_of(producer)].ops.size() + c_.plan.groups[c_.group_of(consumer)].ops.size();
    if ((r.max_group_ops > 0 && size > static_cast<std::size_t>(r.max_group_ops)) ||
        r.max_group_operands > 0 || r.max_live_values > 0)
      out |= bit(EdgeReason::limit);
    if (recomputable(c_.g.op(producer), r)) out |= bit(EdgeReason::unprofitable);
    return out;
  }

  // Refusals for the roles heavy ops give their groups: two heavy ops, or an anchor and a movement op
  // (anchor); an anchor's producers stay outside (barrier_consumer); a heavy op without its epilogue rule
  // takes no consumers (barrier_producer); a reduction's prologue and epilogue (multi_pass).
  Reasons heavy_roles(OpId producer, OpId consumer) const {
    const char a = holds_[c_.group_of(producer)], b = holds_[c_.group_of(consumer)];
    const auto both = [&](char x, char y) { return ((a & x) && (b & y)) || ((a & y) && (b & x)); };
    Reasons out = 0;
    if (both(kAnchor | kReduction, kAnchor | kReduction) || both(kAnchor, kMovement))
      out |= bit(EdgeReason::anchor);
    if ((a | b) & kAnchor) out |= bit(EdgeReason::barrier_consumer);
    if ((a | b) & kClosedHeavy) out |= bit(EdgeReason::barrier_producer);
    if ((a | b) & kReduction) out |= bit(EdgeReason::multi_pass);
    return out;
  }

  const Context& c_;
  std::vector<char> holds_;                                           // per group: Holds flags
  std::map<std::pair<std::int32_t, std::int32_t>, Reasons> between_;  // per pair of groups: local reasons
};

std::string edge_text(const EdgeDecision& e) {
  return "edge " + std::to_string(e.producer) + " -> " + std::to_string(e.consumer);
}

}  // namespace

void check_edges(Context& c) {
  const ReasonJudge judge(c);
  const auto allowed = [&](const EdgeDecision& e) {
    return c.procedure == Procedure::rules ? judge.allowed(e.producer, e.consumer)
                                           : procedure_reasons(c, e.producer, e.consumer);
  };
  std::vector<int> listed(c.edges.size(), 0);  // per distinct edge, in c.edges order
  std::size_t distinct = 0;
  for (const EdgeDecision& e : c.plan.edges) {
    const auto it = std::lower_bound(c.edges.begin(), c.edges.end(), Edge{e.producer, e.consumer});
    if (it == c.edges.end() || *it != Edge{e.producer, e.consumer}) {
      c.fail("edges", edge_text(e) + " is listed but the graph has no such edge", {}, e.consumer);
      continue;
    }
    const int times = ++listed[static_cast<std::size_t>(it - c.edges.begin())];
    if (times == 1) ++distinct;
    if (times == 2) c.fail("edges", edge_text(e) + " is listed twice", {}, e.consumer);
    const bool inside = c.holds(c.group_of(e.consumer), e.producer);
    if (e.fused != inside)
      c.fail("edges",
             edge_text(e) + " is marked " + (e.fused ? "fused" : "not fused") + " but the producer is " +
                 (inside ? "" : "not ") + "a member of the consumer's group",
             {}, e.consumer);
    else if (e.fused != (e.reason == EdgeReason::none))
      c.fail("edges",
             edge_text(e) + (e.fused ? " is fused yet has a reason" : " is not fused and has no reason"), {},
             e.consumer);
    else if (!e.fused && !(allowed(e) & bit(e.reason)))
      c.fail("edges",
             edge_text(e) + " has reason '" + to_string(e.reason) + "', which does not fit the graph", {},
             e.consumer);
  }
  if (distinct != c.edges.size())
    c.fail("edges", std::to_string(c.edges.size() - distinct) + " of " + std::to_string(c.edges.size()) +
                        " edges are missing from the edge list");
}

}  // namespace fusion::verifier
