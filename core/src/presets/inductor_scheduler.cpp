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
//
// How it is computed (the same decisions, faster). Candidates: each buffer's accessor window lists the pairs
// that can_fuse does not refuse now, with the buffer's bytes; the entries of a pair found through several
// buffers are merged (vertical if any is), and their bytes add up to score_fusion_memory (recounted from
// the nodes' buffers when the pair may share a buffer with more accessors than one window pairs). The
// ranking is one sort on keys packed from (score, candidate order). A round after the first visits only
// the buffers of the nodes that changed. Cycle check: before the walk, a landmark index (LandmarkReach)
// looks for a proof of a cycle, a landmark op outside both nodes that one reaches and that reaches the
// other; a proven cycle is refused at once, as the walk would refuse it (it finds the cycle or runs out of
// steps, and neither changes the group graph). Cost per round: O(A + P log P + N) for A buffer accesses,
// P pairs and N scheduler nodes, plus the walks; the landmark index takes O(m·L/64) to build for L ≤ 1024
// landmarks, and O(L/64) per check or fusion.
#include <algorithm>
#include <span>
#include <string>

#include "detail/group_graph.h"
#include "fusion/strategy.h"
#include "presets/inductor_nodes.h"
#include "presets/landmark_reach.h"

namespace fusion::presets {
namespace {

constexpr std::size_t kPairwiseAttempts = 64;  // config.max_fusion_buffer_group_pairwise_attempts
constexpr int kMaxRounds = 10;
// Walk steps one fusion's cycle check may spend before the fusion is skipped (safe: never a cycle).
constexpr std::uint64_t kCycleStepBudget = 1024;
constexpr std::uint64_t kHorizontalStepBudget = 256;  // for two nodes that only share a read
constexpr std::uint64_t kPersistentReductionMax = 1024;  // rnumel up to which Triton reductions are persistent

struct Candidate {
  OpId a, b;              // fused nodes, a first in node order
  OpId a_order, b_order;  // their min_order when found: the candidate order
  std::uint64_t memory;   // score_fusion_memory
  std::uint32_t distance;  // minus the proximity
  bool same_kind;         // both or neither a reduction, with shared memory
  bool vertical;          // found through a buffer one of them writes (else: a shared read)
};

// score_fusion, highest first, then candidate order. (Shared memory needs no key of its own: without it,
// memory is 0 and same_kind false. Pairs are distinct, so vertical never decides.)
bool ranks_before(const Candidate& l, const Candidate& r) {
  if (l.same_kind != r.same_kind) return l.same_kind;
  if (l.memory != r.memory) return l.memory > r.memory;
  if (l.distance != r.distance) return l.distance < r.distance;
  if (l.a_order != r.a_order) return l.a_order < r.a_order;
  return l.b_order < r.b_order;
}

// A candidate in ranked order. When memory is below kPackedMemoryLimit, the order of ranks_before is that
// of (score_key, order_key), packed: score_key from (not same_kind, the limit minus memory, distance),
// order_key from (a_order, b_order, vertical). Else score_key is the position in a list sorted by
// ranks_before.
struct RankedPair {
  std::uint64_t score_key, order_key;
  OpId a, b;

