// strategy_grouping.cpp — the vertical and horizontal passes of strategy_grouping.h; recompute.cpp has
// the third.
#include "detail/strategy_grouping.h"

#include <algorithm>
#include <optional>

#include "detail/group_graph.h"
#include "detail/group_stats.h"
#include "detail/recompute.h"
#include "detail/strategy_legality.h"

namespace fusion::detail {
namespace {

// Walk steps a horizontal merge may spend on its cycle check before it is skipped.
constexpr std::uint64_t kHorizontalStepBudget = 4096;
// Consumers of one tensor considered for sibling fusion.
constexpr std::size_t kMaxSiblings = 16;

class StrategyGrouper {
 public:
  StrategyGrouper(const FusionGraph& g, const Producers& producers, const Consumers& consumers,
                  const std::vector<OpId>& order, const PlannerOptions& options)
      : g_(g), producers_(producers), consumers_(consumers), order_(order), options_(options),
        rules_(options.rules), groups_(g, consumers, order) {
    const std::size_t n = g.size();
    heavy_.assign(n, -1);
    downstream_.assign(n, 0);
    movement_.assign(n, 0);
    reached_.assign(n, 0);
    members_.resize(n);
    for (std::size_t x = 0; x < n; ++x) {
      members_[x].push_back(static_cast<OpId>(x));
      if (is_heavy_kind(g.op(static_cast<OpId>(x)).kind)) heavy_[x] = static_cast<OpId>(x);
      downstream_[x] = is_reduction_kind(g.op(static_cast<OpId>(x)).kind);
      movement_[x] = is_movement_kind(g.op(static_cast<OpId>(x)).kind);
    }
    if (rules_.max_group_operands > 0 || rules_.max_live_values > 0) stats_.emplace(g, producers, consumers, members_);
  }

  Grouping run() {
    Grouping result;
    result.reasons.assign(producers_.ids.size(), EdgeReason::none);
    vertical(result.reasons);
    if (rules_.horizontal) siblings();
    if (rules_.horizontal_small_bytes > 0) pack_small();
    result.representative.resize(g_.size());
    for (std::size_t x = 0; x < g_.size(); ++x) result.representative[x] = groups_.find(static_cast<OpId>(x));
    if (rules_.recompute != Recompute::none) {
      recompute(RecomputeInput{g_, producers_, consumers_, order_, options_, heavy_}, result);
    }
    if (options_.strategy == "xla-classic") describe(result);
    return result;
  }

 private:
  OpId find(OpId x) { return groups_.find(x); }

  // xla-classic: what formed each multi-op group, in XLA's classic words (instruction fusion).
  void describe(Grouping& result) {
    std::vector<std::int64_t> ops(g_.size(), 0), copies(g_.size(), 0);
    for (OpId rep : result.representative)
      if (rep >= 0) ++ops[rep];
    for (const auto& [op, rep] : result.copies) ++copies[rep];
    for (std::size_t x = 0; x < g_.size(); ++x) {
      const OpId rep = static_cast<OpId>(x);
      if (result.representative[x] != rep || ops[x] + copies[x] < 2) continue;
      const OpId h = heavy_[find(rep)];
      std::string text = h >= 0 && is_reduction_kind(g_.op(h).kind) ? "instruction fusion: input fusion into " +
                                                                          std::string(to_string(g_.op(h).kind))
                                                                    : std::string("instruction fusion: loop fusion");
      text += ", " + std::to_string(ops[x] + copies[x]) + " ops";
      if (copies[x] > 0) text += ", " + std::to_string(copies[x]) + " duplicated";
      result.rules.emplace_back(rep, std::move(text));
    }
  }
  auto finder() { return [this](OpId x) { return groups_.find(x); }; }

  void vertical(std::vector<EdgeReason>& all_reasons) {
    for (OpId v : order_) {
      const OpId* inputs = producers_.begin(v);
      const std::size_t count = producers_.count(v);
      EdgeReason* reasons = all_reasons.data() + producers_.offsets[v];
      for (std::size_t k = 0; k < count; ++k) {
        reasons[k] = strategy_edge_reason(g_.op(inputs[k]), g_.op(v), rules_, options_.broadcast);
        if (reasons[k] == EdgeReason::shape) groups_.forbid(inputs[k], v);
      }
      for (std::size_t k = 0; k < count; ++k)
        if (reasons[k] == EdgeReason::none) reasons[k] = merge_edge(inputs[k], v);
    }
  }

