// search/branch_and_bound.h — exact search over one component's fusible edges (local_problem.h).
//
// Each fusible edge, in the greedy order, is decided merge or cut. A cut edge's two groups may never share a
// group afterwards (so every partition is reached once: its merged edges are exactly its inside edges); an
// edge whose ends already share a group is merged without branching, and one whose groups hold a shape-apart or
// cut pair is cut without branching. Merge is tried first. A leaf counts when relaxed_legal (partition.h).
// Bound: the bytes of the partition that also merges every undecided edge; merging never adds bytes, so no
// leaf below a node beats it (admissible). A node whose bound is not below the incumbent is pruned. Each
// partition is visited at most once, so there are no equivalent states to memoise.
// The first incumbent is the caller's (greedy's bytes for the component). Search stops after `budget` nodes;
// then lower_bound is the least of the incumbent, the open node's bound and the bounds of the alternatives
// still open on the path, which covers every partition not yet ruled out. Nothing recurses (an explicit
// decision stack); memory O(edges).
#pragma once

#include <cstdint>
#include <optional>

#include "search/partition.h"

namespace fusion::search {

struct ComponentResult {
  std::optional<Partition> better;  // a relaxed-legal partition cheaper than the incumbent, if found
  std::uint64_t best_bytes = 0;     // bytes of `better`, else the incumbent's
  std::uint64_t lower_bound = 0;    // proven for every relaxed-legal partition
  bool complete = false;            // the whole tree was searched: best_bytes is optimal
  std::int64_t nodes = 0;
};

ComponentResult search_component(const LocalProblem& problem, std::uint64_t incumbent_bytes, std::int64_t budget);

}  // namespace fusion::search
