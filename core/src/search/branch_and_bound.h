// search/branch_and_bound.h — exact search over one part's fusible edges (local_problem.h).
//
// Each fusible edge, in the greedy order, is decided merge or cut. A cut edge's two groups may never share a
// group afterwards (so every partition is reached once: its merged edges are exactly its inside edges); an
// edge whose ends already share a group is merged without branching, and one whose groups may not join
// (group_rules.h: an apart pair, or under tvm a rule no superset can repair) or hold a cut pair is cut without
// branching. Merge is tried first. A leaf counts when relaxed_legal (partition.h). Scores are the space's
// objective (partition.h score(): bytes, or whole picoseconds of estimated time); "bytes" below means score.
// Bound: bound_score (partition.h) of the partition that also merges every undecided edge, with the cut edges and
// apart pairs as the separated readers; every leaf below a node refines that partition and separates those pairs,
// so none beats it (admissible). A node whose bound is not below the incumbent is pruned. Each
// partition is visited at most once, so there are no equivalent states to memoise.
// The first incumbent is the caller's (greedy's bytes for the part). Each node costs node_cost_of(problem) units of
// the budget (a node's work grows with the part's size and width), and the search stops before a node the
// budget cannot pay for;
// then lower_bound is the least of the incumbent, the open node's bound and the bounds of the alternatives
// still open on the path, which covers every partition not yet ruled out. Nothing recurses (an explicit
// decision stack); memory O(edges). A node costs O(edges + k W) word operations for a part of k ops.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "search/partition.h"

namespace fusion::search {

template <std::size_t W>
struct PartResult {
  std::optional<Partition<W>> better;  // a relaxed-legal partition cheaper than the incumbent, if found
  std::uint64_t best_bytes = 0;        // bytes of `better`, else the incumbent's
  std::uint64_t lower_bound = 0;       // proven for every relaxed-legal partition
  bool complete = false;               // the whole tree was searched: best_bytes is optimal
  std::int64_t nodes = 0;
  std::int64_t units = 0;              // budget used: nodes x node_cost
};

// Budget units a node of a part of `ops` members costs with sets of W words: max(1, ops x W / 128), so that a
// budget bounds the work (1 for parts of up to 128 ops at one word; 125 for 1,000 ops at 16 words).
constexpr std::int64_t node_cost(std::size_t ops, std::size_t W) {
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(ops * W / 128));
}

// What a node of this problem costs: node_cost, twice that under xla (its parts carry about twice the candidate
// pairs per op, the sibling and horizontal pairs, and a node's work grows with them: WASM ran an xla search at about
// 60 % of a tvm search's units per ms before this charge).
template <std::size_t W>
std::int64_t node_cost_of(const LocalProblem<W>& p) {
  return node_cost(p.ops.size(), W) * (p.kind == SpaceKind::xla ? 2 : 1);
}

template <std::size_t W>
PartResult<W> search_part(const LocalProblem<W>& problem, std::uint64_t incumbent_bytes, std::int64_t budget);

}  // namespace fusion::search
