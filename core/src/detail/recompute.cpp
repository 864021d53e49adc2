// recompute.cpp — the recompute pass of recompute.h.
#include "detail/recompute.h"

#include <algorithm>
#include <optional>
#include <unordered_set>

#include "detail/strategy_legality.h"
#include "fusion/time_model.h"

namespace fusion::detail {
namespace {

std::uint64_t bytes_of(const FusionGraph& g, OpId x) {
  return tensor_bytes(g.op(x).shape, g.op(x).dtype_bytes).value_or(0);
}

// Per group (by representative): what the limits and the cost model need, kept exact under copies.
struct GroupBook {
  std::vector<std::int64_t> ops, inputs, outputs, multi_use;
  std::vector<std::uint64_t> bytes, vector_flops, matrix_flops;
  // (group << 32) | producer, for producers outside the group: sorted at the start, plus those added later.
  std::vector<std::uint64_t> reads;
  std::unordered_set<std::uint64_t> added_reads;

  static std::uint64_t key(OpId group, OpId producer) {
    return (static_cast<std::uint64_t>(group) << 32) | static_cast<std::uint32_t>(producer);
  }
  bool has(OpId group, OpId producer) const {
    const std::uint64_t k = key(group, producer);
    return std::binary_search(reads.begin(), reads.end(), k) || added_reads.count(k) != 0;
  }
  std::int64_t operands(OpId group) const { return inputs[group] + outputs[group]; }
  std::int64_t live(OpId group) const { return operands(group) + multi_use[group]; }
};

GroupBook book_groups(const RecomputeInput& in, const std::vector<OpId>& rep) {
  const std::size_t n = in.graph.size();
  GroupBook b;
  for (auto* v : {&b.ops, &b.inputs, &b.outputs, &b.multi_use}) v->assign(n, 0);
  for (auto* v : {&b.bytes, &b.vector_flops, &b.matrix_flops}) v->assign(n, 0);
  const bool resident = in.options.resident_sources;
  for (std::size_t x = 0; x < n; ++x) {
    const OpId id = static_cast<OpId>(x), g = rep[x];
    const FusionOp& op = in.graph.op(id);
    ++b.ops[g];
    (uses_matrix_peak(op.kind) ? b.matrix_flops : b.vector_flops)[g] += op_flops(in.graph, id);
    std::int64_t inside = 0, outside = 0;
    for (auto it = in.consumers.begin(id); it != in.consumers.end(id); ++it) (rep[*it] == g ? inside : outside) += 1;
    b.multi_use[g] += inside >= 2;
    if (outside > 0 || in.consumers.count(id) == 0 || op.output) {
      ++b.outputs[g];
      if (!(resident && op.is_source())) b.bytes[g] += bytes_of(in.graph, id);
    }
    for (auto it = in.producers.begin(id); it != in.producers.end(id); ++it)
      if (rep[*it] != g) b.reads.push_back(GroupBook::key(g, *it));
  }
  std::sort(b.reads.begin(), b.reads.end());
  b.reads.erase(std::unique(b.reads.begin(), b.reads.end()), b.reads.end());
  for (std::uint64_t k : b.reads) {  // distinct external inputs per group
    const OpId g = static_cast<OpId>(k >> 32), producer = static_cast<OpId>(k & 0xffffffffu);
    ++b.inputs[g];
    b.bytes[g] += bytes_of(in.graph, producer);
  }
  return b;
}

class Recomputer {
 public:
  Recomputer(const RecomputeInput& in, Grouping& grouping)
      : in_(in), g_(in.graph), rules_(in.options.rules), out_(grouping), book_(book_groups(in, grouping.representative)),
        hardware_(hardware_profile(in.options.hardware).value_or(*hardware_profile("a100"))),
        copied_(in.graph.size(), 0) {}

  void run() {
    for (OpId p : in_.order)
      if (is_candidate(p)) consider(p);
  }

 private:
  struct Target {
    OpId group;
    std::uint64_t new_bytes = 0;  // inputs of p this group does not read yet
    std::int64_t new_inputs = 0;
    std::int64_t readers = 0;     // members of the group that read p
  };
  struct Change {
    std::vector<Target> targets;
    bool owner_vanishes = false;  // p was its group's only member
  };

  const std::vector<OpId>& rep() const { return out_.representative; }

  bool is_candidate(OpId p) const {
    const FusionOp& op = g_.op(p);
    if (op.is_source() || op.output || is_heavy_kind(op.kind) || !is_loop_kind(op.kind, rules_)) return false;
    if (rules_.recompute == Recompute::cheap && is_expensive_kind(op.kind)) return false;
    const OpId owner = rep()[p];
    if (owner < 0) return false;
    for (auto it = in_.producers.begin(p); it != in_.producers.end(p); ++it)
      if (rep()[*it] < 0 || rep()[*it] == owner || copied_[*it]) return false;
    return true;
  }

