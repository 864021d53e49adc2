// xla_priority_fusion.cpp — the priority queue of xla_priority_fusion.h.
#include "presets/xla_priority_fusion.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <utility>

#include "detail/saturating.h"
#include "fusion/hardware.h"
#include "fusion/time_model.h"
#include "presets/xla_kinds.h"

namespace fusion::presets {
namespace {

constexpr std::size_t kMaxConsumers = 64;

// A max-heap of ops by key, one entry per op, with its position kept so that a key can change in place.
// Keys live in the heap's own array, next to their op, for locality: 16-byte records, 4-byte positions.
class IndexedHeap {
 public:
  struct Key {
    double priority;
    std::int32_t rank;  // minus the op's place in the order: ties go to the earlier op
  };
  explicit IndexedHeap(std::size_t n) : at_(n, -1) {}

  bool empty() const { return items_.empty(); }
  bool contains(OpId x) const { return at_[x] >= 0; }
  OpId top() const { return items_.front().op; }

  // While building, set() only appends; ending the build orders everything at once.
  void reserve_build(bool on) {
    building_ = on;
    if (!on)
      for (std::size_t i = items_.size() / 2; i-- > 0;) down(i);
  }

  void set(OpId x, Key key) {
    if (at_[x] < 0) {
      at_[x] = static_cast<std::int32_t>(items_.size());
      items_.push_back({key, x});
    } else {
      items_[static_cast<std::size_t>(at_[x])].key = key;
    }
    if (building_) return;
    up(static_cast<std::size_t>(at_[x]));
    down(static_cast<std::size_t>(at_[x]));
  }

  void erase(OpId x) {
    if (at_[x] < 0) return;
    const std::size_t i = static_cast<std::size_t>(at_[x]);
    const Item last = items_.back();
    items_.pop_back();
    at_[x] = -1;
    if (i < items_.size()) {
      place(i, last);
      up(i);
      down(static_cast<std::size_t>(at_[last.op]));
    }
  }

 private:
  struct Item {
    Key key;
    OpId op;
  };
  // The order of (priority, rank) pairs: a before b when b is larger.
  static bool above(const Key& a, const Key& b) {
    return b.priority < a.priority || (!(a.priority < b.priority) && b.rank < a.rank);
  }
  void place(std::size_t i, const Item& item) {
    items_[i] = item;
    at_[item.op] = static_cast<std::int32_t>(i);
  }
  void up(std::size_t i) {
    const Item x = items_[i];
    while (i > 0 && above(x.key, items_[(i - 1) / 2].key)) {
      place(i, items_[(i - 1) / 2]);
      i = (i - 1) / 2;
    }
    place(i, x);
  }
  void down(std::size_t i) {
    const Item x = items_[i];
    for (;;) {
      std::size_t best = i;
      const Key* best_key = &x.key;
      const std::size_t l = 2 * i + 1, r = l + 1;
      if (l < items_.size() && above(items_[l].key, *best_key)) best = l, best_key = &items_[l].key;
      if (r < items_.size() && above(items_[r].key, *best_key)) best = r;
      if (best == i) break;
      place(i, items_[best]);
      i = best;
    }
    place(i, x);
  }

