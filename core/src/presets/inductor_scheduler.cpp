// inductor_scheduler.cpp — the `inductor` strategy: TorchInductor's Scheduler.fuse_nodes
// (pytorch/pytorch torch/_inductor/scheduler.py) over the scheduler graph of inductor_nodes.h.
//
// Rounds (at most 10, until one fuses nothing), each as fuse_nodes_once (after the first, only pairs with a
// fused node that changed in the round before; the others would be refused again):
//  1. Candidates (get_possible_fusions): for every buffer, the fused nodes that write or read it, in node
//     order; each is paired with the next 64 (max_fusion_buffer_group_pairwise_attempts).
//  2. Ranked by score_fusion, highest first: shared memory > 0, both or neither a reduction (with shared
//     memory), the bytes of the buffers both access (score_fusion_memory), then proximity (minus the
//     larger distance between the two nodes' order ranges). Ties keep the candidate order.
//  3. Each pair, as the fused nodes it now belongs to, is fused when can_fuse holds and the fusion makes
//     no cycle (will_fusion_create_cycle; the exact check of detail/group_graph.h, which gives up after 1024
//     steps, or 256 for two nodes that only share a read, and then skips the fusion):
//     - neither is an extern or own kernel; same region; at most max_group_ops scheduler nodes together
//       (max_fusion_size); they share memory (no aggressive_fusion);
//     - iteration ranges (codegen/simd.py can_fuse): two reductions need equal (numel, rnumel); two
//       pointwise nodes equal numel; a pointwise node joins a reduction of (n, r) when its numel is n·r or n;
//     - a template (rules.epilogue) takes pointwise epilogue nodes of its numel that read it, nothing else.
// Groups are the union of their nodes' closures: an inlined op in the closures of two or more final
// kernels is a copy in each of them (Inductor recomputes inlined expressions). Unfused edges get: source,
// region, barrier_producer / barrier_consumer (extern, template or own-kernel ends), range, limit, or cycle.
#include <algorithm>
#include <string>
#include <unordered_set>

#include "detail/group_graph.h"
#include "fusion/strategy.h"
#include "presets/inductor_nodes.h"

namespace fusion::presets {
namespace {

constexpr std::size_t kPairwiseAttempts = 64;  // config.max_fusion_buffer_group_pairwise_attempts
constexpr int kMaxRounds = 10;
// Walk steps one fusion's cycle check may spend before the fusion is skipped (safe: never a cycle).
constexpr std::uint64_t kCycleStepBudget = 1024;
constexpr std::uint64_t kHorizontalStepBudget = 256;  // for two nodes that only share a read
constexpr std::uint64_t kPersistentReductionMax = 1024;  // rnumel up to which Triton reductions are persistent

struct Candidate {
  OpId a, b;
  bool shared, same_kind;
  std::uint64_t memory;
  std::int64_t proximity;
  bool vertical;  // found through a buffer one of them writes (else: a shared read)
};

struct FusedNode {
  IterationRange range;
  bool reduction = false;
  bool pointwise_only = true;
  OpId template_op = -1;
  std::int64_t nodes = 1;
  OpId min_order = 0, max_order = 0;
  std::unordered_set<OpId> buffers;  // scheduler ids written or read
};

class Scheduler {
 public:
  Scheduler(const PresetInput& in, SchedulerGraph s)
      : in_(in), s_(std::move(s)), consumers_(detail::build_consumers(s_.graph)), order_(ids(s_.graph.size())),
        groups_(s_.graph, consumers_, order_), max_nodes_(in.options.rules.max_group_ops) {
    const std::size_t n = s_.graph.size();
    fused_.resize(n);
    changed_.assign(n, 0);
    bytes_.resize(n);
    for (std::size_t x = 0; x < n; ++x)
      bytes_[x] = tensor_bytes(s_.graph.op(static_cast<OpId>(x)).shape, s_.graph.op(static_cast<OpId>(x)).dtype_bytes)
                      .value_or(0);
    for (std::size_t x = 0; x < n; ++x) {
      FusedNode& f = fused_[x];
      const InductorNode kind = s_.node[x];
      f.range = s_.range[x];
      f.reduction = kind == InductorNode::reduction;
      f.pointwise_only = kind == InductorNode::pointwise || kind == InductorNode::concat_kernel;
      if (kind == InductorNode::template_kernel) f.template_op = static_cast<OpId>(x);
      f.min_order = f.max_order = static_cast<OpId>(x);
      f.buffers.insert(static_cast<OpId>(x));
      for (OpId in : s_.graph.op(static_cast<OpId>(x)).inputs) f.buffers.insert(in);
    }
  }

