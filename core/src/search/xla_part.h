// search/xla_part.h — exact search of one part under xla: which members are duplicated, then the partition.
//
// A plan of the part is a set D of duplicated members and a partition of the rest (xla_duplication.h). First a
// quarter of the budget goes to the partitions under greedy's D alone (an early incumbent); then the search
// is depth-first over the duplicable members in local order, each decided "duplicated" or "kept", the child with
// the lower bound first (greedy's choice on a tie); at a leaf, branch and bound over the partition (branch_and_bound.h) under
// that D, with the best time so far as incumbent.
// Bound of a node (some members decided): the bound_score (partition.h) of the problem with the members decided
// "duplicated" duplicated and every undecided one kept, all its pairs merged, where the pairs also hold every sibling
// pair a decision of the undecided ones could create (xla_duplication.h with_open_duplication). Admissible: take any
// plan below the node (D = the decided ones plus some undecided X); keep X's members instead and merge each into one
// group with every group computing a copy of it. Each op is then computed once where it was computed several times,
// and merging never adds time. Every group of the result is connected by the node's pairs (the plan's own pairs are
// among them, and a kept op joins its readers by fusible edges), so the node's merged partition coarsens it, and its
// bound is below it. The split terms count what every legal plan of the part must split, whatever is duplicated.
// A node whose bound is not below the incumbent is pruned.
// Budget: a node of either level costs node_cost (branch_and_bound.h); when it runs out, the lower bound is the least
// of the incumbent, the bound of the running partition search and the bounds of the alternatives still open on the
// duplication path. Nothing recurses; memory O(candidates + edges).
#pragma once

#include <cstdint>
#include <optional>

#include "search/branch_and_bound.h"

namespace fusion::search {

template <std::size_t W>
struct XlaPartResult {
  std::optional<LocalProblem<W>> problem;  // the problem under the D of `better`
  std::optional<Partition<W>> better;      // a relaxed-legal partition of it cheaper than the incumbent, if found
  std::uint64_t best = 0;                  // score of `better`, else the incumbent
  std::uint64_t lower_bound = 0;           // proven for every plan of the part (every D)
  bool complete = false;
  std::int64_t nodes = 0, units = 0;
};

// base: the part's problem with nothing duplicated; first: greedy's duplicated members (used as the first choices).
template <std::size_t W>
XlaPartResult<W> search_xla_part(const LocalProblem<W>& base, const Bits<W>& first, std::uint64_t incumbent,
                                 std::int64_t budget);

}  // namespace fusion::search
