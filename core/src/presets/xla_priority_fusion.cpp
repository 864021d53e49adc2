// xla_priority_fusion.cpp — the priority queue of xla_priority_fusion.h.
//
// Laid out for the cache (the pass is bound by memory latency and mispredicted branches more than by its element
// steps): per op, one record of fixed facts (XlaOpFacts, handed on in the result) and one of flags (Flags); per
// live fusion, one cache-line record (FusionState: all a consumer's term reads but its input list, the root's
// bytes, region and role copied in) and per producer one (ProducerState: what a push reads and writes besides, its size, place in the order and
// refusal); their lists (inputs, readers, cached terms) are slices of three arenas (row_arena.h), and the fusions
// made are one (consumer, producer) log turned into rows at the end. Before walking a list of ops (a producer's
// consumers, a fusion's consumers or touched producers) the pass asks for their records, then their lists, with
// prefetch hints (no effect on results), so the misses of a list overlap instead of following one another.
#include "presets/xla_priority_fusion.h"

#include <algorithm>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <utility>

#include "detail/saturating.h"
#include "fusion/hardware.h"
#include "fusion/time_model.h"
#include "presets/indexed_heap.h"
#include "presets/row_arena.h"
#include "presets/xla_kinds.h"

namespace fusion::presets {
namespace {

constexpr std::size_t kMaxConsumers = 64;

// Asks for the cache line holding `at` ahead of its use (a hint: no effect on results). The pass is bound by
// dependent misses; touching the records of a whole list first lets their misses overlap.
inline void prefetch(const void* at) { __builtin_prefetch(at); }

struct Refusal {
  EdgeReason reason = EdgeReason::none;
  OpId consumer = -1;  // the consumer that refused (-1: all of them)
};

using OpFacts = XlaOpFacts;

// Per live fusion (by root): all a consumer's part of a priority reads but the input lists, in one cache line
// (the root's bytes, region and role are copies of its OpFacts, so a term costs no OpFacts load).
struct alignas(64) FusionState {
  Row inputs;                        // sources and roots it reads, ascending (in the inputs arena)
  std::uint64_t input_bytes = 0;     // the bytes of inputs, summed (saturating)
  std::uint64_t vector_flops = 0, matrix_flops = 0;
  std::uint64_t bytes = 0;           // the root's output bytes
  std::uint32_t content = 0;         // bumped whenever it absorbs a producer
  OpId reduction = -1;               // its reduction, or -1
  std::int32_t region = 0;           // the root's
  XlaRole role = XlaRole::own_kernel;  // the root's
};

// Per op, together because touching a producer after a fusion reads them all at once.
struct Flags {
  std::uint32_t touched = 0;  // == mark_: already looked at after the current fusion
  bool alive = false;         // a live fusion rooted here
  bool fixed = false;         // fixed_refusal(): refused for good
  bool stale = false;         // a producer in the heap whose key may be out of date
  bool elementwise = false;   // every member elementwise, of the root's size
};

// One consumer's part of P's priority, cached per (P, consumer) until either changes (P's row is emptied when P
// changes, so a term names only the consumer's content). 32 bytes, two to a cache line.
struct Term {
  double unfused, fused;
  OpId consumer;
  std::uint32_t consumer_content;
  std::int32_t operands;  // (capped: a list of 2^31 inputs does not fit in memory)
  EdgeReason refusal;
};
static_assert(sizeof(Term) <= 32);

// Per producer: what pushing it reads and writes besides its OpFacts and FusionState, in one cache line.
struct alignas(64) ProducerState {
  Row readers;                       // the fusions that read it, ascending (in the readers arena)
  Row terms;                         // cached consumer terms, by consumer (in the terms arena)
  std::int64_t size = 1;             // members counted with repeats (for the budget)
  std::int32_t bitcast_readers = 0;  // how many of readers are bitcasts (never fused into)
  std::int32_t position = 0;         // its place in the topological order (ties in the heap)
  Refusal refusal;                   // why its last priority was refused (none when it was not)
  Refusal fixed;                     // fixed_refusal(), so a push needs no OpFacts to find it
};
static_assert(sizeof(ProducerState) == 64);

class PriorityFusion {
 public:
  explicit PriorityFusion(const PresetInput& in)
      : in_(in), g_(in.graph), hardware_(*hardware_profile(in.options.hardware)), heap_(in.graph.size()),
        budget_(16 * static_cast<std::int64_t>(g_.size()) + 1024) {
    const std::size_t n = g_.size();
    input_rows_.reserve(in.producers.ids.size() * 2);
    reader_rows_.reserve(in.consumers.ids.size() * 2);
    term_rows_.reserve(in.consumers.ids.size());
    flags_.assign(n, {});
    fusion_.resize(n);
    producer_.resize(n);
    for (std::size_t k = 0; k < in.order.size(); ++k) producer_[in.order[k]].position = static_cast<std::int32_t>(k);
    facts_.resize(n);
    std::map<std::string, std::int32_t> regions;
    for (std::size_t x = 0; x < n; ++x) {
      const FusionOp& op = g_.op(static_cast<OpId>(x));
      OpFacts& f = facts_[x];
      f.bytes = tensor_bytes(op.shape, op.dtype_bytes).value_or(0);
      f.elements = shape_elements(op.shape).value_or(0);
      f.role = xla_role(g_, static_cast<OpId>(x));
      f.kind = op.kind;
      f.output = op.output || in.consumers.count(static_cast<OpId>(x)) == 0;
      f.source = op.is_source();
      f.region = regions.emplace(op.region, static_cast<std::int32_t>(regions.size())).first->second;
      fusion_[x].bytes = f.bytes;
      fusion_[x].region = f.region;
      fusion_[x].role = f.role;
    }
    for (OpId x : in.order) {
      const FusionOp& op = g_.op(x);
      if (op.is_source()) continue;
      flags_[x].alive = true;
      FusionState& f = fusion_[x];
      input_rows_.assign(f.inputs, in.producers.begin(x), in.producers.end(x));
      std::sort(input_rows_.view(f.inputs).begin(), input_rows_.view(f.inputs).end());
      count_input_bytes(x);
      reader_rows_.assign(producer_[x].readers, in.consumers.begin(x), in.consumers.end(x));
      (uses_matrix_peak(op.kind) ? f.matrix_flops : f.vector_flops) = op_flops(g_, x);
      if (facts_[x].role == XlaRole::reduction) f.reduction = x;
      flags_[x].elementwise = is_fusible(op.kind);
    }
    // A reader that takes no producer never fuses away, and no such reader is ever added: P is refused for good.
    // (One walk over the readers for both counts: each reader's OpFacts is a cache miss.)
    for (std::size_t x = 0; x < n; ++x) {
      for (OpId c : readers(static_cast<OpId>(x))) {
        const OpFacts& reader = facts_[c];
        const bool bitcast = reader.kind == OpKind::reshape;
        producer_[x].bitcast_readers += bitcast;
        if (facts_[x].blocked_by < 0 && reader.role == XlaRole::own_kernel && !bitcast) facts_[x].blocked_by = c;
      }
      producer_[x].fixed = fixed_refusal(static_cast<OpId>(x));
      flags_[x].fixed = producer_[x].fixed.reason != EdgeReason::none;
    }
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
      for (OpId x : in_.order) producer_[x].refusal = {EdgeReason::barrier_producer, -1};
    }
    return result();
  }

