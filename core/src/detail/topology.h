// detail/topology.h — adjacency and order of a graph whose edges all name existing ops.
//
// Precondition for every function: each input id is in [0, size). No recursion: everything here is
// iterative, so a 1,000,000-op chain is fine. Shown by tests/core/graph.test.cpp.
#pragma once

#include <optional>
#include <vector>

#include "fusion/graph.h"

namespace fusion::detail {

// Consumers of every op as compressed rows: consumers of op x are ids[offsets[x] .. offsets[x+1]).
// Each distinct (producer, consumer) pair appears once, consumers in ascending id.
struct Consumers {
  std::vector<std::int64_t> offsets;
  std::vector<OpId> ids;

  std::size_t count(OpId x) const { return static_cast<std::size_t>(offsets[x + 1] - offsets[x]); }
  const OpId* begin(OpId x) const { return ids.data() + offsets[x]; }
  const OpId* end(OpId x) const { return ids.data() + offsets[x + 1]; }
};
Consumers build_consumers(const FusionGraph& graph);

// The same rows the other way: the distinct inputs of op x in first-occurrence order. Row offsets number
// the plan's edges (consumer id, then first occurrence), so per-edge data can live in flat arrays.
using Producers = Consumers;
Producers build_producers(const FusionGraph& graph);
// The consumer rows of a graph given by its producer rows (each row's ids distinct): what build_consumers gives
// for that graph, for a graph kept as rows only (xla's fusion graph, detail/node_view.h).
Consumers consumers_of(const Producers& producers);

// Does every op's input have a smaller id? (Always true of builder graphs; then ids are an order.)
bool ids_are_topological(const FusionGraph& graph);

// Topological order: Kahn's algorithm taking the smallest ready id first, so the order is ascending id
// whenever ids are already topological. nullopt when the graph has a cycle.
std::optional<std::vector<OpId>> topological_order(const FusionGraph& graph, const Consumers& consumers);

// Some cycle of a cyclic graph, as ops in producer -> consumer order (first op repeated at the end is
// not included). Empty when the graph is acyclic.
std::vector<OpId> find_cycle(const FusionGraph& graph, const Consumers& consumers);

}  // namespace fusion::detail
