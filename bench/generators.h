// generators.h — deterministic, seeded graph generators for benchmarks and large-input tests.
//
// Each generator builds a FusionGraph of about `ops` ops through the C++ builder (so ids are
// topological): long elementwise chains, wide fan-out/fan-in, diamonds, repeated transformer blocks,
// random DAGs with ~10% barriers and mixed broadcast shapes, and an adversarial graph where every
// elementwise merge risks a cycle through a barrier. Same name, size and seed: same graph.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fusion/graph.h"

namespace fusion::bench {

std::vector<std::string> generator_names();

// Builds the named graph; returns an empty graph for an unknown name.
FusionGraph generate(const std::string& name, std::int64_t ops, std::uint64_t seed);

// The graph as JSON in the input format (inputs by index).
std::string graph_to_json(const FusionGraph& graph);

}  // namespace fusion::bench