 private:
  std::uint64_t bytes(OpId x) const { return facts_[x].bytes; }
  std::span<const OpId> inputs(OpId x) const { return input_rows_.view(fusion_[x].inputs); }
  std::span<const OpId> readers(OpId x) const { return reader_rows_.view(producer_[x].readers); }
  std::uint64_t elements(OpId x) const { return facts_[x].elements; }

  double time_of(OpId x) const {
    const FusionState& f = fusion_[x];
    return kernel_time_us(detail::saturating_add(f.bytes, f.input_bytes), f.vector_flops, f.matrix_flops, hardware_);
  }

  // Sums the bytes of x's inputs after its input list changed.
  void count_input_bytes(OpId x) {
    std::uint64_t total = 0;
    for (OpId i : inputs(x)) total = detail::saturating_add(total, bytes(i));
    fusion_[x].input_bytes = total;
  }

  // Room for `size` ids in a scratch list that only grows (so filling it costs no check per id).
  static OpId* scratch(std::vector<OpId>& list, std::size_t size) {
    if (list.size() < size) list.resize(2 * size);
    return list.data();
  }

  // Replaces C's inputs by C's without P plus P's (each once), keeping the byte sum: C's sum without P, plus
  // P's, minus the inputs both read (counted again from scratch only when a sum saturated).
  void absorb_inputs(OpId c, OpId p) {
    FusionState& fc = fusion_[c];
    const FusionState& fp = fusion_[p];
    const std::span<const OpId> a = inputs(c), b = inputs(p);
    OpId* const merged = scratch(merged_inputs_, a.size() + b.size());  // copied back into C's row
    OpId* out = merged;
    bool reads_p = false;
    std::uint64_t shared = 0;
    std::size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
      OpId next;
      if (j == b.size() || (i < a.size() && a[i] < b[j])) next = a[i++];
      else if (i == a.size() || b[j] < a[i]) next = b[j++];
      else next = a[i++], ++j, shared += bytes(next);
      if (next != p) *out++ = next;
      else reads_p = true;
    }
    const bool saturated = fc.input_bytes == detail::kSaturated || fp.input_bytes == detail::kSaturated;
    fc.input_bytes = detail::saturating_add(fc.input_bytes - (reads_p ? bytes(p) : 0), fp.input_bytes - shared);
    input_rows_.assign(fc.inputs, merged, out);
    if (saturated) count_input_bytes(c);
  }

