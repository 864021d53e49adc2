// verify.cpp — the plan checker. Deliberately written apart from the planner: plain sets and maps,
// its own union-find and its own Kahn pass, so a planner bug cannot hide behind shared code.
#include "fusion/verify.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

namespace fusion {
namespace {

std::string list_to_string(const std::vector<OpId>& ids) {
  std::string out = "[";
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + std::to_string(ids[i]);
  return out + "]";
}

bool mergeable(const FusionOp& op) { return !op.inputs.empty() && is_fusible(op.kind); }

std::uint64_t bytes_of(const FusionOp& op) { return tensor_bytes(op.shape, op.dtype_bytes).value_or(0); }

class Checker {
 public:
  Checker(const FusionGraph& g, const PlannerOptions& options, const FusionPlan& plan)
      : g_(g), options_(options), plan_(plan) {}

  std::vector<Violation> run() {
    collect_edges();
    if (!check_partition()) return std::move(out_);
    check_members();
    check_acyclic();
    check_group_io_and_bytes();
    check_totals();
    check_edges();
    return std::move(out_);
  }

 private:
  void fail(const char* code, std::string message, std::optional<std::int64_t> group = {},
            std::optional<std::int64_t> op = {}) {
    if (out_.size() < kMaxReportedErrors) out_.push_back({code, std::move(message), group, op});
  }
  std::int32_t group_of(OpId x) const { return plan_.op_group[static_cast<std::size_t>(x)]; }
  bool shapes_ok(OpId producer, OpId consumer) const {
    const Shape& a = g_.op(producer).shape;
    const Shape& b = g_.op(consumer).shape;
    return options_.broadcast ? broadcast_compatible(a, b) : a == b;
  }

  void collect_edges() {
    for (std::size_t x = 0; x < g_.size(); ++x)
      for (OpId in : g_.op(static_cast<OpId>(x)).inputs) edges_.insert({in, static_cast<OpId>(x)});
  }

  bool check_partition() {
    const std::size_t n = g_.size();
    if (plan_.op_group.size() != n) {
      fail("partition", "op_group has " + std::to_string(plan_.op_group.size()) + " entries for " +
                            std::to_string(n) + " ops");
      return false;
    }
    std::vector<int> listed(n, 0);
    for (std::size_t i = 0; i < plan_.groups.size(); ++i) {
      const FusionGroup& group = plan_.groups[i];
      const auto gid = static_cast<std::int64_t>(i);
      if (group.id != static_cast<std::int32_t>(i))
        fail("partition", "group at position " + std::to_string(i) + " has id " + std::to_string(group.id), gid);
      if (group.ops.empty()) fail("partition", "group " + std::to_string(i) + " is empty", gid);
      if (!std::is_sorted(group.ops.begin(), group.ops.end()))
        fail("partition", "the ops of group " + std::to_string(i) + " are not in ascending order", gid);
      for (OpId x : group.ops) {
        if (x < 0 || static_cast<std::size_t>(x) >= n) {
          fail("partition", "group " + std::to_string(i) + " lists op " + std::to_string(x) + ", which does not exist",
               gid);
          return false;
        }
        ++listed[x];
        if (plan_.op_group[x] != group.id)
          fail("partition", "op " + std::to_string(x) + " is listed in group " + std::to_string(i) +
                                " but op_group says " + std::to_string(plan_.op_group[x]), gid, x);
      }
    }
    for (std::size_t x = 0; x < n; ++x) {
      if (listed[x] != 1)
        fail("partition", "op " + std::to_string(x) + " is listed in " + std::to_string(listed[x]) +
                              " groups; every op belongs to exactly one", {}, static_cast<std::int64_t>(x));
      if (plan_.op_group[x] < 0 || static_cast<std::size_t>(plan_.op_group[x]) >= plan_.groups.size()) {
        fail("partition", "op_group of op " + std::to_string(x) + " is " + std::to_string(plan_.op_group[x]) +
                              ", not a group id", {}, static_cast<std::int64_t>(x));
        return false;
      }
    }
    return out_.empty();
  }

  // Multi-op groups: fusible non-sources only, legal shapes on every inside edge, and connected along
  // those edges.
  void check_members() {
    std::vector<OpId> root(g_.size());
    std::iota(root.begin(), root.end(), 0);
    auto find = [&root](OpId x) {
      while (root[x] != x) x = root[x] = root[root[x]];
      return x;
    };
    for (const auto& [producer, consumer] : edges_) {
      if (group_of(producer) != group_of(consumer)) continue;
      if (!shapes_ok(producer, consumer))
        fail("shape", "ops " + std::to_string(producer) + " " + shape_to_string(g_.op(producer).shape) + " and " +
                          std::to_string(consumer) + " " + shape_to_string(g_.op(consumer).shape) +
                          " share group " + std::to_string(group_of(consumer)) + " but their shapes may not merge",
             group_of(consumer), consumer);
      root[find(producer)] = find(consumer);
    }
    for (const FusionGroup& group : plan_.groups) {
      if (group.ops.size() < 2) continue;
      for (OpId x : group.ops) {
        if (!mergeable(g_.op(x)))
          fail("not_fusible", "group " + std::to_string(group.id) + " holds op " + std::to_string(x) + ", a " +
                                  (g_.op(x).inputs.empty() ? "source" : "barrier") + ", with other ops",
               group.id, x);
        if (find(x) != find(group.ops.front()))
          fail("disconnected", "op " + std::to_string(x) + " of group " + std::to_string(group.id) +
                                   " is not connected to op " + std::to_string(group.ops.front()) +
                                   " by edges inside the group",
               group.id, x);
      }
    }
  }

