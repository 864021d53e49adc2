// fusion/verify.h — an independent check of any plan against DESIGN.md sections 3-5.
//
// verify_plan trusts nothing the planner computed: given a graph that validates, the options and a
// plan (from the planner, from JSON, or hand-made), it checks that the groups partition the ops; that
// multi-op groups hold only fusible non-source ops, connected along legal edges; that every edge
// inside a group obeys the shape rule; that the group graph is acyclic; that each group's inputs are
// exactly its distinct external producers and its outputs exactly the members consumed outside or
// terminal; that every byte count, the totals, the speedup and the kernel counts are right; and that
// the edge list has every distinct edge once, fused exactly when inside a group, with a reason that
// fits. It returns the violations found (empty for a valid plan). It shares no code with the planner
// beyond the graph and shape primitives. Shown by tests/core/verify.test.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fusion/graph.h"
#include "fusion/plan.h"

namespace fusion {

struct Violation {
  std::string code;  // partition, not_fusible, disconnected, shape, cycle, inputs, outputs, bytes,
                     // totals, edges
  std::string message;
  std::optional<std::int64_t> group;
  std::optional<std::int64_t> op;
};

// Precondition: validate(graph) is empty. At most kMaxReportedErrors violations are listed.
std::vector<Violation> verify_plan(const FusionGraph& graph, const PlannerOptions& options, const FusionPlan& plan);

}  // namespace fusion