  std::vector<Item> items_;
  std::vector<std::int32_t> at_;  // per op: index in items_, -1 when absent
  bool building_ = false;
};

struct Refusal {
  EdgeReason reason = EdgeReason::none;
  OpId consumer = -1;  // the consumer that refused (-1: all of them)
};

class PriorityFusion {
 public:
  explicit PriorityFusion(const PresetInput& in)
      : in_(in), g_(in.graph), hardware_(*hardware_profile(in.options.hardware)), heap_(in.graph.size()),
        budget_(16 * static_cast<std::int64_t>(g_.size()) + 1024) {
    const std::size_t n = g_.size();
    flags_.assign(n, {});
    inputs_.resize(n);
    input_bytes_.assign(n, 0);
    readers_.resize(n);
    absorbed_.resize(n);
    vector_flops_.assign(n, 0);
    matrix_flops_.assign(n, 0);
    size_.assign(n, 1);
    reduction_.assign(n, -1);
    elementwise_.assign(n, 0);
    content_.assign(n, 0);
    terms_.resize(n);
    position_.assign(n, 0);
    refusal_.assign(n, {});
    for (std::size_t k = 0; k < in.order.size(); ++k) position_[in.order[k]] = static_cast<std::int32_t>(k);
    // Compact per-op facts, so that the hot loops do not touch the ops themselves.
    bytes_.resize(n);
    elements_.resize(n);
    role_.resize(n);
    kind_.resize(n);
    output_.assign(n, 0);
    blocked_by_.assign(n, -1);
    bitcast_readers_.assign(n, 0);
    region_.resize(n);
    std::map<std::string, std::int32_t> regions;
    for (std::size_t x = 0; x < n; ++x) {
      const FusionOp& op = g_.op(static_cast<OpId>(x));
      bytes_[x] = tensor_bytes(op.shape, op.dtype_bytes).value_or(0);
      elements_[x] = shape_elements(op.shape).value_or(0);
      role_[x] = xla_role(g_, static_cast<OpId>(x));
      kind_[x] = op.kind;
      output_[x] = op.output || in.consumers.count(static_cast<OpId>(x)) == 0;
      region_[x] = regions.emplace(op.region, static_cast<std::int32_t>(regions.size())).first->second;
    }
    for (OpId x : in.order) {
      const FusionOp& op = g_.op(x);
      if (op.is_source()) continue;
      flags_[x].alive = true;
      inputs_[x].assign(in.producers.begin(x), in.producers.end(x));
      std::sort(inputs_[x].begin(), inputs_[x].end());
      count_input_bytes(x);
      readers_[x].assign(in.consumers.begin(x), in.consumers.end(x));
      (uses_matrix_peak(op.kind) ? matrix_flops_ : vector_flops_)[x] = op_flops(g_, x);
      if (role_[x] == XlaRole::reduction) reduction_[x] = x;
      elementwise_[x] = is_fusible(op.kind);
    }
    // A reader that takes no producer never fuses away, and no such reader is ever added: P is refused for good.
    for (std::size_t x = 0; x < n; ++x)
      for (OpId c : readers_[x]) bitcast_readers_[x] += is_bitcast(c);
    for (std::size_t x = 0; x < n; ++x)
      for (OpId c : readers_[x])
        if (role_[c] == XlaRole::own_kernel && !is_bitcast(c)) {
          blocked_by_[x] = c;
          break;
        }
    for (std::size_t x = 0; x < n; ++x) flags_[x].fixed = fixed_refusal(static_cast<OpId>(x));
  }

  PriorityFusionResult run() {
    if (in_.options.rules.passes & xla_priority) {
      heap_.reserve_build(true);
      for (OpId x : in_.order)
        if (flags_[x].alive) push(x);
      heap_.reserve_build(false);  // one O(n) heapify of the first priorities
      while (!heap_.empty()) {
        const OpId x = heap_.top();
        if (flags_[x].stale) {  // refreshed when it reaches the top; fused only if it stays there
          flags_[x].stale = false;
          push(x);
          continue;
        }
        heap_.erase(x);
        fuse(x);
      }
    } else {
      for (OpId x : in_.order) refusal_[x] = {EdgeReason::barrier_producer, -1};
    }
    return result();
  }

 private:
  std::uint64_t bytes(OpId x) const { return bytes_[x]; }
  std::uint64_t elements(OpId x) const { return elements_[x]; }

  double time_of(OpId x) const {
    return kernel_time_us(detail::saturating_add(bytes(x), input_bytes_[x]), vector_flops_[x], matrix_flops_[x],
                          hardware_);
  }

  // Sums the bytes of x's inputs after inputs_[x] changed.
  void count_input_bytes(OpId x) {
    std::uint64_t total = 0;
    for (OpId i : inputs_[x]) total = detail::saturating_add(total, bytes(i));
    input_bytes_[x] = total;
  }