  void check_acyclic() {
    const std::size_t groups = plan_.groups.size();
    std::vector<std::set<std::int32_t>> next(groups);
    for (const auto& [producer, consumer] : edges_)
      if (group_of(producer) != group_of(consumer)) next[group_of(producer)].insert(group_of(consumer));
    std::vector<int> indegree(groups, 0);
    for (const auto& targets : next)
      for (std::int32_t t : targets) ++indegree[t];
    std::vector<std::int32_t> ready;
    for (std::size_t i = 0; i < groups; ++i)
      if (indegree[i] == 0) ready.push_back(static_cast<std::int32_t>(i));
    std::size_t ordered = 0;
    while (!ready.empty()) {
      const std::int32_t i = ready.back();
      ready.pop_back();
      ++ordered;
      for (std::int32_t t : next[i])
        if (--indegree[t] == 0) ready.push_back(t);
    }
    if (ordered != groups)
      fail("cycle", "the group graph has a cycle through " + std::to_string(groups - ordered) +
                        " groups; some group has a barrier between two of its halves");
  }

  void check_group_io_and_bytes() {
    std::vector<std::set<OpId>> inputs(plan_.groups.size());
    std::vector<bool> consumed(g_.size(), false), consumed_outside(g_.size(), false);
    for (const auto& [producer, consumer] : edges_) {
      consumed[producer] = true;
      if (group_of(producer) == group_of(consumer)) continue;
      consumed_outside[producer] = true;
      inputs[group_of(consumer)].insert(producer);
    }
    for (const FusionGroup& group : plan_.groups) {
      const std::vector<OpId> want_inputs(inputs[group.id].begin(), inputs[group.id].end());
      std::vector<OpId> want_outputs;
      for (OpId x : group.ops)
        if (consumed_outside[x] || !consumed[x]) want_outputs.push_back(x);
      if (group.inputs != want_inputs)
        fail("inputs", "group " + std::to_string(group.id) + " lists inputs " + list_to_string(group.inputs) +
                           " but its external producers are " + list_to_string(want_inputs), group.id);
      if (group.outputs != want_outputs)
        fail("outputs", "group " + std::to_string(group.id) + " lists outputs " + list_to_string(group.outputs) +
                            " but the members consumed outside or terminal are " + list_to_string(want_outputs),
             group.id);
      std::uint64_t read = 0, written = 0;
      for (OpId x : want_inputs) read += bytes_of(g_.op(x));
      for (OpId x : want_outputs)
        if (!(options_.resident_sources && g_.op(x).inputs.empty())) written += bytes_of(g_.op(x));
      if (group.bytes_read != read || group.bytes_written != written)
        fail("bytes", "group " + std::to_string(group.id) + " reports " + std::to_string(group.bytes_read) +
                          " bytes read and " + std::to_string(group.bytes_written) + " written; the model gives " +
                          std::to_string(read) + " and " + std::to_string(written), group.id);
      fused_total_ += read + written;
      if (!std::all_of(group.ops.begin(), group.ops.end(), [&](OpId x) { return g_.op(x).inputs.empty(); }))
        ++kernels_fused_;
    }
  }

  // One op's unfused traffic: its distinct inputs read, its output written (nothing for a resident source).
  std::uint64_t op_total(const FusionOp& op) const {
    const std::set<OpId> distinct(op.inputs.begin(), op.inputs.end());
    std::uint64_t bytes = (options_.resident_sources && op.inputs.empty()) ? 0 : bytes_of(op);
    for (OpId in : distinct) bytes += bytes_of(g_.op(in));
    return bytes;
  }

