// fusion/planner.h — FusionPlanner: graph in, deterministic FusionPlan out.
//
// plan() is a straight pipeline: validate -> order -> group (legality + cycle avoidance) -> number the
// groups -> price (cost model) -> plan. It is a pure function of (graph, options): no globals, no
// caches. A graph that does not validate, or an unknown strategy, comes back as errors, never as a
// partial plan. Strategies: "seed" (DESIGN.md sections 3-4). Shown by tests/core/planner.test.cpp.
#pragma once

#include <string>

#include "fusion/error.h"
#include "fusion/graph.h"
#include "fusion/plan.h"

namespace fusion {

class FusionPlanner {
 public:
  FusionPlanner() = default;
  explicit FusionPlanner(PlannerOptions options) : options_(std::move(options)) {}

  FusionPlanner& with_broadcast(bool on) { options_.broadcast = on; return *this; }
  FusionPlanner& with_resident_sources(bool on) { options_.resident_sources = on; return *this; }
  FusionPlanner& with_strategy(std::string name) { options_.strategy = std::move(name); return *this; }
  const PlannerOptions& options() const { return options_; }

  Expected<FusionPlan> plan(const FusionGraph& graph) const;

 private:
  PlannerOptions options_;
};

// The strategies plan() accepts.
bool is_known_strategy(const std::string& name);

}  // namespace fusion