  detail::Grouping run() {
    for (int round = 0; round < kMaxRounds; ++round)
      if (!fuse_once()) break;
    return result();
  }

 private:
  static std::vector<OpId> ids(std::size_t n) {
    std::vector<OpId> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<OpId>(i);
    return out;
  }

  bool fusible(OpId rep) const {
    const InductorNode kind = s_.node[rep];
    return !s_.graph.op(rep).is_source() && kind != InductorNode::own_kernel;
  }

  std::uint64_t bytes(OpId buffer) const { return bytes_[buffer]; }

  std::uint64_t memory_score(OpId a, OpId b) const {
    const auto& x = fused_[a].buffers;
    const auto& y = fused_[b].buffers;
    const auto& small = x.size() <= y.size() ? x : y;
    const auto& large = x.size() <= y.size() ? y : x;
    std::uint64_t total = 0;
    for (OpId buffer : small)
      if (large.count(buffer)) total += bytes(buffer);
    return total;
  }

  std::vector<Candidate> candidates() {
    struct Pair {
      OpId a, b;
      bool vertical;  // one of them writes the shared buffer
    };
    std::vector<Pair> pairs;
    std::vector<OpId> accessors;
    for (std::size_t b = 0; b < s_.graph.size(); ++b) {
      accessors.clear();
      const OpId writer = fusible(static_cast<OpId>(b)) ? groups_.find(static_cast<OpId>(b)) : -1;
      if (writer >= 0) accessors.push_back(writer);
      for (auto c = consumers_.begin(static_cast<OpId>(b)); c != consumers_.end(static_cast<OpId>(b)); ++c)
        if (fusible(*c)) accessors.push_back(groups_.find(*c));
      std::sort(accessors.begin(), accessors.end(),
                [&](OpId l, OpId r) { return fused_[l].min_order < fused_[r].min_order; });
      accessors.erase(std::unique(accessors.begin(), accessors.end()), accessors.end());
      for (std::size_t i = 0; i < accessors.size(); ++i)
        for (std::size_t j = i + 1; j < accessors.size() && j <= i + kPairwiseAttempts; ++j)
          if (changed_[accessors[i]] == round_ || changed_[accessors[j]] == round_)
            pairs.push_back({accessors[i], accessors[j], accessors[i] == writer || accessors[j] == writer});
    }
    std::sort(pairs.begin(), pairs.end(), [&](const Pair& l, const Pair& r) {
      return std::tuple(fused_[l.a].min_order, fused_[l.b].min_order, !l.vertical) <
             std::tuple(fused_[r.a].min_order, fused_[r.b].min_order, !r.vertical);
    });  // a pair found both ways keeps its vertical entry
    pairs.erase(std::unique(pairs.begin(), pairs.end(), [](const Pair& l, const Pair& r) { return l.a == r.a && l.b == r.b; }),
                pairs.end());
    std::vector<Candidate> out;
    out.reserve(pairs.size());
    for (const auto& [a, b, vertical] : pairs) {
      if (refusal(a, b) != EdgeReason::none) continue;  // refused now; a later round tries it again if either changes
      const std::uint64_t memory = memory_score(a, b);
      const FusedNode& x = fused_[a];
      const FusedNode& y = fused_[b];
      const std::int64_t proximity = -std::max(std::abs(std::int64_t{x.min_order} - y.max_order),
                                               std::abs(std::int64_t{y.min_order} - x.max_order));
      out.push_back({a, b, memory > 0, memory > 0 && x.reduction == y.reduction, memory, proximity, vertical});
    }
    std::stable_sort(out.begin(), out.end(), [](const Candidate& l, const Candidate& r) {
      return std::tuple(l.shared, l.same_kind, l.memory, l.proximity) >
             std::tuple(r.shared, r.same_kind, r.memory, r.proximity);
    });
    return out;
  }