  // Replaces C's inputs by C's without P plus P's (each once), keeping the byte sum: C's sum without P, plus
  // P's, minus the inputs both read (counted again from scratch only when a sum saturated).
  void absorb_inputs(OpId c, OpId p) {
    std::vector<OpId>& merged = merged_inputs_;  // scratch, swapped with C's list so capacity is reused
    merged.clear();
    const auto& a = inputs_[c];
    const auto& b = inputs_[p];
    bool reads_p = false;
    std::uint64_t shared = 0;
    std::size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
      OpId next;
      if (j == b.size() || (i < a.size() && a[i] < b[j])) next = a[i++];
      else if (i == a.size() || b[j] < a[i]) next = b[j++];
      else next = a[i++], ++j, shared += bytes(next);
      if (next != p) merged.push_back(next);
      else reads_p = true;
    }
    const bool saturated = input_bytes_[c] == detail::kSaturated || input_bytes_[p] == detail::kSaturated;
    input_bytes_[c] = detail::saturating_add(input_bytes_[c] - (reads_p ? bytes(p) : 0), input_bytes_[p] - shared);
    std::swap(inputs_[c], merged);
    if (saturated) count_input_bytes(c);
  }

  // The bytes and the number of the inputs two sorted lists share. A short list is looked up in a long one
  // (a producer's few inputs in a wide fusion's), so the cost follows the shorter list; else one merge.
  std::pair<std::uint64_t, std::int64_t> shared_inputs(const std::vector<OpId>& a, const std::vector<OpId>& b) const {
    const std::vector<OpId>& shorter = a.size() < b.size() ? a : b;
    const std::vector<OpId>& longer = a.size() < b.size() ? b : a;
    std::uint64_t shared = 0;
    std::int64_t both = 0;
    if (shorter.size() * 16 < longer.size()) {
      auto from = longer.begin();
      for (OpId x : shorter) {
        from = std::lower_bound(from, longer.end(), x);
        if (from == longer.end()) break;
        if (*from == x) shared += bytes(x), ++both;
      }
      return {shared, both};
    }
    for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
      if (a[i] < b[j]) ++i;
      else if (b[j] < a[i]) ++j;
      else shared += bytes(a[i]), ++both, ++i, ++j;
    }
    return {shared, both};
  }

  // The consumer's kernel time with P fused in, and its operand count: C's inputs without P, plus P's inputs
  // that C does not read yet. C is one of P's readers, so it reads P (readers_ and inputs_ mirror each other).
  // The shared inputs come from shared_inputs() (both input byte sums are kept).
  std::pair<double, std::int64_t> fused_time(OpId c, OpId p) const {
    const auto& a = inputs_[c];
    const auto& b = inputs_[p];
    const auto [shared, both] = shared_inputs(a, b);
    const std::uint64_t total =
        detail::saturating_add(detail::saturating_add(bytes(c), input_bytes_[c] - bytes(p)), input_bytes_[p] - shared);
    const std::int64_t operands = static_cast<std::int64_t>(inputs_[c].size()) +
                                  static_cast<std::int64_t>(inputs_[p].size()) - both;
    return {kernel_time_us(total, vector_flops_[c] + vector_flops_[p], matrix_flops_[c] + matrix_flops_[p], hardware_),
            operands};
  }

  bool is_bitcast(OpId x) const { return kind_[x] == OpKind::reshape; }

  // Does C read anything but P and scalar sources (an epilogue reads only its reduction)?
  bool reads_others(OpId c, OpId p) const {
    for (OpId i : inputs_[c])
      if (i != p && !(g_.op(i).is_source() && elements(i) <= 1)) return true;
    return false;
  }

