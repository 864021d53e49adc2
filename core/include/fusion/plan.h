// fusion/plan.h — the planner's result: groups, edge decisions with reasons, and bytes moved.
//
// A plan is a partition of the ops into groups (one GPU kernel each), listed in a topological order
// of the group graph (ties broken by smallest op id). Every distinct producer -> consumer edge has a
// decision: fused (both ends in one group) or the reason it was not. Produced by fusion/planner.h,
// checked by fusion/verify.h, written and read by fusion/json_io.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fusion/graph.h"

namespace fusion {

enum class EdgeReason {
  none,              // the edge is fused
  source,            // the producer is a source (already in memory); sources stay alone
  barrier_producer,  // the producer is a barrier (not elementwise)
  barrier_consumer,  // the consumer is a barrier (not elementwise)
  shape,             // shapes are not broadcast-compatible (or not equal without broadcast)
  cycle,             // merging would put a barrier between two halves of one group
};

const char* to_string(EdgeReason reason);
std::optional<EdgeReason> parse_edge_reason(std::string_view name);

struct EdgeDecision {
  OpId producer;
  OpId consumer;
  bool fused;
  EdgeReason reason;  // none exactly when fused
};

struct FusionGroup {
  std::int32_t id = 0;
  std::vector<OpId> ops;      // members, ascending id
  std::vector<OpId> inputs;   // distinct producers outside the group, ascending id
  std::vector<OpId> outputs;  // members consumed outside the group or with no consumer, ascending id
  std::uint64_t bytes_read = 0;
  std::uint64_t bytes_written = 0;
};

struct PlannerOptions {
  bool broadcast = true;          // merged edges need broadcast-compatible (else equal) shapes
  bool resident_sources = false;  // sources cost nothing (their consumers' reads still count)
  std::string strategy = "seed";  // the grouping rules; "seed" is DESIGN.md sections 3-4
};

struct FusionPlan {
  PlannerOptions options;
  std::vector<FusionGroup> groups;
  std::vector<std::int32_t> op_group;  // op id -> group id
  std::vector<EdgeDecision> edges;     // by consumer id, then first occurrence among its inputs
  std::vector<std::uint64_t> op_bytes_unfused;  // per op: its distinct inputs read + its output written
  std::uint64_t bytes_unfused = 0;
  std::uint64_t bytes_fused = 0;
  double speedup_estimate = 1.0;       // bytes_unfused / bytes_fused, 1.0 when both are 0
  std::int64_t kernels_unfused = 0;    // ops that are not sources
  std::int64_t kernels_fused = 0;      // groups that are not sources
};

}  // namespace fusion