  // One round. Pairs of fused nodes that both came through the last round unchanged are not tried again:
  // the same checks would refuse them again (a cycle through a third node stays a cycle when that node merges).
  bool fuse_once() {
    const std::vector<Candidate> list = candidates();
    ++round_;
    bool changed = false;
    for (const Candidate& c : list) {
      OpId a = groups_.find(c.a), b = groups_.find(c.b);
      if (a == b || refusal(a, b) != EdgeReason::none) continue;
      if (groups_.order_label(a) > groups_.order_label(b)) std::swap(a, b);
      if (!groups_.merge_if_acyclic(a, b, c.vertical ? kCycleStepBudget : kHorizontalStepBudget)) continue;
      const OpId into = groups_.find(a);
      absorb(into, a == into ? b : a);
      changed_[into] = round_;
      changed = true;
    }
    return changed;
  }

  // The simd.py range rule for two fused nodes (see the header).
  static bool ranges_fit(const FusedNode& x, const FusedNode& y) {
    if (x.reduction && y.reduction) return x.range == y.range;
    if (!x.reduction && !y.reduction) return x.range.numel == y.range.numel;
    const FusedNode& r = x.reduction ? x : y;
    const FusedNode& p = x.reduction ? y : x;
    return p.range.numel == r.range.numel * r.range.rnumel || p.range.numel == r.range.numel;
  }

  // A template takes pointwise epilogue nodes of its numel that read it, and no producers.
  bool template_fits(OpId t, OpId other) {
    const FusedNode& x = fused_[t];
    const FusedNode& y = fused_[other];
    if (y.template_op >= 0 || !y.pointwise_only || y.range.numel != x.range.numel) return false;
    if (!y.buffers.count(x.template_op)) return false;
    for (OpId in : s_.graph.op(x.template_op).inputs)
      if (groups_.find(in) == other) return false;
    return true;
  }

  // Why can_fuse refuses the two fused nodes, or none (the cycle check comes after).
  EdgeReason refusal(OpId a, OpId b) {
    if (!fusible(a)) return EdgeReason::barrier_producer;
    if (!fusible(b)) return EdgeReason::barrier_consumer;
    if (s_.graph.op(a).region != s_.graph.op(b).region) return EdgeReason::region;
    if (max_nodes_ > 0 && fused_[a].nodes + fused_[b].nodes > max_nodes_) return EdgeReason::limit;
    if (fused_[a].template_op >= 0 && !template_fits(a, b)) return EdgeReason::barrier_producer;
    if (fused_[b].template_op >= 0 && !template_fits(b, a)) return EdgeReason::barrier_producer;
    if (!ranges_fit(fused_[a], fused_[b])) return EdgeReason::range;
    return EdgeReason::none;  // (candidates share a buffer by construction, so they share memory)
  }

  void absorb(OpId into, OpId from) {
    FusedNode& x = fused_[into];
    FusedNode& y = fused_[from];
    if (y.reduction && !x.reduction) x.range = y.range;
    x.reduction = x.reduction || y.reduction;
    x.pointwise_only = x.pointwise_only && y.pointwise_only;
    if (x.template_op < 0) x.template_op = y.template_op;
    x.nodes += y.nodes;
    x.min_order = std::min(x.min_order, y.min_order);
    x.max_order = std::max(x.max_order, y.max_order);
    if (x.buffers.size() < y.buffers.size()) std::swap(x.buffers, y.buffers);
    x.buffers.insert(y.buffers.begin(), y.buffers.end());
    std::unordered_set<OpId>().swap(y.buffers);
  }

  detail::Grouping result();
  std::string describe(OpId rep, std::size_t reductions, std::size_t inlined) const;

