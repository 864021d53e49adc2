// search/branch_and_bound.cpp — depth-first branch and bound with an explicit stack (branch_and_bound.h).
#include "search/branch_and_bound.h"

#include "search/group_rules.h"

#include <algorithm>
#include <vector>

namespace fusion::search {
namespace {

enum Decision : std::int8_t { undecided = -1, cut = 0, merge = 1 };
constexpr std::uint8_t kMerge = 1, kCut = 2;

template <std::size_t W>
class Search {
 public:
  Search(const LocalProblem<W>& p, std::uint64_t incumbent, std::int64_t budget)
      : p_(p), decision_(p.edges.size(), undecided), options_(p.edges.size(), 0), budget_(budget),
        cost_(node_cost_of(p)) {
    result_.best_bytes = incumbent;
  }

  PartResult<W> run() {
    std::size_t depth = 0;
    bool descend = true;
    while (true) {
      if (descend) {
        if (result_.units + cost_ > budget_) return stopped(depth);
        ++result_.nodes;
        result_.units += cost_;
        descend = enter(depth);
      }
      if (!descend) {  // take the next open alternative, deepest first
        while (depth > 0 && options_[depth - 1] == 0) decision_[--depth] = undecided;
        if (depth == 0) break;
        --depth;
      }
      take_next(depth);
      ++depth;
      descend = true;
    }
    result_.complete = true;
    result_.lower_bound = result_.best_bytes;
    return result_;
  }

 private:
  // Visits the node at `depth` (edges before it decided): prunes, scores a leaf, or lists the options of edge
  // `depth`. True when the node has options to branch on.
  bool enter(std::size_t depth) {
    if (bound() >= result_.best_bytes) return false;
    if (depth == p_.edges.size()) {
      score_leaf();
      return false;
    }
    options_[depth] = options_of(depth);
    return true;
  }

  void take_next(std::size_t depth) {
    const bool merge_next = options_[depth] & kMerge;
    decision_[depth] = merge_next ? merge : cut;
    options_[depth] &= static_cast<std::uint8_t>(merge_next ? ~kMerge : ~kCut);
  }

  std::uint8_t options_of(std::size_t depth) const {
    const Partition<W> now = partition_of(p_, [&](std::size_t e) { return decision_[e] == merge; });
    const LocalEdge& edge = p_.edges[depth];
    const std::size_t a = now.group_of[edge.producer], b = now.group_of[edge.consumer];
    if (a == b) return kMerge;
    return kept_apart(now.groups[a], now.groups[b]) ? kCut : kMerge | kCut;
  }

  // May the two groups never share a group: the space rules it out (group_rules.h), or a cut edge lies between?
  bool kept_apart(const Bits<W>& a, const Bits<W>& b) const {
    if (!may_join(p_, a, b)) return true;
    for (std::size_t e = 0; e < p_.edges.size(); ++e) {
      if (decision_[e] != cut) continue;
      const auto u = static_cast<std::size_t>(p_.edges[e].producer), v = static_cast<std::size_t>(p_.edges[e].consumer);
      if ((a.test(u) && b.test(v)) || (a.test(v) && b.test(u))) return true;
    }
    return false;
  }

  std::uint64_t bound() const {
    separated_ = p_.apart_readers;
    for (std::size_t e = 0; e < p_.edges.size(); ++e)
      if (decision_[e] == cut && p_.edges[e].plan_edge >= 0)
        separated_[static_cast<std::size_t>(p_.edges[e].producer)].set(static_cast<std::size_t>(p_.edges[e].consumer));
    return bound_score(p_, partition_of(p_, [&](std::size_t e) { return decision_[e] != cut; }), separated_);
  }

  void score_leaf() {
    Partition<W> leaf = partition_of(p_, [&](std::size_t e) { return decision_[e] == merge; });
    const std::uint64_t cost = score(p_, leaf);
    if (cost >= result_.best_bytes || !relaxed_legal(p_, leaf)) return;
    result_.best_bytes = cost;
    result_.better = std::move(leaf);
  }

  // Out of nodes: the bound covers the open node and every alternative still open on the path.
  PartResult<W> stopped(std::size_t depth) {
    std::uint64_t low = std::min(result_.best_bytes, bound());
    for (std::size_t d = depth; d-- > 0;) {
      if (options_[d] == 0) continue;
      const auto taken = static_cast<Decision>(decision_[d]);
      decision_[d] = (options_[d] & kMerge) ? merge : cut;
      for (std::size_t e = d + 1; e < depth; ++e) saved_.push_back(decision_[e]), decision_[e] = undecided;
      low = std::min(low, bound());
      for (std::size_t e = depth; e-- > d + 1;) decision_[e] = saved_.back(), saved_.pop_back();
      decision_[d] = taken;
    }
    result_.lower_bound = low;
    return result_;
  }

  const LocalProblem<W>& p_;
  std::vector<std::int8_t> decision_;
  std::vector<std::uint8_t> options_;  // per depth: alternatives not yet taken
  std::vector<std::int8_t> saved_;
  mutable std::vector<Bits<W>> separated_;  // bound()'s scratch: per member, readers it shares no group with
  std::int64_t budget_;
  std::int64_t cost_;  // units per node
  PartResult<W> result_;
};

}  // namespace

template <std::size_t W>
PartResult<W> search_part(const LocalProblem<W>& problem, std::uint64_t incumbent_bytes, std::int64_t budget) {
  return Search<W>(problem, incumbent_bytes, budget).run();
}

template PartResult<1> search_part<1>(const LocalProblem<1>&, std::uint64_t, std::int64_t);
template PartResult<4> search_part<4>(const LocalProblem<4>&, std::uint64_t, std::int64_t);
template PartResult<16> search_part<16>(const LocalProblem<16>&, std::uint64_t, std::int64_t);

}  // namespace fusion::search