  // The groups that would get a copy of p, or nullopt when p cannot be copied into all of them.
  std::optional<Change> change_for(OpId p) const {
    const OpId owner = rep()[p];
    Change change{{}, book_.ops[owner] == 1};
    bool read_inside = false;
    for (auto it = in_.consumers.begin(p); it != in_.consumers.end(p); ++it) {
      const OpId c = *it, group = rep()[c];
      if (group == owner) {
        read_inside = true;
        continue;
      }
      if (group < 0 || strategy_edge_reason(g_.op(p), g_.op(c), rules_, in_.options.broadcast) != EdgeReason::none)
        return std::nullopt;
      const OpId heavy = in_.heavy[group];
      if (heavy >= 0 && is_reduction_kind(g_.op(heavy).kind) && heavy != c) return std::nullopt;
      if (heavy >= 0 && is_anchor_kind(g_.op(heavy).kind) && !is_fusible(g_.op(p).kind)) return std::nullopt;
      auto found = std::find_if(change.targets.begin(), change.targets.end(),
                                [&](const Target& t) { return t.group == group; });
      if (found == change.targets.end()) found = change.targets.insert(change.targets.end(), new_target(p, group));
      ++found->readers;
    }
    if (change.targets.empty() || (!change.owner_vanishes && !read_inside)) return std::nullopt;
    return change;
  }

  Target new_target(OpId p, OpId group) const {
    Target t{group, 0, -1, 0};  // p itself is no longer read from memory
    for (auto q = in_.producers.begin(p); q != in_.producers.end(p); ++q)
      if (!book_.has(group, *q)) t.new_bytes += bytes_of(g_, *q), ++t.new_inputs;
    return t;
  }

  bool within_limits(const Target& t) const {
    const OpId h = t.group;
    if (rules_.max_group_ops > 0 && book_.ops[h] + 1 > rules_.max_group_ops) return false;
    if (rules_.max_group_operands > 0 && book_.operands(h) + t.new_inputs > rules_.max_group_operands) return false;
    const std::int64_t live = book_.live(h) + t.new_inputs + (t.readers >= 2 ? 1 : 0);
    return rules_.max_live_values <= 0 || live <= rules_.max_live_values;
  }

  double time_of(std::uint64_t bytes, std::uint64_t vector_flops, std::uint64_t matrix_flops) const {
    return kernel_time_us(bytes, vector_flops, matrix_flops, hardware_);
  }

  // The owner's bytes after the change (0 when it disappears).
  std::uint64_t owner_bytes_after(OpId p, const Change& change) const {
    return change.owner_vanishes ? 0 : book_.bytes[rep()[p]] - bytes_of(g_, p);
  }

  bool saves_bytes(OpId p, const Change& change) const {
    const OpId owner = rep()[p];
    std::uint64_t after = owner_bytes_after(p, change), before = book_.bytes[owner];
    for (const Target& t : change.targets) {
      before += bytes_of(g_, p);
      after += t.new_bytes;
    }
    return after < before;
  }

  // Exact time change of the groups involved, by the time model.
  bool saves_time(OpId p, const Change& change) const {
    const OpId owner = rep()[p];
    const std::uint64_t flops = op_flops(g_, p);
    double before = time_of(book_.bytes[owner], book_.vector_flops[owner], book_.matrix_flops[owner]);
    double after = change.owner_vanishes ? 0.0
                                         : time_of(owner_bytes_after(p, change), book_.vector_flops[owner],
                                                   book_.matrix_flops[owner]);
    for (const Target& t : change.targets) {
      const OpId h = t.group;
      before += time_of(book_.bytes[h], book_.vector_flops[h], book_.matrix_flops[h]);
      after += time_of(book_.bytes[h] - bytes_of(g_, p) + t.new_bytes, book_.vector_flops[h] + flops,
                       book_.matrix_flops[h]);
    }
    return after < before;
  }

  void consider(OpId p) {
    const std::optional<Change> change = change_for(p);
    if (!change) return;
    for (const Target& t : change->targets)
      if (!within_limits(t)) return;
    if (!saves_bytes(p, *change)) return;
    if (rules_.refuse_unprofitable && !saves_time(p, *change)) return mark_unprofitable(p);
    apply(p, *change);
  }

  void mark_unprofitable(OpId p) {
    for (auto it = in_.consumers.begin(p); it != in_.consumers.end(p); ++it) {
      const OpId c = *it;
      if (rep()[c] == rep()[p]) continue;
      for (auto k = in_.producers.offsets[c]; k < in_.producers.offsets[c + 1]; ++k)
        if (in_.producers.ids[static_cast<std::size_t>(k)] == p)
          out_.reasons[static_cast<std::size_t>(k)] = EdgeReason::unprofitable;
    }
  }

  void apply(OpId p, const Change& change) {
    const OpId owner = rep()[p];
    const std::uint64_t flops = op_flops(g_, p);
    copied_[p] = 1;
    book_.bytes[owner] = owner_bytes_after(p, change);
    --book_.outputs[owner];
    if (change.owner_vanishes) {
      book_.ops[owner] = 0;
      out_.representative[p] = -1;
    }
    for (const Target& t : change.targets) {
      const OpId h = t.group;
      out_.copies.emplace_back(p, h);
      ++book_.ops[h];
      book_.inputs[h] += t.new_inputs;
      book_.multi_use[h] += t.readers >= 2;
      book_.bytes[h] = book_.bytes[h] - bytes_of(g_, p) + t.new_bytes;
      book_.vector_flops[h] += flops;
      for (auto q = in_.producers.begin(p); q != in_.producers.end(p); ++q) book_.added_reads.insert(GroupBook::key(h, *q));
    }
  }

  const RecomputeInput& in_;
  const FusionGraph& g_;
  const StrategyRules& rules_;
  Grouping& out_;
  GroupBook book_;
  HardwareProfile hardware_;
  std::vector<char> copied_;  // per op: has copies (its readers must not be copied in turn)
};

}  // namespace

void recompute(const RecomputeInput& in, Grouping& grouping) { Recomputer(in, grouping).run(); }

}  // namespace fusion::detail