  // Tries to merge the groups of u and v along the edge u -> v; the reason it was refused, or none.
  EdgeReason merge_edge(OpId u, OpId v) {
    const OpId a = find(u), c = find(v);
    if (a == c) return EdgeReason::none;
    if (heavy_[a] >= 0 && heavy_[c] >= 0) return EdgeReason::anchor;
    bool epilogue_join = false;
    if (const EdgeReason side = heavy_side(u, v, a, c, epilogue_join); side != EdgeReason::none) return side;
    if (groups_.has_forbidden_pair(a, c)) return EdgeReason::shape;
    if (exceeds_limits(a, c, rules_.max_group_ops)) return EdgeReason::limit;
    if (!groups_.merge_if_acyclic(a, c)) return EdgeReason::cycle;
    joined(a, c, epilogue_join);
    return EdgeReason::none;
  }

  // The rules of a group that holds a heavy op (strategy_grouping.h, pass 1). Sets epilogue_join when
  // the other group joins a reduction group on its output side.
  EdgeReason heavy_side(OpId u, OpId v, OpId a, OpId c, bool& epilogue_join) {
    const OpId heavy_group = heavy_[a] >= 0 ? a : (heavy_[c] >= 0 ? c : -1);
    if (heavy_group < 0) return EdgeReason::none;
    const OpId h = heavy_[heavy_group];
    const OpId other = heavy_group == a ? c : a;
    if (is_anchor_kind(g_.op(h).kind)) {
      if (movement_[other] > 0) return EdgeReason::anchor;  // an anchor's epilogue is elementwise only
      return reads_from(h, other) ? EdgeReason::barrier_consumer : EdgeReason::none;
    }
    if (v == h) {  // a prologue: the joining group must be all upstream of the reduction
      if (transpose_into(h, other)) return EdgeReason::layout;
      return all_upstream_of(u, other) ? EdgeReason::none : EdgeReason::multi_pass;
    }
    const OpId end_in_group = heavy_group == a ? u : v;
    if (!downstream_[end_in_group] || !fits_epilogue(other, heavy_group, h)) return EdgeReason::multi_pass;
    epilogue_join = true;
    return EdgeReason::none;
  }

  bool reads_from(OpId op, OpId group) {
    for (auto it = producers_.begin(op); it != producers_.end(op); ++it)
      if (find(*it) == group) return true;
    return false;
  }

  // Does every member of `group` reach `end` (a member) inside the group? Iterative backward search.
  bool all_upstream_of(OpId end, OpId group) {
    if (++search_mark_ == 0) std::fill(reached_.begin(), reached_.end(), 0), search_mark_ = 1;
    std::vector<OpId>& stack = scratch_;
    stack.assign(1, end);
    reached_[end] = search_mark_;
    std::size_t count = 1;
    while (!stack.empty()) {
      const OpId x = stack.back();
      stack.pop_back();
      for (auto it = producers_.begin(x); it != producers_.end(x); ++it)
        if (reached_[*it] != search_mark_ && find(*it) == group) {
          reached_[*it] = search_mark_;
          stack.push_back(*it);
          ++count;
        }
    }
    return count == members_[group].size();
  }

  bool transpose_into(OpId reduction, OpId group) {
    for (auto it = producers_.begin(reduction); it != producers_.end(reduction); ++it)
      if (g_.op(*it).kind == OpKind::transpose && find(*it) == group) return true;
    return false;
  }

  // May every member of `group` run on the reduction's output space, downstream of it: reading nothing
  // larger from outside, none of the reduction's prologue values, and feeding neither it nor its prologue?
  bool fits_epilogue(OpId group, OpId reduction_group, OpId reduction) {
    const std::uint64_t size = element_count(g_.op(reduction));
    for (OpId x : members_[group]) {
      if (element_count(g_.op(x)) != size) return false;
      for (auto it = consumers_.begin(x); it != consumers_.end(x); ++it)  // feeding the reduction's input side
        if (find(*it) == reduction_group && (*it == reduction || !downstream_[*it])) return false;
      for (auto it = producers_.begin(x); it != producers_.end(x); ++it) {
        const OpId owner = find(*it);
        if (owner == reduction_group && !downstream_[*it]) return false;  // a prologue value: a second pass
        if (owner != group && owner != reduction_group && element_count(g_.op(*it)) > size) return false;
      }
    }
    return true;
  }

  bool exceeds_limits(OpId a, OpId c, std::int64_t max_ops) {
    if (max_ops > 0 && groups_.size(a) + groups_.size(c) > max_ops) return true;
    if (!stats_) return false;
    const GroupCounts merged = stats_->preview(a, c, finder());
    return (rules_.max_group_operands > 0 && merged.operands() > rules_.max_group_operands) ||
           (rules_.max_live_values > 0 && merged.live() > rules_.max_live_values);
  }