  // Why P may not fuse into consumer C (the CanFuse checks of the header), or none.
  EdgeReason consumer_refusal(OpId p, OpId c) const {
    if (region_[c] != region_[p]) return EdgeReason::region;
    const XlaRole role = role_[c];
    if (role == XlaRole::own_kernel) return EdgeReason::barrier_consumer;
    if (role == XlaRole::scatter) {
      const OpId operand = g_.op(c).inputs.front();
      if (operand == p || std::binary_search(inputs_[p].begin(), inputs_[p].end(), operand))
        return EdgeReason::barrier_consumer;  // the scatter's in-place operand
    }
    if (reduction_[c] >= 0 && kind_[p] == OpKind::concat) return EdgeReason::barrier_consumer;
    if (reduction_[p] < 0) return EdgeReason::none;
    if (reduction_[c] >= 0) return EdgeReason::anchor;
    if (!elementwise_[c] || elements(c) != elements(p) || reads_others(c, p)) return EdgeReason::multi_pass;
    return EdgeReason::none;
  }

  // One consumer's part of P's priority, cached per (P, consumer) until either changes.
  struct Term {
    OpId consumer;
    std::uint32_t consumer_content, producer_content;
    EdgeReason refusal;
    std::int64_t operands;
    double unfused, fused;
  };

  Term term(OpId p, OpId c) {
    Term t{c, content_[c], content_[p], consumer_refusal(p, c), 0, 0, 0};
    if (t.refusal != EdgeReason::none) return t;
    const auto [time, operands] = fused_time(c, p);
    t.operands = operands;
    t.unfused = time_of(c);
    t.fused = time;
    return t;
  }

  bool refuses(const Term& t) const {
    const std::int64_t limit = in_.options.rules.max_group_operands;
    return t.refusal != EdgeReason::none || (limit > 0 && t.operands > limit);
  }

  // The terms of P's consumers, in consumer order, reusing cached ones whose two ends have not changed, up to
  // the first that refuses (the priority stops there; cached terms of later consumers are kept for next time).
  const std::vector<Term>& terms(OpId p, const std::vector<OpId>& consumers) {
    std::vector<Term>& cached = terms_[p];
    std::vector<Term>& fresh = fresh_terms_;  // scratch: swapped with the cache below, so capacity is reused
    fresh.clear();
    std::size_t k = 0;
    for (OpId c : consumers) {
      while (k < cached.size() && cached[k].consumer < c) ++k;
      const bool valid = k < cached.size() && cached[k].consumer == c && cached[k].consumer_content == content_[c] &&
                         cached[k].producer_content == content_[p];
      fresh.push_back(valid ? cached[k] : term(p, c));
      if (!refuses(fresh.back())) continue;
      for (; k < cached.size(); ++k)
        if (cached[k].consumer > c) fresh.push_back(cached[k]);
      break;
    }
    std::swap(cached, fresh);
    return cached;
  }

  // P's priority, or a refusal.
  std::pair<double, Refusal> priority(OpId p) {
    const XlaRole role = role_[p];
    if (role == XlaRole::own_kernel || role == XlaRole::scatter) return {0, {EdgeReason::barrier_producer, -1}};
    if (output_[p] || readers_[p].empty()) return {0, {EdgeReason::output, -1}};
    if (blocked_by_[p] >= 0) return {0, {EdgeReason::barrier_consumer, blocked_by_[p]}};
    if (readers_[p].size() > kMaxConsumers) return {0, {EdgeReason::limit, -1}};
    const std::vector<OpId>& consumers = fused_readers(p, priority_consumers_);
    if (consumers.empty()) return {0, {EdgeReason::barrier_consumer, -1}};  // only bitcasts read it
    if (consumers.size() > kMaxConsumers) return {0, {EdgeReason::limit, -1}};
    if (reduction_[p] >= 0 && consumers.size() != readers_[p].size()) return {0, {EdgeReason::consumers, -1}};
    if (reduction_[p] >= 0 && consumers.size() > 1) return {0, {EdgeReason::consumers, -1}};
    const bool stays = consumers.size() < readers_[p].size();  // bitcast readers keep P's kernel
    const std::int64_t copies = size_[p] * static_cast<std::int64_t>(consumers.size() - (stays ? 0 : 1));
    if (copies_ + copies > budget_) return {0, {EdgeReason::limit, -1}};
    double unfused = stays ? 0 : time_of(p), fused = 0;
    const std::int64_t limit = in_.options.rules.max_group_operands;
    for (const Term& t : terms(p, consumers)) {  // ends at the first refusal
      if (t.refusal != EdgeReason::none) return {0, {t.refusal, t.consumer}};
      if (limit > 0 && t.operands > limit) return {0, {EdgeReason::limit, t.consumer}};
      unfused += t.unfused;
      fused += t.fused;
    }
    if (unfused - fused < 0) return {0, {EdgeReason::unprofitable, -1}};
    if (is_bitcast(p)) return {std::numeric_limits<double>::infinity(), {}};  // bitcasts go first
    return {unfused - fused, {}};
  }

