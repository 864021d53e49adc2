// search/xla_part.cpp — depth-first search over duplication, branch and bound over partitions (xla_part.h).
#include "search/xla_part.h"

#include <algorithm>
#include <vector>

#include "search/xla_duplication.h"

namespace fusion::search {
namespace {

template <std::size_t W>
class XlaSearch {
 public:
  XlaSearch(const LocalProblem<W>& base, const Bits<W>& first, std::uint64_t incumbent, std::int64_t budget)
      : base_(base), first_(first), budget_(budget), cost_(node_cost_of(base)) {
    base.duplicable.each([&](std::size_t i) { candidates_.push_back(i); });
    duplicated_.assign(candidates_.size(), 0);
    open_.assign(candidates_.size(), 0);
    result_.best = incumbent;
  }

  XlaPartResult<W> run() {
    search_greedy_duplication();
    std::size_t depth = 0;
    bool descend = true;
    while (true) {
      if (descend) {
        if (result_.units + cost_ > budget_) return stopped(depth, std::nullopt);
        ++result_.nodes;
        result_.units += cost_;
        std::optional<std::uint64_t> running;  // the bound of a partition search the budget ended
        descend = enter(depth, running);
        if (running) return stopped(depth, running);
      }
      if (!descend) {  // the next open alternative, deepest first
        while (depth > 0 && !open_[depth - 1]) --depth;
        if (depth == 0) break;
        --depth;
        duplicated_[depth] ^= 1;
        open_[depth] = 0;
      } else {
        duplicated_[depth] = duplicate_first(depth) ? 1 : 0;
        open_[depth] = 1;
      }
      ++depth;
      descend = true;
    }
    result_.complete = true;
    result_.lower_bound = result_.best;
    return std::move(result_);
  }

 private:
  // The members decided "duplicated" among the first `depth` candidates.
  Bits<W> decided(std::size_t depth) const {
    Bits<W> set;
    for (std::size_t d = 0; d < depth; ++d)
      if (duplicated_[d]) set.set(candidates_[d]);
    return set;
  }

  // The candidates from `depth` on (undecided at a node of that depth).
  Bits<W> open(std::size_t depth) const {
    Bits<W> set;
    for (std::size_t d = depth; d < candidates_.size(); ++d) set.set(candidates_[d]);
    return set;
  }

  // The bound of the node whose first `depth` candidates are decided as in duplicated_ (see xla_part.h).
  std::uint64_t node_bound(std::size_t depth, const Bits<W>& duplicated) const {
    return merged_bound(with_open_duplication(base_, duplicated, open(depth)));
  }

  // Phase 1: a quarter of the budget on greedy's duplication alone, for a good incumbent early (phase 2, the
  // depth-first search, covers this D again, so its bound is not needed).
  void search_greedy_duplication() {
    if (first_.minus(base_.duplicable).any()) return;
    LocalProblem<W> p = with_duplicated(base_, first_);
    PartResult<W> leaf = search_part(p, result_.best, budget_ / 4);
    result_.nodes += leaf.nodes;
    result_.units += leaf.units;
    if (!leaf.better) return;
    result_.best = leaf.best_bytes;
    result_.better = std::move(leaf.better);
    result_.problem = std::move(p);
  }

  // Which child of the node at `depth` (just entered, its bound in bound_) to visit first: the one with the lower
  // bound, greedy's choice on a tie.
  bool duplicate_first(std::size_t depth) const {
    Bits<W> set = decided(depth);
    set.set(candidates_[depth]);
    const std::uint64_t duplicated = node_bound(depth + 1, set);
    return duplicated < bound_ || (duplicated == bound_ && first_.test(candidates_[depth]));
  }

  static std::uint64_t merged_bound(const LocalProblem<W>& p) {
    return bound_score(p, partition_of(p, [](std::size_t) { return true; }), p.apart_readers);
  }

  // Visits the node at `depth`: prunes it, searches a leaf's partitions, or says it branches. `running` is set when
  // the budget ended inside a leaf's search (to that search's bound).
  bool enter(std::size_t depth, std::optional<std::uint64_t>& running) {
    bound_ = node_bound(depth, decided(depth));
    if (bound_ >= result_.best) return false;
    if (depth < candidates_.size()) return true;
    LocalProblem<W> p = with_duplicated(base_, decided(depth));
    PartResult<W> leaf = search_part(p, result_.best, budget_ - result_.units);
    result_.nodes += leaf.nodes;
    result_.units += leaf.units;
    if (!leaf.complete) running = leaf.lower_bound;
    if (leaf.better) {
      result_.best = leaf.best_bytes;
      result_.better = std::move(leaf.better);
      result_.problem = std::move(p);
    }
    return false;
  }

  // Out of budget: the bound covers the node at `depth` (or the leaf search running there) and every alternative
  // still open on the path.
  XlaPartResult<W> stopped(std::size_t depth, std::optional<std::uint64_t> running) {
    std::uint64_t low = std::min(result_.best, running ? *running : node_bound(depth, decided(depth)));
    for (std::size_t d = 0; d < depth; ++d) {
      if (!open_[d]) continue;
      duplicated_[d] ^= 1;
      low = std::min(low, node_bound(d + 1, decided(d + 1)));
      duplicated_[d] ^= 1;
    }
    result_.lower_bound = low;
    return std::move(result_);
  }

  const LocalProblem<W>& base_;
  Bits<W> first_;
  std::int64_t budget_, cost_;
  std::vector<std::size_t> candidates_;
  std::vector<std::uint8_t> duplicated_, open_;  // per depth: the choice taken; whether the other is still open
  std::uint64_t bound_ = 0;                      // the bound of the node entered last
  XlaPartResult<W> result_;
};

}  // namespace

template <std::size_t W>
XlaPartResult<W> search_xla_part(const LocalProblem<W>& base, const Bits<W>& first, std::uint64_t incumbent,
                                 std::int64_t budget) {
  return XlaSearch<W>(base, first, incumbent, budget).run();
}

template XlaPartResult<1> search_xla_part<1>(const LocalProblem<1>&, const Bits<1>&, std::uint64_t, std::int64_t);
template XlaPartResult<4> search_xla_part<4>(const LocalProblem<4>&, const Bits<4>&, std::uint64_t, std::int64_t);
template XlaPartResult<16> search_xla_part<16>(const LocalProblem<16>&, const Bits<16>&, std::uint64_t, std::int64_t);

}  // namespace fusion::search