  // Book-keeping after groups a and c merged (exceeds_limits previewed this pair last).
  void joined(OpId a, OpId c, bool epilogue_join) {
    const OpId into = find(a);
    const OpId from = into == a ? c : a;
    if (epilogue_join) {
      const OpId joining = heavy_[a] >= 0 ? c : a;
      for (OpId x : members_[joining]) downstream_[x] = 1;
    }
    if (heavy_[into] < 0) heavy_[into] = heavy_[from];
    movement_[into] += movement_[from];
    if (stats_) stats_->commit(into, finder());  // reads the member lists as they were before the union
    if (members_[into].size() < members_[from].size()) std::swap(members_[into], members_[from]);
    members_[into].insert(members_[into].end(), members_[from].begin(), members_[from].end());
    std::vector<OpId>().swap(members_[from]);
  }

  bool loop_group(OpId group) {
    return heavy_[group] < 0 && !g_.op(group).is_source() && is_loop_kind(g_.op(group).kind, rules_);
  }

  // Horizontal merge of two loop groups with no edge between them (or any edge), if allowed and acyclic.
  bool merge_horizontal(OpId x, OpId y) {
    OpId a = find(x), c = find(y);
    if (a == c || !loop_group(a) || !loop_group(c)) return false;
    if (g_.op(a).region != g_.op(c).region || groups_.has_forbidden_pair(a, c)) return false;
    const std::int64_t cap = rules_.horizontal_max_ops;
    if (cap > 0 && groups_.size(a) + groups_.size(c) > cap) return false;
    if (exceeds_limits(a, c, rules_.max_group_ops)) return false;
    if (groups_.order_label(a) > groups_.order_label(c)) std::swap(a, c);
    if (!groups_.merge_if_acyclic(a, c, kHorizontalStepBudget)) return false;
    joined(a, c, false);
    return true;
  }

  // Sibling fusion: consumers of one tensor with the same element count share groups, in order.
  void siblings() {
    std::vector<std::pair<std::uint64_t, OpId>> candidates;
    for (OpId p : order_) {
      candidates.clear();
      for (auto it = consumers_.begin(p); it != consumers_.end(p) && candidates.size() < kMaxSiblings; ++it)
        if (is_loop_kind(g_.op(*it).kind, rules_)) candidates.emplace_back(element_count(g_.op(*it)), *it);
      std::stable_sort(candidates.begin(), candidates.end(),
                       [](const auto& l, const auto& r) { return l.first < r.first; });
      // Within one element count, each sibling joins the current group, or starts the next one.
      OpId current = -1;
      for (std::size_t k = 0; k < candidates.size(); ++k) {
        const bool same_space = k > 0 && candidates[k].first == candidates[k - 1].first;
        if (!same_space || !merge_horizontal(current, candidates[k].second)) current = candidates[k].second;
      }
    }
  }

  // The bytes a loop group moves (inputs read + all members written), or nullopt above `limit`.
  std::optional<std::uint64_t> small_bytes(OpId group, std::uint64_t limit) {
    std::uint64_t total = 0;
    for (OpId x : members_[group]) {
      total += tensor_bytes(g_.op(x).shape, g_.op(x).dtype_bytes).value_or(limit + 1);
      for (auto it = producers_.begin(x); it != producers_.end(x) && total <= limit; ++it)
        if (find(*it) != group) total += tensor_bytes(g_.op(*it).shape, g_.op(*it).dtype_bytes).value_or(limit + 1);
      if (total > limit) return std::nullopt;
    }
    return total;
  }

  // Small-kernel packing: small loop groups, in order, join the current pack while it can take them.
  void pack_small() {
    OpId pack = -1;
    std::vector<char> seen(g_.size(), 0);  // per representative: already considered
    for (OpId x : order_) {
      const OpId group = find(x);
      if (seen[group]) continue;  // each group once, at its first op in the order
      seen[group] = 1;
      if (!loop_group(group) || !small_bytes(group, rules_.horizontal_small_bytes)) continue;
      if (pack >= 0 && merge_horizontal(pack, group)) {
        pack = find(pack);
        seen[pack] = 1;
      } else {
        pack = group;
      }
    }
  }

  const FusionGraph& g_;
  const Producers& producers_;
  const Consumers& consumers_;
  const std::vector<OpId>& order_;
  const PlannerOptions& options_;
  const StrategyRules& rules_;
  GroupGraph groups_;
  std::optional<GroupStats> stats_;
  std::vector<OpId> heavy_;                // per representative: its heavy op, or -1
  std::vector<char> downstream_;           // per op: a reduction, or an epilogue member of its group
  std::vector<std::int32_t> movement_;     // per representative: movement ops in the group
  std::vector<std::uint32_t> reached_;     // per op: last search that reached it (all_upstream_of)
  std::uint32_t search_mark_ = 0;
  std::vector<OpId> scratch_;
  std::vector<std::vector<OpId>> members_;  // per representative
};

}  // namespace

Grouping form_strategy_groups(const FusionGraph& g, const Producers& producers, const Consumers& consumers,
                              const std::vector<OpId>& order, const PlannerOptions& options) {
  return StrategyGrouper(g, producers, consumers, order, options).run();
}

}  // namespace fusion::detail