  void check_totals() {
    std::uint64_t unfused = 0;
    std::int64_t kernels = 0;
    for (std::size_t x = 0; x < g_.size(); ++x) {
      const FusionOp& op = g_.op(static_cast<OpId>(x));
      unfused += op_total(op);
      if (!op.inputs.empty()) ++kernels;
      if (x < plan_.op_bytes_unfused.size() && plan_.op_bytes_unfused[x] != op_total(op))
        fail("totals", "op_bytes_unfused of op " + std::to_string(x) + " is " + std::to_string(plan_.op_bytes_unfused[x]) +
                           "; the model gives " + std::to_string(op_total(op)), {}, static_cast<std::int64_t>(x));
    }
    if (plan_.op_bytes_unfused.size() != g_.size())
      fail("totals", "op_bytes_unfused has " + std::to_string(plan_.op_bytes_unfused.size()) + " entries for " +
                         std::to_string(g_.size()) + " ops");
    if (plan_.bytes_unfused != unfused)
      fail("totals", "bytes_unfused is " + std::to_string(plan_.bytes_unfused) + "; the model gives " +
                         std::to_string(unfused));
    if (plan_.bytes_fused != fused_total_)
      fail("totals", "bytes_fused is " + std::to_string(plan_.bytes_fused) + "; the groups add up to " +
                         std::to_string(fused_total_));
    if (fused_total_ > unfused)
      fail("totals", "fused bytes " + std::to_string(fused_total_) + " exceed unfused bytes " + std::to_string(unfused));
    const double speedup = fused_total_ == 0 ? 1.0 : static_cast<double>(unfused) / static_cast<double>(fused_total_);
    if (std::fabs(plan_.speedup_estimate - speedup) > 1e-9 * std::max(1.0, speedup))
      fail("totals", "speedup_estimate is " + std::to_string(plan_.speedup_estimate) + "; bytes give " +
                         std::to_string(speedup));
    if (plan_.kernels_unfused != kernels || plan_.kernels_fused != kernels_fused_)
      fail("totals", "kernel counts are " + std::to_string(plan_.kernels_unfused) + " -> " +
                         std::to_string(plan_.kernels_fused) + "; the plan gives " + std::to_string(kernels) +
                         " -> " + std::to_string(kernels_fused_));
  }

  // The reason an unfused edge may carry, judged from the graph and the final groups.
  bool reason_fits(OpId producer, OpId consumer, EdgeReason reason) const {
    const FusionOp& p = g_.op(producer);
    const FusionOp& c = g_.op(consumer);
    if (p.inputs.empty()) return reason == EdgeReason::source;
    if (!is_fusible(p.kind)) return reason == EdgeReason::barrier_producer;
    if (!is_fusible(c.kind)) return reason == EdgeReason::barrier_consumer;
    if (!shapes_ok(producer, consumer)) return reason == EdgeReason::shape;
    if (reason == EdgeReason::cycle) return true;
    if (reason != EdgeReason::shape) return false;
    // A shape reason on a legal edge needs an edge between the two groups whose shapes may not merge.
    const std::int32_t a = group_of(producer), b = group_of(consumer);
    return clashing_groups_.count({std::min(a, b), std::max(a, b)}) > 0;
  }

  // Pairs of groups joined by an edge whose shapes may not merge (smaller id first).
  void collect_clashes() {
    for (const auto& [x, y] : edges_)
      if (!shapes_ok(x, y))
        clashing_groups_.insert({std::min(group_of(x), group_of(y)), std::max(group_of(x), group_of(y))});
  }

  void check_edges() {
    collect_clashes();
    std::map<std::pair<OpId, OpId>, int> listed;
    for (const EdgeDecision& e : plan_.edges) {
      const std::pair<OpId, OpId> key{e.producer, e.consumer};
      if (!edges_.count(key)) {
        fail("edges", "edge " + std::to_string(e.producer) + " -> " + std::to_string(e.consumer) +
                          " is listed but the graph has no such edge", {}, e.consumer);
        continue;
      }
      if (++listed[key] == 2)
        fail("edges", "edge " + std::to_string(e.producer) + " -> " + std::to_string(e.consumer) + " is listed twice",
             {}, e.consumer);
      const bool inside = group_of(e.producer) == group_of(e.consumer);
      if (e.fused != inside)
        fail("edges", "edge " + std::to_string(e.producer) + " -> " + std::to_string(e.consumer) + " is marked " +
                          (e.fused ? "fused" : "not fused") + " but its ends are " +
                          (inside ? "in one group" : "in different groups"), {}, e.consumer);
      else if (e.fused != (e.reason == EdgeReason::none))
        fail("edges", "edge " + std::to_string(e.producer) + " -> " + std::to_string(e.consumer) +
                          (e.fused ? " is fused yet has a reason" : " is not fused and has no reason"), {}, e.consumer);
      else if (!e.fused && !reason_fits(e.producer, e.consumer, e.reason))
        fail("edges", "edge " + std::to_string(e.producer) + " -> " + std::to_string(e.consumer) + " has reason '" +
                          to_string(e.reason) + "', which does not fit the graph", {}, e.consumer);
    }
    if (listed.size() != edges_.size())
      fail("edges", std::to_string(edges_.size() - listed.size()) + " of " + std::to_string(edges_.size()) +
                        " edges are missing from the edge list");
  }

  const FusionGraph& g_;
  const PlannerOptions& options_;
  const FusionPlan& plan_;
  std::vector<Violation> out_;
  std::set<std::pair<OpId, OpId>> edges_;
  std::set<std::pair<std::int32_t, std::int32_t>> clashing_groups_;
  std::uint64_t fused_total_ = 0;
  std::int64_t kernels_fused_ = 0;
};

}  // namespace

std::vector<Violation> verify_plan(const FusionGraph& graph, const PlannerOptions& options, const FusionPlan& plan) {
  return Checker(graph, options, plan).run();
}

}  // namespace fusion