  // The bytes and the number of the inputs two sorted lists share. A short list is looked up in a long one
  // (a producer's few inputs in a wide fusion's), so the cost follows the shorter list; else one merge.
  std::pair<std::uint64_t, std::int64_t> shared_inputs(std::span<const OpId> a, std::span<const OpId> b) const {
    const std::span<const OpId> shorter = a.size() < b.size() ? a : b;
    const std::span<const OpId> longer = a.size() < b.size() ? b : a;
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
  // that C does not read yet. C is one of P's readers, so it reads P (readers and inputs mirror each other).
  // The shared inputs come from shared_inputs() (both input byte sums are kept).
  std::pair<double, std::int64_t> fused_time(OpId c, OpId p) const {
    const FusionState& fc = fusion_[c];
    const FusionState& fp = fusion_[p];
    const auto [shared, both] = shared_inputs(inputs(c), inputs(p));
    const std::uint64_t total =
        detail::saturating_add(detail::saturating_add(fc.bytes, fc.input_bytes - fp.bytes), fp.input_bytes - shared);
    const std::int64_t operands =
        static_cast<std::int64_t>(fc.inputs.size) + static_cast<std::int64_t>(fp.inputs.size) - both;
    return {kernel_time_us(total, fc.vector_flops + fp.vector_flops, fc.matrix_flops + fp.matrix_flops, hardware_),
            operands};
  }

  bool is_bitcast(OpId x) const { return facts_[x].kind == OpKind::reshape; }

  // Does C read anything but P and scalar sources (an epilogue reads only its reduction)?
  bool reads_others(OpId c, OpId p) const {
    for (OpId i : inputs(c))
      if (i != p && !(facts_[i].source && elements(i) <= 1)) return true;
    return false;
  }

  // Why P may not fuse into consumer C (the CanFuse checks of the header), or none.
  EdgeReason consumer_refusal(OpId p, OpId c) const {
    const FusionState& fc = fusion_[c];
    if (fc.region != fusion_[p].region) return EdgeReason::region;
    if (fc.role == XlaRole::own_kernel) return EdgeReason::barrier_consumer;
    if (fc.role == XlaRole::scatter) {
      const OpId operand = g_.op(c).inputs.front();
      const std::span<const OpId> read = inputs(p);
      if (operand == p || std::binary_search(read.begin(), read.end(), operand))
        return EdgeReason::barrier_consumer;  // the scatter's in-place operand
    }
    const OpId reduction_c = fusion_[c].reduction;
    if (reduction_c >= 0 && facts_[p].kind == OpKind::concat) return EdgeReason::barrier_consumer;
    if (fusion_[p].reduction < 0) return EdgeReason::none;
    if (reduction_c >= 0) return EdgeReason::anchor;
    if (!flags_[c].elementwise || elements(c) != elements(p) || reads_others(c, p)) return EdgeReason::multi_pass;
    return EdgeReason::none;
  }

  Term term(OpId p, OpId c) {
    Term t{0, 0, c, fusion_[c].content, 0, consumer_refusal(p, c)};
    if (t.refusal != EdgeReason::none) return t;
    const auto [time, operands] = fused_time(c, p);
    t.operands = static_cast<std::int32_t>(std::min<std::int64_t>(operands, std::numeric_limits<std::int32_t>::max()));
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
  std::span<const Term> terms(OpId p, std::span<const OpId> consumers) {
    const std::span<const Term> cached = term_rows_.view(producer_[p].terms);
    std::vector<Term>& fresh = fresh_terms_;  // scratch: copied back into P's row below
    fresh.clear();
    std::size_t k = 0;
    for (OpId c : consumers) {
      while (k < cached.size() && cached[k].consumer < c) ++k;
      const bool valid = k < cached.size() && cached[k].consumer == c && cached[k].consumer_content == fusion_[c].content;
      fresh.push_back(valid ? cached[k] : term(p, c));
      if (!refuses(fresh.back())) continue;
      for (; k < cached.size(); ++k)
        if (cached[k].consumer > c) fresh.push_back(cached[k]);
      break;
    }
    term_rows_.assign(producer_[p].terms, fresh.data(), fresh.data() + fresh.size());
    return fresh;
  }

  // P's priority, or a refusal.
  std::pair<double, Refusal> priority(OpId p) {
    const ProducerState& uses = producer_[p];
    if (uses.fixed.reason != EdgeReason::none) return {0, uses.fixed};
    if (uses.readers.size == 0) return {0, {EdgeReason::output, -1}};
    prefetch(&facts_[p]);  // read only at the end (is P a bitcast?)
    if (uses.readers.size > kMaxConsumers) return {0, {EdgeReason::limit, -1}};
    const std::span<const OpId> consumers = fused_readers(p, priority_consumers_);
    if (consumers.empty()) return {0, {EdgeReason::barrier_consumer, -1}};  // only bitcasts read it
    if (consumers.size() > kMaxConsumers) return {0, {EdgeReason::limit, -1}};
    const bool reduction = fusion_[p].reduction >= 0;
    if (reduction && consumers.size() != uses.readers.size) return {0, {EdgeReason::consumers, -1}};
    if (reduction && consumers.size() > 1) return {0, {EdgeReason::consumers, -1}};
    const bool stays = consumers.size() < uses.readers.size;  // bitcast readers keep P's kernel
    const std::int64_t copies = uses.size * static_cast<std::int64_t>(consumers.size() - (stays ? 0 : 1));
    if (copies_ + copies > budget_) return {0, {EdgeReason::limit, -1}};
    double unfused = stays ? 0 : time_of(p), fused = 0;
    const std::int64_t limit = in_.options.rules.max_group_operands;
    // The consumers' records, then (once those are in) the starts of their input lists. (In line: GCC drops a
    // call to a function that only prefetches, taking it for one without effects.)
    for (OpId c : consumers) prefetch(&fusion_[c]);
    for (OpId c : consumers) prefetch(input_rows_.view(fusion_[c].inputs).data());
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

  // The refusal that nothing later can lift, or none: not fusible as a producer, a graph output, or read by a
  // kernel that takes no producer (such a reader never fuses away; a refused producer's readers never change).
  Refusal fixed_refusal(OpId p) const {
    const OpFacts& f = facts_[p];
    if (f.role == XlaRole::own_kernel || f.role == XlaRole::scatter) return {EdgeReason::barrier_producer, -1};
    if (f.output) return {EdgeReason::output, -1};
    if (f.blocked_by >= 0) return {EdgeReason::barrier_consumer, f.blocked_by};
    return {};
  }

  // The readers P is fused into: all but bitcasts (CanFuseWithAllNonBitcastUsers). Without bitcast readers
  // (the common case) that is P's reader list itself; else they are filtered into `scratch`.
  std::span<const OpId> fused_readers(OpId p, std::vector<OpId>& scratch) const {
    if (producer_[p].bitcast_readers == 0) return readers(p);
    scratch.clear();
    for (OpId c : readers(p))
      if (!is_bitcast(c)) scratch.push_back(c);
    return scratch;
  }

  void push(OpId x) {
    const auto [value, refusal] = priority(x);
    producer_[x].refusal = refusal;
    if (refusal.reason == EdgeReason::none)
      heap_.set(x, {value, -producer_[x].position});
    else
      heap_.erase(x);
  }

  // C takes P in: its inputs, work, size, reduction and shape facts.
  void absorb(OpId c, OpId p) {
    absorb_inputs(c, p);
    FusionState& fc = fusion_[c];
    const FusionState& fp = fusion_[p];
    ++fc.content;
    producer_[c].terms.size = 0;  // its terms as a producer are out of date
    fc.vector_flops += fp.vector_flops;
    fc.matrix_flops += fp.matrix_flops;
    producer_[c].size += producer_[p].size;
    absorbed_.emplace_back(c, p);
    if (fp.reduction >= 0) fc.reduction = fp.reduction;
    flags_[c].elementwise = flags_[c].elementwise && flags_[p].elementwise && elements(p) == elements(c);
  }

  // P's producers are now read by P's consumers (and no longer by P unless it stays).
  void move_readers(OpId p, const std::vector<OpId>& consumers, bool stays) {
    for (OpId i : inputs(p)) {
      if (!flags_[i].alive || flags_[i].fixed) continue;  // (the readers of a refused producer are never read again)
      // Readers ascending: P out, the consumers (ascending) in, each once; one merge instead of an insertion each.
      const std::span<const OpId> list = readers(i);
      OpId* const merged = scratch(merged_readers_, list.size() + consumers.size());  // copied back into i's row
      OpId* out = merged;
      bool had_p = false;
      std::size_t j = 0;
      for (OpId r : list) {
        for (; j < consumers.size() && consumers[j] < r; ++j) *out++ = consumers[j];
        if (j < consumers.size() && consumers[j] == r) ++j;
        if (r == p && !stays) had_p = true;
        else *out++ = r;
      }
      out = std::copy(consumers.begin() + static_cast<std::ptrdiff_t>(j), consumers.end(), out);
      ProducerState& uses = producer_[i];
      if (had_p) uses.bitcast_readers -= is_bitcast(p);
      reader_rows_.assign(uses.readers, merged, out);
    }
  }

  void fuse(OpId p) {
    // A copy: push() below changes the readers of P's producers, and P's own list when P stays.
    std::vector<OpId>& consumers = fuse_consumers_;
    if (producer_[p].bitcast_readers == 0) consumers.assign(readers(p).begin(), readers(p).end());
    else fused_readers(p, consumers);  // fills `consumers`
    const bool stays = consumers.size() < producer_[p].readers.size;
    copies_ += producer_[p].size * static_cast<std::int64_t>(consumers.size() - (stays ? 0 : 1));
    for (OpId c : consumers) prefetch(&fusion_[c]), prefetch(&flags_[c]), prefetch(&facts_[c]), prefetch(&producer_[c]);
    for (OpId c : consumers) prefetch(input_rows_.view(fusion_[c].inputs).data());
    for (OpId c : consumers) absorb(c, p);
    for (OpId i : inputs(p)) prefetch(&flags_[i]), prefetch(&producer_[i]);
    move_readers(p, consumers, stays);
    if (stays) {
      std::vector<OpId> left;  // the bitcasts
      for (OpId c : readers(p))
        if (is_bitcast(c)) left.push_back(c);
      producer_[p].bitcast_readers = static_cast<std::int32_t>(left.size());
      reader_rows_.assign(producer_[p].readers, left.data(), left.data() + left.size());
    } else {
      flags_[p].alive = false;
      producer_[p].refusal = {};
    }
    ++mark_;
    for (OpId c : consumers)
      prefetch(reader_rows_.view(producer_[c].readers).data()), prefetch(term_rows_.view(producer_[c].terms).data());
    for (OpId c : consumers) {
      flags_[c].touched = mark_;
      push(c);  // a changed fusion: its own priority now
    }
    // The producers of the changed fusions: a producer in the heap is marked stale (its key is refreshed when it
    // reaches the top), any other is pushed now. One push does not change what decides another producer's case,
    // so the cases are settled first and the pushes made after, in the same order, their records fetched ahead.
    // Without branches: which case a producer falls in is as good as random.
    std::size_t most = stays ? 1 : 0, n = 0;
    for (OpId c : consumers) most += fusion_[c].inputs.size;
    OpId* const pushed_ids = scratch(touched_, most);
    auto touch = [&](OpId x) {
      Flags& f = flags_[x];
      const bool look = f.alive & !f.fixed & (f.touched != mark_);
      const bool in_heap = heap_.contains(x);
      f.touched = look ? mark_ : f.touched;
      f.stale = f.stale | (look & in_heap);
      pushed_ids[n] = x;
      n += look & !in_heap;
    };
    for (OpId c : consumers)
      for (OpId i : inputs(c)) prefetch(&flags_[i]), heap_.prefetch(i);
    if (stays) touch(p);
    for (OpId c : consumers)
      for (OpId i : inputs(c)) touch(i);
    const std::span<const OpId> pushed(pushed_ids, n);
    for (OpId x : pushed) prefetch(&facts_[x]), prefetch(&producer_[x]), prefetch(&fusion_[x]);
    for (OpId x : pushed)
      prefetch(reader_rows_.view(producer_[x].readers).data()), prefetch(term_rows_.view(producer_[x].terms).data());
    for (OpId x : pushed) push(x);
  }

  // Per op, where its row of the producers fused into it starts (in the log's rows) and the last fusion whose
  // members walk reached it: one 8-byte record, so the walk's step costs one load for both.
  struct Absorbed {
    std::int32_t begin = 0;
    std::uint32_t seen = 0;
  };

  // Per fusion, the producers fused into it, as rows over the log (order within a row does not matter): row x is
  // [rows[x].begin, rows[x + 1].begin).
  void absorbed_rows(std::vector<Absorbed>& rows, std::vector<OpId>& ids) const {
    rows.assign(g_.size() + 1, {});
    for (const auto& [c, p] : absorbed_) ++rows[static_cast<std::size_t>(c) + 1].begin;
    for (std::size_t x = 0; x < g_.size(); ++x) rows[x + 1].begin += rows[x].begin;
    ids.resize(absorbed_.size());
    std::vector<std::int32_t> fill(g_.size());
    for (std::size_t x = 0; x < g_.size(); ++x) fill[x] = rows[x].begin;
    for (const auto& [c, p] : absorbed_) ids[static_cast<std::size_t>(fill[c]++)] = p;
  }

  PriorityFusionResult result() {
    PriorityFusionResult out;
    out.refusal.assign(g_.size(), EdgeReason::none);
    out.consumer.assign(g_.size(), -1);
    std::vector<Absorbed> rows;
    std::vector<OpId> absorbed;
    absorbed_rows(rows, absorbed);
    std::uint32_t mark = 0;
    std::vector<OpId> stack;
    out.member_offsets.push_back(0);
    out.input_offsets.push_back(0);
    for (OpId x : in_.order) {
      out.refusal[x] = producer_[x].refusal.reason;
      out.consumer[x] = producer_[x].refusal.consumer;
      if (!flags_[x].alive) continue;
      out.roots.push_back(x);
      out.inputs.insert(out.inputs.end(), inputs(x).begin(), inputs(x).end());
      out.input_offsets.push_back(static_cast<std::int64_t>(out.inputs.size()));
      ++mark;
      stack.assign(1, x);
      rows[x].seen = mark;
      while (!stack.empty()) {
        const OpId y = stack.back();
        stack.pop_back();
        out.members.push_back(y);
        for (auto k = rows[y].begin; k < rows[y + 1].begin; ++k)
          if (const OpId z = absorbed[static_cast<std::size_t>(k)]; rows[z].seen != mark) rows[z].seen = mark, stack.push_back(z);
      }
      out.member_offsets.push_back(static_cast<std::int64_t>(out.members.size()));
    }
    out.facts = std::move(facts_);  // the last read of them here
    return out;
  }

  const PresetInput& in_;
  const FusionGraph& g_;
  HardwareProfile hardware_;
  IndexedHeap heap_;  // the producers that may fuse, by priority
  std::int64_t budget_, copies_ = 0;
  std::vector<OpFacts> facts_;                // per op
  std::vector<Flags> flags_;                  // per op
  std::vector<FusionState> fusion_;           // per live fusion (by root)
  std::vector<ProducerState> producer_;       // per fusion, as a producer
  RowArena<> input_rows_, reader_rows_;       // the lists of fusion_ and producer_
  RowArena<Term> term_rows_;                  // producer_'s cached terms
  std::vector<std::pair<OpId, OpId>> absorbed_;  // (consumer, producer) per copy fused, in order
  std::vector<Term> fresh_terms_;             // scratch for terms()
  std::vector<OpId> priority_consumers_;      // scratch for priority()
  std::vector<OpId> fuse_consumers_, merged_inputs_, merged_readers_, touched_;  // scratch for fuse()
  std::uint32_t mark_ = 0;
};

}  // namespace

PriorityFusionResult run_priority_fusion(const PresetInput& in) { return PriorityFusion(in).run(); }

}  // namespace fusion::presets