  // Refusals that nothing later can lift: not fusible as a producer, a graph output, or read by a kernel
  // that takes no producer (such a reader never fuses away).
  bool fixed_refusal(OpId p) const {
    return role_[p] == XlaRole::own_kernel || role_[p] == XlaRole::scatter || output_[p] || blocked_by_[p] >= 0;
  }

  // The readers P is fused into: all but bitcasts (CanFuseWithAllNonBitcastUsers). Without bitcast readers
  // (the common case) that is readers_[p] itself; else they are filtered into `scratch`.
  const std::vector<OpId>& fused_readers(OpId p, std::vector<OpId>& scratch) const {
    if (bitcast_readers_[p] == 0) return readers_[p];
    scratch.clear();
    for (OpId c : readers_[p])
      if (!is_bitcast(c)) scratch.push_back(c);
    return scratch;
  }

  void push(OpId x) {
    const auto [value, refusal] = priority(x);
    refusal_[x] = refusal;
    if (refusal.reason == EdgeReason::none)
      heap_.set(x, {value, -position_[x]});
    else
      heap_.erase(x);
  }

  void fuse(OpId p) {
    // A copy: push() below changes the readers of P's producers, and P's own list when P stays.
    std::vector<OpId>& consumers = fuse_consumers_;
    const std::vector<OpId>& readers = fused_readers(p, consumers);
    if (&readers != &consumers) consumers = readers;
    const bool stays = consumers.size() < readers_[p].size();
    copies_ += size_[p] * static_cast<std::int64_t>(consumers.size() - (stays ? 0 : 1));
    for (OpId c : consumers) {
      absorb_inputs(c, p);
      ++content_[c];
      vector_flops_[c] += vector_flops_[p];
      matrix_flops_[c] += matrix_flops_[p];
      size_[c] += size_[p];
      absorbed_[c].push_back(p);
      if (reduction_[p] >= 0) reduction_[c] = reduction_[p];
      elementwise_[c] = elementwise_[c] && elementwise_[p] && elements(p) == elements(c);
    }
    for (OpId i : inputs_[p]) {  // P's producers are now read by P's consumers
      if (!flags_[i].alive || flags_[i].fixed) continue;  // (the readers of a refused producer are never read again)
      auto& list = readers_[i];  // ascending: P out, each consumer in where it belongs
      if (!stays)
        if (const auto at = std::lower_bound(list.begin(), list.end(), p); at != list.end() && *at == p) {
          list.erase(at);
          bitcast_readers_[i] -= is_bitcast(p);
        }
      for (OpId c : consumers)
        if (const auto at = std::lower_bound(list.begin(), list.end(), c); at == list.end() || *at != c)
          list.insert(at, c);
    }
    if (stays) {
      std::vector<OpId> left;  // the bitcasts
      for (OpId c : readers_[p])
        if (is_bitcast(c)) left.push_back(c);
      bitcast_readers_[p] = static_cast<std::int32_t>(left.size());
      readers_[p] = std::move(left);
    } else {
      flags_[p].alive = false;
      refusal_[p] = {};
    }
    ++mark_;
    auto touch = [&](OpId x) {
      Flags& f = flags_[x];
      if (!f.alive || f.touched == mark_ || f.fixed) return;
      f.touched = mark_;
      if (heap_.contains(x))
        f.stale = true;  // a producer in the heap: its key is refreshed when it reaches the top
      else
        push(x);
    };
    for (OpId c : consumers) {
      flags_[c].touched = mark_;
      push(c);  // a changed fusion: its own priority now
    }
    if (stays) touch(p);
    for (OpId c : consumers)
      for (OpId i : inputs_[c]) touch(i);
  }

