// search/local_problem.h — one component of fusible edges (components.h) as a small bitmask problem.
//
// Members get local indices 0..k-1 in topological order (k <= kMaxLocalOps, so a set of members is one
// 64-bit mask). The problem holds what bytes (§8) and legality (fusion/search.h) need about the component, with
// every op outside it treated as a fixed single op ("relaxed" legality):
//   - per member: output bytes, whether its write is forced (output: true, no consumer, or a consumer outside
//     the component), and its consumers inside (a mask);
//   - per outside producer that members read: its bytes and its readers inside (a mask);
//   - the fusible edges, in the greedy order (consumers in order, inputs in first-occurrence order), with their
//     plan edge index; the pairs that may never share a group (an edge between them fails the shape rule);
//   - direct[i]: members that read member i; via[i]: members reachable from i by a path whose inner ops all lie
//     outside the component (at least one). A cycle through those is a cycle whatever the other components do.
// build_local_problem answers nullopt when the component has more than kMaxLocalOps members or the outside
// paths take more than kMaxOutsideSteps steps to find; such a component keeps its greedy grouping.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "detail/topology.h"
#include "fusion/plan.h"

namespace fusion::search {

using Mask = std::uint64_t;
inline constexpr std::size_t kMaxLocalOps = 64;
inline constexpr std::int64_t kMaxOutsideSteps = 1 << 20;

struct LocalEdge {
  int producer = 0, consumer = 0;  // local indices
  std::int64_t plan_edge = 0;      // index into the plan's edge list (producer rows)
};

struct OutsideRead {
  std::uint64_t bytes = 0;
  Mask readers = 0;
};

struct LocalProblem {
  std::vector<OpId> ops;                  // local index -> op id
  std::vector<std::uint64_t> bytes;       // output bytes
  std::vector<bool> forced_write;
  std::vector<Mask> consumers;            // members reading it
  std::vector<Mask> shape_apart;          // members it may never share a group with
  std::vector<Mask> direct, via;          // see above
  std::vector<OutsideRead> outside_reads;
  std::vector<LocalEdge> edges;           // fusible edges, greedy order
};

// position: op -> its index in the topological order. component_of: op -> component index (components.h).
std::optional<LocalProblem> build_local_problem(const FusionGraph& graph, const detail::Producers& producers,
                                                const detail::Consumers& consumers,
                                                const std::vector<OpId>& members,
                                                const std::vector<std::int64_t>& position, bool broadcast);

}  // namespace fusion::search
