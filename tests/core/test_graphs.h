// test_graphs.h — helpers shared by the doctest files: graphs written inline as JSON, and plans read
// back as names so expectations read like the graph drawn on paper.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "fusion/json_io.h"
#include "fusion/planner.h"
#include "fusion/verify.h"

namespace fusion::testing {

inline FusionGraph graph_from(const std::string& json) {
  Expected<FusionGraph> graph = read_graph_json(json);
  if (!graph) FAIL("graph does not read: " << graph.errors().front().message);
  return std::move(graph).value();
}

// Plans the graph, checks the plan with the verifier, and returns it.
inline FusionPlan plan_checked(const FusionGraph& graph, const FusionPlanner& planner = FusionPlanner()) {
  Expected<FusionPlan> plan = planner.plan(graph);
  if (!plan) FAIL("planning failed: " << plan.errors().front().message);
  for (const Violation& v : verify_plan(graph, planner.options(), *plan)) FAIL("verifier: " << v.message);
  return std::move(plan).value();
}

inline std::string name_of(const FusionGraph& g, OpId id) {
  return g.op(id).name.empty() ? "#" + std::to_string(id) : g.op(id).name;
}

// Groups as lists of op names, in plan order, e.g. {{"x"}, {"bias"}, {"y", "z"}}.
inline std::vector<std::vector<std::string>> group_names(const FusionGraph& g, const FusionPlan& plan) {
  std::vector<std::vector<std::string>> out;
  for (const FusionGroup& group : plan.groups) {
    out.emplace_back();
    for (OpId x : group.ops) out.back().push_back(name_of(g, x));
  }
  return out;
}

// The multi-op groups only, which is what most tests care about.
inline std::vector<std::vector<std::string>> fused_groups(const FusionGraph& g, const FusionPlan& plan) {
  std::vector<std::vector<std::string>> out;
  for (auto& group : group_names(g, plan))
    if (group.size() > 1) out.push_back(group);
  return out;
}

// The decision on edge producer -> consumer, by names: "fused" or the reason.
inline std::string edge_decision(const FusionGraph& g, const FusionPlan& plan, const std::string& producer,
                                 const std::string& consumer) {
  for (const EdgeDecision& e : plan.edges)
    if (name_of(g, e.producer) == producer && name_of(g, e.consumer) == consumer)
      return e.fused ? "fused" : to_string(e.reason);
  return "no such edge";
}

inline const FusionGroup& group_of_op(const FusionGraph& g, const FusionPlan& plan, const std::string& name) {
  for (const FusionGroup& group : plan.groups)
    for (OpId x : group.ops)
      if (name_of(g, x) == name) return group;
  FAIL("no op named " << name);
  return plan.groups.front();
}

}  // namespace fusion::testing