  bool vertical() const { return (order_key & 1) != 0; }
};

constexpr std::uint64_t kPackedMemoryLimit = std::uint64_t{1} << 31;

RankedPair packed(const Candidate& c) {
  const std::uint64_t score =
      (std::uint64_t{!c.same_kind} << 63) | ((kPackedMemoryLimit - 1 - c.memory) << 32) | c.distance;
  const std::uint64_t order = (static_cast<std::uint64_t>(c.a_order) << 32) |
                              (static_cast<std::uint64_t>(c.b_order) << 1) | std::uint64_t{c.vertical};
  return {score, order, c.a, c.b};
}

// The candidates in ranked order. `list` comes in candidate order (a_order, b_order ascending), which a
// stable sort on the score alone keeps among equal scores.
std::vector<RankedPair> ranked(std::vector<Candidate>& list) {
  std::vector<RankedPair> out;
  out.reserve(list.size());
  const auto packable = [](const Candidate& c) { return c.memory < kPackedMemoryLimit; };
  if (std::all_of(list.begin(), list.end(), packable)) {
    for (const Candidate& c : list) out.push_back(packed(c));
    std::stable_sort(out.begin(), out.end(),
                     [](const RankedPair& l, const RankedPair& r) { return l.score_key < r.score_key; });
    return out;
  }
  std::sort(list.begin(), list.end(), ranks_before);
  for (std::size_t k = 0; k < list.size(); ++k)
    out.push_back({k, std::uint64_t{list[k].vertical}, list[k].a, list[k].b});
  return out;
}

struct FusedNode {
  IterationRange range;
  bool reduction = false;
  bool pointwise_only = true;
  OpId template_op = -1;
  std::int32_t nodes = 1;
  std::int32_t region = 0;  // numbered
  bool shares_crowded_buffer = false;  // accesses a buffer with more fusible accessors than one pairs
  OpId min_order = 0, max_order = 0;
};

// Per op, the fused nodes (representatives) whose kernels compute it: rows by offsets, the first count[x]
// entries of row x, ascending and distinct.
struct Holders {
  std::vector<std::size_t> offsets;
  std::vector<OpId> reps;
  std::vector<std::uint32_t> count;