  PriorityFusionResult result() const {
    PriorityFusionResult out;
    out.refusal.assign(g_.size(), EdgeReason::none);
    out.consumer.assign(g_.size(), -1);
    std::vector<std::uint32_t> seen(g_.size(), 0);
    std::uint32_t mark = 0;
    std::vector<OpId> stack;
    for (OpId x : in_.order) {
      out.refusal[x] = refusal_[x].reason;
      out.consumer[x] = refusal_[x].consumer;
      if (!flags_[x].alive) continue;
      XlaFusion f;
      f.root = x;
      f.inputs = inputs_[x];
      ++mark;
      stack.assign(1, x);
      seen[x] = mark;
      while (!stack.empty()) {
        const OpId y = stack.back();
        stack.pop_back();
        f.members.push_back(y);
        for (OpId z : absorbed_[y])
          if (seen[z] != mark) seen[z] = mark, stack.push_back(z);
      }
      std::sort(f.members.begin(), f.members.end());
      out.fusions.push_back(std::move(f));
    }
    return out;
  }

  const PresetInput& in_;
  const FusionGraph& g_;
  HardwareProfile hardware_;
  IndexedHeap heap_;  // the producers that may fuse, by priority
  std::int64_t budget_, copies_ = 0;
  std::vector<std::uint64_t> bytes_, elements_;  // per op: its output's bytes and elements
  std::vector<XlaRole> role_;
  std::vector<OpKind> kind_;
  std::vector<char> output_;                  // per op: a graph output
  std::vector<OpId> blocked_by_;              // per op: its first reader that takes no producer, or -1
  std::vector<std::int32_t> region_;          // per op: its region, numbered
  // Per op, together because touching a producer after a fusion reads them all at once.
  struct Flags {
    std::uint32_t touched = 0;  // == mark_: already looked at after the current fusion
    bool alive = false;         // a live fusion rooted here
    bool fixed = false;         // fixed_refusal(): refused for good
    bool stale = false;         // a producer in the heap whose key may be out of date
  };
  std::vector<Flags> flags_;
  std::vector<std::vector<OpId>> inputs_;     // per fusion: sources and roots it reads, ascending
  std::vector<std::uint64_t> input_bytes_;    // per fusion: the bytes of inputs_, summed (saturating)
  std::vector<std::vector<OpId>> readers_;    // per fusion: the fusions that read it, ascending
  std::vector<std::int32_t> bitcast_readers_; // per fusion: how many of readers_ are bitcasts (never fused into)
  std::vector<std::vector<OpId>> absorbed_;   // per fusion: producers fused into it (their own lists stay)
  std::vector<std::uint64_t> vector_flops_, matrix_flops_;
  std::vector<std::int64_t> size_;            // per fusion: members counted with repeats (for the budget)
  std::vector<OpId> reduction_;               // per fusion: its reduction, or -1
  std::vector<char> elementwise_;             // per fusion: every member elementwise, of the root's size
  std::vector<std::uint32_t> content_;        // per fusion: bumped whenever it absorbs a producer
  std::vector<std::vector<Term>> terms_;      // per producer: cached consumer terms, by consumer
  std::vector<Term> fresh_terms_;             // scratch for terms()
  std::vector<OpId> priority_consumers_;      // scratch for priority()
  std::vector<OpId> fuse_consumers_, merged_inputs_;  // scratch for fuse()
  std::vector<std::int32_t> position_;        // per op: place in the topological order
  std::vector<Refusal> refusal_;
  std::uint32_t mark_ = 0;
};

}  // namespace

PriorityFusionResult run_priority_fusion(const PresetInput& in) { return PriorityFusion(in).run(); }

}  // namespace fusion::presets