  const PresetInput& in_;
  SchedulerGraph s_;
  detail::Consumers consumers_;
  std::vector<OpId> order_;
  detail::GroupGraph groups_;
  std::int64_t max_nodes_;
  std::vector<FusedNode> fused_;  // per representative (scheduler id)
  std::vector<std::int32_t> changed_;  // per representative: the last round that fused it (0: the start)
  std::int32_t round_ = 0;
  std::vector<std::uint64_t> bytes_;   // per scheduler node: its buffer's bytes
};

std::string Scheduler::describe(OpId rep, std::size_t reductions, std::size_t inlined) const {
  const FusedNode& f = fused_[rep];
  std::string text;
  if (f.template_op >= 0)
    text = "template epilogue: " + std::string(to_string(s_.graph.op(f.template_op).kind)) + " with pointwise nodes";
  else if (f.reduction)
    text = std::string(f.range.rnumel <= kPersistentReductionMax ? "persistent" : "looped") + " reduction over " +
           std::to_string(f.range.numel) + "×" + std::to_string(f.range.rnumel) + ": " + std::to_string(reductions) +
           (reductions == 1 ? " reduction" : " reductions");
  else
    text = "pointwise kernel over " + std::to_string(f.range.numel) + " elements";
  text += ", " + std::to_string(f.nodes) + (f.nodes == 1 ? " node" : " nodes") + " fused";
  if (inlined > 0) text += ", " + std::to_string(inlined) + " inlined";
  return text;
}

detail::Grouping Scheduler::result() {
  const std::size_t n = in_.graph.size();
  detail::Grouping out;
  out.representative.assign(n, -1);
  // Which final groups (by scheduler representative) compute each op.
  std::vector<std::vector<OpId>> holders(n);
  for (std::size_t id = 0; id < s_.graph.size(); ++id) {
    const OpId rep = groups_.find(static_cast<OpId>(id));
    if (s_.graph.op(static_cast<OpId>(id)).is_source()) {
      out.representative[s_.original[id]] = s_.original[id];
      continue;
    }
    for (OpId x : s_.closure[id]) holders[x].push_back(rep);
  }
  std::vector<std::size_t> ops(s_.graph.size(), 0), inlined(s_.graph.size(), 0), reductions(s_.graph.size(), 0);
  for (std::size_t id = 0; id < s_.graph.size(); ++id)
    if (s_.node[id] == InductorNode::reduction) ++reductions[groups_.find(static_cast<OpId>(id))];
  for (std::size_t x = 0; x < n; ++x) {
    auto& list = holders[x];
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    for (OpId rep : list) {
      ++ops[rep];
      if (s_.scheduler_id[x] < 0) ++inlined[rep];
    }
    if (list.size() == 1) out.representative[x] = s_.original[list.front()];
    if (list.size() > 1)
      for (OpId rep : list) out.copies.emplace_back(static_cast<OpId>(x), s_.original[rep]);
  }
  out.reasons.assign(in_.producers.ids.size(), EdgeReason::none);
  for (std::size_t v = 0; v < n; ++v) {
    if (holders[v].empty()) continue;
    const OpId group = holders[v].front();
    for (auto k = in_.producers.offsets[v]; k < in_.producers.offsets[v + 1]; ++k) {
      const OpId u = in_.producers.ids[static_cast<std::size_t>(k)];
      if (std::binary_search(holders[u].begin(), holders[u].end(), group)) continue;
      EdgeReason& reason = out.reasons[static_cast<std::size_t>(k)];
      const OpId from = s_.scheduler_id[u] >= 0 ? groups_.find(s_.scheduler_id[u]) : -1;
      if (in_.graph.op(u).is_source()) reason = EdgeReason::source;
      else if (in_.graph.op(u).region != in_.graph.op(static_cast<OpId>(v)).region) reason = EdgeReason::region;
      else if (from < 0) reason = EdgeReason::cycle;
      else if (const EdgeReason r = refusal(from, group); r != EdgeReason::none) reason = r;
      else reason = EdgeReason::cycle;
    }
  }
  for (std::size_t id = 0; id < s_.graph.size(); ++id)
    if (groups_.find(static_cast<OpId>(id)) == static_cast<OpId>(id) && ops[id] >= 2)
      out.rules.emplace_back(s_.original[id], describe(static_cast<OpId>(id), reductions[id], inlined[id]));
  return out;
}

}  // namespace

detail::Grouping form_inductor_groups(const PresetInput& in) { return Scheduler(in, lower_for_inductor(in)).run(); }

}  // namespace fusion::presets