  std::span<const OpId> of(OpId x) const {
    return {reps.data() + offsets[static_cast<std::size_t>(x)], count[static_cast<std::size_t>(x)]};
  }
};

class Scheduler {
 public:
  Scheduler(const PresetInput& in, SchedulerGraph s)
      : in_(in),
        s_(std::move(s)),
        consumers_(detail::build_consumers(s_.graph)),
        order_(ids(s_.graph.size())),
        groups_(s_.graph, consumers_, order_),
        reach_(s_.graph, consumers_),
        max_nodes_(in.options.rules.max_group_ops) {
    const std::size_t n = s_.graph.size();
    fused_.resize(n);
    changed_.assign(n, 0);
    fusible_.resize(n);
    members_.resize(n);
    buffer_mark_.assign(n, 0);
    own_buffer_offsets_.reserve(n + 1);
    own_buffer_offsets_.assign(1, 0);
    own_buffers_.reserve(n + consumers_.ids.size());
    for (std::size_t x = 0; x < n; ++x) {
      const FusionOp& op = s_.graph.op(static_cast<OpId>(x));
      fusible_[x] = !s_.is_source(static_cast<OpId>(x)) && s_.node[x] != InductorNode::own_kernel;
      FusedNode& f = fused_[x];
      const InductorNode kind = s_.node[x];
      f.range = s_.range[x];
      f.reduction = kind == InductorNode::reduction;
      f.pointwise_only = pointwise_only(kind);
      if (kind == InductorNode::template_kernel) f.template_op = static_cast<OpId>(x);
      f.min_order = f.max_order = static_cast<OpId>(x);
      f.region = s_.op_region[s_.original[x]];
      add_own_buffers(static_cast<OpId>(x), op.inputs);
    }
    mark_crowded_buffer_accessors();
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

  // (Inputs are ascending, and scheduler ids are topological: all below x.)
  void add_own_buffers(OpId x, const std::vector<OpId>& inputs) {
    own_buffers_.insert(own_buffers_.end(), inputs.begin(), inputs.end());
    own_buffers_.push_back(x);
    own_buffer_offsets_.push_back(own_buffers_.size());
  }

  // A crowded buffer has more fusible accessors than candidates() pairs (1 + kPairwiseAttempts), so two
  // nodes sharing it may not be paired through it; merge_entries cannot count it for them.
  void mark_crowded_buffer_accessors() {
    for (std::size_t x = 0; x < s_.graph.size(); ++x) {
      const auto buffer = static_cast<OpId>(x);
      std::size_t accessors = fusible_[x];
      for (auto c = consumers_.begin(buffer); c != consumers_.end(buffer); ++c) accessors += fusible_[*c];
      if (accessors <= kPairwiseAttempts + 1) continue;
      fused_[x].shares_crowded_buffer = true;
      for (auto c = consumers_.begin(buffer); c != consumers_.end(buffer); ++c)
        fused_[*c].shares_crowded_buffer = true;
    }
  }

  // An unfused node's buffers: what it reads and its own, ascending.
  std::span<const OpId> own_buffers(OpId node) const {
    return std::span<const OpId>(own_buffers_)
        .subspan(own_buffer_offsets_[node], own_buffer_offsets_[node + 1] - own_buffer_offsets_[node]);
  }

  // The scheduler nodes of a fused node (representative). (order_ is the identity: order_[x] is x.)
  std::span<const OpId> members(OpId rep) const {
    if (fused_[rep].nodes > 1) return members_[rep];
    return std::span<const OpId>(order_).subspan(static_cast<std::size_t>(rep), 1);
  }

  // Calls visit(buffer) once for each buffer a fused node writes or reads. Marks buffer_mark_ with mark.
  template <class Visit>
  void for_each_buffer(OpId rep, std::uint32_t mark, const Visit& visit) {
    for (OpId node : members(rep))
      for (OpId buffer : own_buffers(node))
        if (buffer_mark_[buffer] != mark) buffer_mark_[buffer] = mark, visit(buffer);
  }

  std::uint32_t next_mark() {
    if (++mark_ == 0) {  // wrapped around: clear old marks
      std::fill(buffer_mark_.begin(), buffer_mark_.end(), 0);
      mark_ = 1;
    }
    return mark_;
  }

  bool fusible(OpId rep) const { return fusible_[rep] != 0; }

  // score_fusion_memory: the bytes of the buffers both fused nodes access.
  std::uint64_t memory_score(OpId a, OpId b) {
    const std::uint32_t in_a = next_mark();
    for_each_buffer(a, in_a, [](OpId) {});
    std::uint64_t total = 0;
    const std::uint32_t in_b = next_mark();
    for (OpId node : members(b))
      for (OpId buffer : own_buffers(node)) {
        if (buffer_mark_[buffer] == in_b) continue;
        if (buffer_mark_[buffer] == in_a) total += s_.bytes[buffer];
        buffer_mark_[buffer] = in_b;
      }
    return total;
  }

  // A fused node as its place in node order (min_order, distinct among fused nodes) and representative.
  struct Accessor {
    OpId order, rep;
    auto operator<=>(const Accessor&) const = default;
  };

  // The fused nodes that write or read a buffer, in node order.
  void list_accessors(OpId buffer, std::vector<Accessor>& accessors) {
    accessors.clear();
    const auto add = [&](OpId node) {
      const OpId rep = groups_.find(node);
      accessors.push_back({fused_[rep].min_order, rep});
    };
    if (fusible(buffer)) add(buffer);
    for (auto c = consumers_.begin(buffer); c != consumers_.end(buffer); ++c)
      if (fusible(*c)) add(*c);
    const bool ascending =
        std::adjacent_find(accessors.begin(), accessors.end(), std::greater_equal<>()) == accessors.end();
    if (ascending) return;  // (as unfused nodes are: ids ascend)
    std::sort(accessors.begin(), accessors.end());
    accessors.erase(std::unique(accessors.begin(), accessors.end()), accessors.end());
  }

  // The pairs one buffer offers this round that can_fuse does not refuse now (a later round tries a refused
  // pair again if either node changes), each with this buffer's bytes as its memory so far.
  void add_pairs(OpId buffer, std::vector<Candidate>& out) {
    list_accessors(buffer, accessors_);
    const OpId writer = fusible(buffer) ? groups_.find(buffer) : -1;
    for (std::size_t i = 0; i < accessors_.size(); ++i)
      for (std::size_t j = i + 1; j < accessors_.size() && j <= i + kPairwiseAttempts; ++j) {
        const auto [a_order, a] = accessors_[i];
        const auto [b_order, b] = accessors_[j];
        if (changed_[a] != round_ && changed_[b] != round_) continue;
        if (!can_fuse(a, b)) continue;
        out.push_back({a, b, a_order, b_order, s_.bytes[buffer], 0, false, a == writer || b == writer});
      }
  }

  // Merges the entries of each pair found through several buffers, in place: one entry, vertical if any was,
  // with the bytes of all shared buffers. Those add up to it unless a shared buffer has so many accessors
  // that it did not pair these two; then score() counts anew. Leaves them in candidate order: by a_order (a
  // counting sort), then b_order.
  void merge_entries(std::vector<Candidate>& entries) {
    first_of_node_.assign(s_.graph.size() + 1, 0);
    for (const Candidate& c : entries) ++first_of_node_[static_cast<std::size_t>(c.a_order) + 1];
    for (std::size_t x = 0; x < s_.graph.size(); ++x) first_of_node_[x + 1] += first_of_node_[x];
    by_node_.resize(entries.size());
    for (const Candidate& c : entries) by_node_[first_of_node_[c.a_order]++] = c;  // (ends as x + 1's first)
    std::vector<Candidate>& out = entries;
    out.clear();
    for (auto run = by_node_.begin(); run != by_node_.end();) {
      const auto end = std::find_if(run, by_node_.end(), [&](const Candidate& c) { return c.a != run->a; });
      std::sort(run, end, [](const Candidate& l, const Candidate& r) { return l.b_order < r.b_order; });
      for (auto c = run; c != end; ++c) {
        if (c != run && c->b == out.back().b) {
          out.back().memory += c->memory;
          out.back().vertical = out.back().vertical || c->vertical;
        } else {
          out.push_back(*c);
        }
      }
      run = end;
    }
  }

  // The buffers whose accessors may offer a new pair: those of the nodes that changed in the round before
  // (all in the first round; all, too, when most nodes changed: listing them would cost more than it saves).
  std::vector<OpId> buffers_to_visit() {
    std::vector<OpId> changed;
    for (OpId rep : changed_last_round_)
      if (groups_.find(rep) == rep) changed.push_back(rep);  // (else merged again later: its new node is too)
    std::sort(changed.begin(), changed.end());
    changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
    std::size_t changed_nodes = 0;
    for (OpId rep : changed) changed_nodes += static_cast<std::size_t>(fused_[rep].nodes);
    if (round_ == 0 || 2 * changed_nodes >= s_.graph.size()) return ids(s_.graph.size());
    std::vector<OpId> out;
    const std::uint32_t visited = next_mark();
    for (OpId rep : changed) for_each_buffer(rep, visited, [&](OpId buffer) { out.push_back(buffer); });
    return out;
  }

  void score(Candidate& c) {
    const FusedNode& x = fused_[c.a];
    const FusedNode& y = fused_[c.b];
    if (x.shares_crowded_buffer || y.shares_crowded_buffer) c.memory = memory_score(c.a, c.b);
    c.same_kind = c.memory > 0 && x.reduction == y.reduction;
    c.distance = static_cast<std::uint32_t>(std::max(std::abs(std::int64_t{x.min_order} - y.max_order),
                                                     std::abs(std::int64_t{y.min_order} - x.max_order)));
  }

  std::vector<RankedPair> candidates() {
    std::vector<Candidate> entries;
    entries.reserve(last_entry_count_);
    for (OpId buffer : buffers_to_visit()) add_pairs(buffer, entries);
    last_entry_count_ = entries.size();
    merge_entries(entries);
    for (Candidate& c : entries) score(c);
    return ranked(entries);
  }

  // One round. Pairs of fused nodes that both came through the last round unchanged are not tried again:
  // the same checks would refuse them again (a cycle through a third node stays a cycle when that node merges).
  bool fuse_once() {
    const std::vector<RankedPair> list = candidates();
    ++round_;
    changed_last_round_.clear();
    for (const RankedPair& c : list) {
      OpId a = groups_.find(c.a), b = groups_.find(c.b);
      if (a == b || !can_fuse(a, b)) continue;
      if (groups_.order_label(a) > groups_.order_label(b)) std::swap(a, b);
      if (reach_.proves_path(a, b, groups_)) continue;  // a cycle: the walk would refuse it too
      if (!groups_.merge_if_acyclic(a, b, c.vertical() ? kCycleStepBudget : kHorizontalStepBudget)) continue;
      const OpId into = groups_.find(a);
      absorb(into, a == into ? b : a);
      changed_[into] = round_;
      changed_last_round_.push_back(into);
    }
    return !changed_last_round_.empty();
  }

  // The simd.py range rule for two fused nodes (see the header).
  static bool ranges_fit(const FusedNode& x, const FusedNode& y) {
    if (x.reduction && y.reduction) return x.range == y.range;
    if (!x.reduction && !y.reduction) return x.range.numel == y.range.numel;
    const FusedNode& r = x.reduction ? x : y;
    const FusedNode& p = x.reduction ? y : x;
    return r.range.takes(p.range.numel);
  }

  // Does a fused node (representative) read a buffer?
  bool reads(OpId rep, OpId buffer) {
    for (auto c = consumers_.begin(buffer); c != consumers_.end(buffer); ++c)
      if (groups_.find(*c) == rep) return true;
    return false;
  }

  // A template takes pointwise epilogue nodes of its numel that read it, and no producers.
  bool template_fits(OpId t, OpId other) {
    const FusedNode& x = fused_[t];
    const FusedNode& y = fused_[other];
    if (y.template_op >= 0 || !y.pointwise_only || y.range.numel != x.range.numel) return false;
    if (!reads(other, x.template_op)) return false;
    for (OpId in : s_.graph.op(x.template_op).inputs)
      if (groups_.find(in) == other) return false;
    return true;
  }

  // refusal(a, b) == EdgeReason::none, the checks reordered: the most selective first.
  bool can_fuse(OpId a, OpId b) {
    const FusedNode& x = fused_[a];
    const FusedNode& y = fused_[b];
    if (!ranges_fit(x, y) || x.region != y.region || !fusible(a) || !fusible(b)) return false;
    if (max_nodes_ > 0 && std::int64_t{x.nodes} + y.nodes > max_nodes_) return false;
    return (x.template_op < 0 || template_fits(a, b)) && (y.template_op < 0 || template_fits(b, a));
  }

  // Why can_fuse refuses the two fused nodes, or none (the cycle check comes after).
  EdgeReason refusal(OpId a, OpId b) {
    if (!fusible(a)) return EdgeReason::barrier_producer;
    if (!fusible(b)) return EdgeReason::barrier_consumer;
    if (fused_[a].region != fused_[b].region) return EdgeReason::region;
    if (max_nodes_ > 0 && std::int64_t{fused_[a].nodes} + fused_[b].nodes > max_nodes_)
      return EdgeReason::limit;
    if (fused_[a].template_op >= 0 && !template_fits(a, b)) return EdgeReason::barrier_producer;
    if (fused_[b].template_op >= 0 && !template_fits(b, a)) return EdgeReason::barrier_producer;
    if (!ranges_fit(fused_[a], fused_[b])) return EdgeReason::range;
    return EdgeReason::none;  // (candidates share a buffer by construction, so they share memory)
  }

  void absorb(OpId into, OpId from) {
    add_members(into, from);
    FusedNode& x = fused_[into];
    const FusedNode& y = fused_[from];
    if (y.reduction && !x.reduction) x.range = y.range;
    x.reduction = x.reduction || y.reduction;
    x.pointwise_only = x.pointwise_only && y.pointwise_only;
    if (x.template_op < 0) x.template_op = y.template_op;
    x.nodes += y.nodes;
    x.shares_crowded_buffer = x.shares_crowded_buffer || y.shares_crowded_buffer;
    x.min_order = std::min(x.min_order, y.min_order);
    x.max_order = std::max(x.max_order, y.max_order);
    reach_.absorb(into, from);
  }

  // Appends from's members to into's (the shorter list to the longer one).
  void add_members(OpId into, OpId from) {
    std::vector<OpId>& list = members_[into];
    std::vector<OpId>& joining = members_[from];
    if (fused_[into].nodes == 1) list.assign(1, into);
    if (fused_[from].nodes == 1) {
      list.push_back(from);
      return;
    }
    if (list.size() < joining.size()) list.swap(joining);
    list.insert(list.end(), joining.begin(), joining.end());
    std::vector<OpId>().swap(joining);
  }

  Holders holders();
  detail::Grouping result();
  std::string describe(OpId rep, std::size_t reductions, std::size_t inlined) const;

  const PresetInput& in_;
  SchedulerGraph s_;
  detail::Consumers consumers_;
  std::vector<OpId> order_;
  detail::GroupGraph groups_;
  LandmarkReach reach_;
  std::int64_t max_nodes_;
  std::vector<FusedNode> fused_;  // per representative (scheduler id)
  std::vector<std::int32_t> changed_;  // per representative: the last round that fused it (0: the start)
  std::vector<OpId> changed_last_round_;  // representatives fused in the last round (some merged again later)
  std::int32_t round_ = 0;
  std::vector<char> fusible_;          // per scheduler node: neither a source nor an own kernel
  std::size_t last_entry_count_ = 0;
  std::vector<std::size_t> first_of_node_;  // scratch of merge_entries
  std::vector<Candidate> by_node_;           // scratch of merge_entries
  std::vector<std::vector<OpId>> members_;  // per representative, once fused: its scheduler nodes
  std::vector<std::uint32_t> buffer_mark_;  // per buffer: the last mark that saw it (see next_mark)
  std::uint32_t mark_ = 0;
  std::vector<OpId> own_buffers_;      // per scheduler node, rows by own_buffer_offsets_: its buffers unfused
  std::vector<std::size_t> own_buffer_offsets_;
  std::vector<Accessor> accessors_;    // scratch
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

// Which final groups (by scheduler representative) compute each op: a row per op, ascending and distinct.
Holders Scheduler::holders() {
  const std::size_t n = in_.graph.size();
  Holders out;
  out.offsets.assign(n + 1, 0);
  out.count.assign(n, 0);
  for (std::size_t id = 0; id < s_.graph.size(); ++id)
    if (!s_.is_source(static_cast<OpId>(id)))
      for (OpId x : s_.closure(static_cast<OpId>(id))) ++out.offsets[static_cast<std::size_t>(x) + 1];
  for (std::size_t x = 0; x < n; ++x) out.offsets[x + 1] += out.offsets[x];
  out.reps.resize(out.offsets[n]);
  for (std::size_t id = 0; id < s_.graph.size(); ++id) {
    if (s_.is_source(static_cast<OpId>(id))) continue;
    const OpId rep = groups_.find(static_cast<OpId>(id));
    for (OpId x : s_.closure(static_cast<OpId>(id))) out.reps[out.offsets[x] + out.count[x]++] = rep;
  }
  for (std::size_t x = 0; x < n; ++x) {
    const auto row = out.reps.begin() + static_cast<std::ptrdiff_t>(out.offsets[x]);
    std::sort(row, row + out.count[x]);
    out.count[x] = static_cast<std::uint32_t>(std::unique(row, row + out.count[x]) - row);
  }
  return out;
}

detail::Grouping Scheduler::result() {
  const std::size_t n = in_.graph.size();
  detail::Grouping out;
  out.representative.assign(n, -1);
  for (std::size_t id = 0; id < s_.graph.size(); ++id)
    if (s_.is_source(static_cast<OpId>(id))) out.representative[s_.original[id]] = s_.original[id];
  const Holders holders = this->holders();
  std::vector<std::size_t> ops(s_.graph.size(), 0), inlined(s_.graph.size(), 0), reductions(s_.graph.size(), 0);
  for (std::size_t id = 0; id < s_.graph.size(); ++id)
    if (s_.node[id] == InductorNode::reduction) ++reductions[groups_.find(static_cast<OpId>(id))];
  for (std::size_t x = 0; x < n; ++x) {
    const std::span<const OpId> list = holders.of(static_cast<OpId>(x));
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
    if (holders.of(static_cast<OpId>(v)).empty()) continue;
    const OpId group = holders.of(static_cast<OpId>(v)).front();
    for (auto k = in_.producers.offsets[v]; k < in_.producers.offsets[v + 1]; ++k) {
      const OpId u = in_.producers.ids[static_cast<std::size_t>(k)];
      const std::span<const OpId> computing_u = holders.of(u);
      if (std::binary_search(computing_u.begin(), computing_u.end(), group)) continue;
      EdgeReason& reason = out.reasons[static_cast<std::size_t>(k)];
      const OpId from = s_.scheduler_id[u] >= 0 ? groups_.find(s_.scheduler_id[u]) : -1;
      if (in_.producers.count(u) == 0) reason = EdgeReason::source;  // (a source has no inputs)
      else if (s_.op_region[u] != s_.op_region[v]) reason = EdgeReason::region;
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
