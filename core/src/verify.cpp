// verify.cpp — the plan checker's pipeline. Deliberately written apart from the planner and the cost model:
// its own membership index, union-finds, Kahn pass, traffic, flops and time, so that a planner or cost bug
// cannot hide behind shared code. Each stage lives in core/src/verify/ (context.h lists them).
#include "fusion/verify.h"

#include "fusion/dims.h"
#include "verify/context.h"

namespace fusion {
namespace {

std::vector<Violation> verify_bound(const FusionGraph& graph, const PlannerOptions& options, const FusionPlan& plan) {
  verifier::Context c(graph, options, plan);
  verifier::collect_edges(c);  // the distinct edges of the graph
  // Who holds each op; the later stages read op_group and the member lists, so stop when they are wrong.
  if (!verifier::check_membership(c)) return std::move(c.out);
  verifier::derive_group_io(c);    // each group's inputs and outputs, copies read through
  verifier::check_recompute(c);    // copies the rules allow, each read in its group
  verifier::check_group_kinds(c);  // loop kinds, heavy ops and their roles, regions, shapes
  verifier::check_group_parts(c);  // connectivity, horizontal parts, limits
  verifier::check_acyclic(c);      // the group graph, copies' reads included
  verifier::check_bytes(c);        // inputs, outputs, bytes, totals, kernel counts
  verifier::check_time(c);         // flops and roofline times
  verifier::check_edges(c);        // every edge once, fused flags, fitting reasons
  verifier::check_formulas(c);     // named dimensions: values and byte formulas
  verifier::check_search(c);       // a searched plan's certificate
  verifier::check_numerics(c);     // numerics notes, eager parity, the evaluator's lists
  verifier::check_code(c);         // generated kernels' byte annotations equal the group's bytes
  return std::move(c.out);
}

std::vector<Violation> verify_groups_bound(const FusionGraph& graph, const PlannerOptions& options, const FusionPlan& plan) {
  verifier::Context c(graph, options, plan);
  verifier::collect_edges(c);
  if (!verifier::check_membership(c)) return std::move(c.out);
  verifier::derive_group_io(c);
  verifier::check_recompute(c);
  verifier::check_group_kinds(c);
  verifier::check_group_parts(c);
  verifier::check_acyclic(c);
  return std::move(c.out);
}

}  // namespace

std::vector<Violation> verify_groups(const FusionGraph& graph, const PlannerOptions& options, const FusionPlan& plan) {
  if (!graph.has_dim_names()) return verify_groups_bound(graph, options, plan);
  const Expected<FusionGraph> bound = bind_dims(graph, options.dims);
  if (!bound) return {{"formulas", "the graph's dimensions cannot be bound: " + bound.errors().front().message, {}, {}}};
  return verify_groups_bound(*bound, options, plan);
}

std::vector<Violation> verify_plan(const FusionGraph& graph, const PlannerOptions& options, const FusionPlan& plan) {
  if (!graph.has_dim_names()) return verify_bound(graph, options, plan);
  const Expected<FusionGraph> bound = bind_dims(graph, options.dims);  // docs/design.md §16
  if (!bound) return {{"formulas", "the graph's dimensions cannot be bound: " + bound.errors().front().message, {}, {}}};
  return verify_bound(*bound, options, plan);
}

}  // namespace fusion
