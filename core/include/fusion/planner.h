// fusion/planner.h — FusionPlanner: graph in, deterministic FusionPlan out.
//
// plan() is a straight pipeline: bind named dimensions -> validate -> order -> group (legality + cycle avoidance) -> number the
// groups -> price (bytes and time) -> label -> plan; with options().search.mode optimal (seed only) the greedy plan
// is then the first incumbent of plan search (fusion/search.h, docs/design.md §17), whose plan is numbered, priced
// and labelled the same way. It is a pure function of (graph, options): no
// globals, no caches. With all rules off (seed) grouping is docs/design.md §5-§6 (detail/grouping.h);
// otherwise the rule table of docs/strategies.md (detail/strategy_grouping.h). options().rules is used
// as given: PlannerOptions built by hand must hold the resolved rules (preset_rules in fusion/strategy.h);
// with_strategy and the JSON reader do this. A graph that does not validate, an unknown strategy or
// hardware profile, comes back as errors, never as a partial plan. A broken internal invariant (a bug)
// throws fusion::InternalError (fusion/error.h). Shown by tests/core/planner.test.cpp
// and tests/core/strategies.test.cpp.
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
  // Selects a preset and resets the rules to it (docs/strategies.md); override single rules afterwards.
  FusionPlanner& with_strategy(std::string name);
  FusionPlanner& with_hardware(std::string name) { options_.hardware = std::move(name); return *this; }
  FusionPlanner& with_rules(StrategyRules rules) { options_.rules = std::move(rules); return *this; }
  // Values of named dimensions, over the graph's defaults (docs/design.md §16).
  FusionPlanner& with_dims(DimValues dims) { options_.dims = std::move(dims); return *this; }
  FusionPlanner& with_numerics(NumericsSettings numerics) { options_.numerics = numerics; return *this; }
  const PlannerOptions& options() const { return options_; }

  // A graph with named dimensions is bound first (options().dims over its defaults, fusion/dims.h); the plan then
  // carries the values, the byte formulas and the warnings of docs/design.md §16.
  Expected<FusionPlan> plan(const FusionGraph& graph) const;
  // plan() without the formulas and warnings of named dimensions: the same groups and numbers, for callers that
  // plan one graph at many values (fusion/sweep.h).
  Expected<FusionPlan> plan_numbers(const FusionGraph& graph) const;

 private:
  std::optional<Error> options_error() const;  // an unknown strategy or hardware, or a rule it does not accept
  Expected<FusionPlan> plan_bound(const FusionGraph& graph, std::vector<PlanWarning> warnings) const;
  PlannerOptions options_;
};

// The strategies plan() accepts.
bool is_known_strategy(const std::string& name);

}  // namespace fusion
