// cost.cpp — unfused and fused bytes, flops and time, per op, per group and in total.
#include "fusion/cost.h"

#include <algorithm>

#include "detail/saturating.h"
#include "detail/topology.h"
#include "fusion/hardware.h"
#include "fusion/time_model.h"

namespace fusion {
namespace {

using detail::saturating_add;

// Output bytes of every op, computed once (0 for an op whose count does not fit, which validate rejects).
std::vector<std::uint64_t> output_bytes_of(const FusionGraph& g) {
  std::vector<std::uint64_t> bytes(g.size());
  for (std::size_t x = 0; x < g.size(); ++x) {
    const FusionOp& op = g.op(static_cast<OpId>(x));
    bytes[x] = tensor_bytes(op.shape, op.dtype_bytes).value_or(0);
  }
  return bytes;
}

std::uint64_t written_bytes(const FusionOp& op, std::uint64_t bytes, bool resident_sources) {
  return (resident_sources && op.is_source()) ? 0 : bytes;
}

// Each op's distinct inputs read plus its output written, or nullopt when a sum passes 2^53 - 1.
std::optional<std::vector<std::uint64_t>> per_op_unfused(const FusionGraph& g, const std::vector<std::uint64_t>& bytes,
                                                         bool resident_sources) {
  std::vector<std::uint64_t> out(g.size());
  std::vector<OpId> last_reader(g.size(), -1);  // dedupes repeated inputs of one op
  for (std::size_t x = 0; x < g.size(); ++x) {
    const FusionOp& op = g.op(static_cast<OpId>(x));
    std::optional<std::uint64_t> sum = written_bytes(op, bytes[x], resident_sources);
    for (OpId in : op.inputs) {
      if (last_reader[in] == static_cast<OpId>(x)) continue;
      last_reader[in] = static_cast<OpId>(x);
      sum = add_bytes(*sum, bytes[in]);
      if (!sum) return std::nullopt;
    }
    out[x] = *sum;
  }
  return out;
}

// Per-op inputs of the time model, computed once: flops and which peak they run at.
struct OpWork {
  std::vector<std::uint64_t> flops;
  std::vector<char> matrix;
};

OpWork op_work_of(const FusionGraph& g) {
  OpWork work{std::vector<std::uint64_t>(g.size()), std::vector<char>(g.size())};
  for (std::size_t x = 0; x < g.size(); ++x) {
    work.flops[x] = op_flops(g, static_cast<OpId>(x));
    work.matrix[x] = uses_matrix_peak(g.op(static_cast<OpId>(x)).kind) ? 1 : 0;
  }
  return work;
}

// The plan's device; an unknown name (the planner rejects it) falls back to a100.
HardwareProfile hardware_of(const FusionPlan& plan) {
  if (auto profile = hardware_profile(plan.options.hardware)) return *profile;
  return *hardware_profile("a100");
}

// Fills every group's inputs (distinct producers of any member, recomputed ones included, that are not
// members) and returns which ops some group reads from memory. Reads come from producer rows built once (compact,
// unlike the ops, which a plan with recomputed copies visits several times each, out of order).
std::vector<char> collect_inputs(const FusionGraph& g, FusionPlan& plan) {
  const detail::Producers producers = detail::build_producers(g);
  std::vector<std::int32_t> member_of(g.size(), -1), last_group(g.size(), -1);
  std::vector<char> read_outside(g.size(), 0);
  for (std::size_t k = 0; k < plan.groups.size(); ++k) {
    FusionGroup& group = plan.groups[k];
    const auto stamp = static_cast<std::int32_t>(k);
    for (OpId member : group.ops) member_of[member] = stamp;
    group.inputs.clear();
    for (OpId member : group.ops)
      for (auto it = producers.begin(member); it != producers.end(member); ++it) {
        const OpId in = *it;
        if (member_of[in] == stamp) continue;
        read_outside[in] = 1;
        if (last_group[in] == stamp) continue;
        last_group[in] = stamp;
        group.inputs.push_back(in);
      }
    std::sort(group.inputs.begin(), group.inputs.end());
  }
  return read_outside;
}

// Ops that must be in memory when owned: read from outside a group that holds them, terminal, or `output`.
std::vector<char> written_ops(const FusionGraph& g, std::vector<char> read_outside) {
  std::vector<char> has_consumer(g.size(), 0);
  for (const FusionOp& op : g.ops())
    for (OpId in : op.inputs) has_consumer[in] = 1;
  for (std::size_t x = 0; x < g.size(); ++x)
    if (!has_consumer[x] || g.op(static_cast<OpId>(x)).output) read_outside[x] = 1;
  return read_outside;
}

// A group's outputs (owned members that must be written; recomputed copies never are) and its bytes.
void price_group_bytes(const FusionGraph& g, const std::vector<std::uint64_t>& bytes, const std::vector<char>& written,
                       bool resident, FusionGroup& group) {
  group.outputs.clear();
  group.bytes_read = 0;
  group.bytes_written = 0;
  for (OpId in : group.inputs) group.bytes_read = saturating_add(group.bytes_read, bytes[in]);
  auto copy = group.recomputed.begin();
  for (OpId member : group.ops) {
    while (copy != group.recomputed.end() && *copy < member) ++copy;
    if (copy != group.recomputed.end() && *copy == member) continue;
    if (!written[member]) continue;
    group.outputs.push_back(member);
    group.bytes_written = saturating_add(group.bytes_written, written_bytes(g.op(member), bytes[member], resident));
  }
}

// Does the group run a kernel, i.e. does some member compute (have inputs)? A group of sources does not.
bool runs_kernel(const FusionGraph& g, const FusionGroup& group) {
  return std::any_of(group.ops.begin(), group.ops.end(), [&](OpId x) { return !g.op(x).is_source(); });
}

// Whether a group is a kernel, its flops (every member, recomputed copies included) and time (0 when it
// is not a kernel).
void price_group_time(const FusionGraph& g, const OpWork& work, const HardwareProfile& hw, FusionGroup& group) {
  std::uint64_t vector_flops = 0, matrix_flops = 0;
  for (OpId member : group.ops) {
    std::uint64_t& sum = work.matrix[member] ? matrix_flops : vector_flops;
    sum = saturating_add(sum, work.flops[member]);
  }
  group.flops = saturating_add(vector_flops, matrix_flops);
  group.kernel = runs_kernel(g, group);
  group.time_us = group.kernel ? kernel_time_us(saturating_add(group.bytes_read, group.bytes_written), vector_flops,
                                                matrix_flops, hw)
                               : 0.0;
}

// Totals over the groups: fused bytes, flops, time and kernels.
void sum_fused(FusionPlan& plan) {
  plan.bytes_fused = 0;
  plan.flops_fused = 0;
  plan.time_fused_us = 0.0;
  plan.kernels_fused = 0;
  for (const FusionGroup& group : plan.groups) {
    plan.bytes_fused = saturating_add(plan.bytes_fused, saturating_add(group.bytes_read, group.bytes_written));
    plan.flops_fused = saturating_add(plan.flops_fused, group.flops);
    plan.time_fused_us += group.time_us;
    if (group.kernel) ++plan.kernels_fused;
  }
}

// Totals with one kernel per non-source op: unfused bytes, flops, time and kernels.
void sum_unfused(const FusionGraph& g, const OpWork& work, const HardwareProfile& hw, FusionPlan& plan) {
  plan.bytes_unfused = 0;
  plan.flops_unfused = 0;
  plan.time_unfused_us = 0.0;
  plan.kernels_unfused = 0;
  for (std::size_t x = 0; x < g.size(); ++x) {
    const std::uint64_t flops = work.flops[x];
    plan.bytes_unfused = saturating_add(plan.bytes_unfused, plan.op_bytes_unfused[x]);
    plan.flops_unfused = saturating_add(plan.flops_unfused, flops);
    if (g.op(static_cast<OpId>(x)).is_source()) continue;
    plan.time_unfused_us += kernel_time_us(plan.op_bytes_unfused[x], work.matrix[x] ? 0 : flops,
                                           work.matrix[x] ? flops : 0, hw);
    ++plan.kernels_unfused;
  }
}

double ratio_or_one(double unfused, double fused) { return fused == 0.0 ? 1.0 : unfused / fused; }

}  // namespace

std::uint64_t op_bytes_unfused(const FusionGraph& g, OpId id, bool resident_sources) {
  const FusionOp& op = g.op(id);
  std::uint64_t total = written_bytes(op, tensor_bytes(op.shape, op.dtype_bytes).value_or(0), resident_sources);
  std::vector<OpId> seen;
  for (OpId in : op.inputs) {
    if (std::find(seen.begin(), seen.end(), in) != seen.end()) continue;
    seen.push_back(in);
    total += tensor_bytes(g.op(in).shape, g.op(in).dtype_bytes).value_or(0);
  }
  return total;
}

std::optional<std::uint64_t> unfused_bytes(const FusionGraph& g, bool resident_sources) {
  const auto per_op = per_op_unfused(g, output_bytes_of(g), resident_sources);
  if (!per_op) return std::nullopt;
  std::uint64_t total = 0;
  for (std::uint64_t b : *per_op)
    if (const auto sum = add_bytes(total, b)) total = *sum;
    else return std::nullopt;
  return total;
}

namespace {

// Each group's unfused bytes (of the ops it owns; an op left only as copies goes to the first group that
// recomputes it) and its saving, so the savings of all groups add up to bytes_unfused - bytes_fused.
void attribute_savings(const FusionGraph& g, FusionPlan& plan) {
  std::vector<char> owned(g.size(), 0), counted(g.size(), 0);
  // Both lists ascending: a member is a copy when the walk over recomputed stops on it.
  auto for_each_member = [](const FusionGroup& group, auto&& visit) {
    auto copy = group.recomputed.begin();
    for (OpId member : group.ops) {
      while (copy != group.recomputed.end() && *copy < member) ++copy;
      visit(member, copy != group.recomputed.end() && *copy == member);
    }
  };
  for (const FusionGroup& group : plan.groups)
    for_each_member(group, [&](OpId member, bool copy) {
      if (!copy) owned[member] = 1;
    });
  for (FusionGroup& group : plan.groups) {
    group.bytes_unfused = 0;
    for_each_member(group, [&](OpId member, bool copy) {
      if ((copy && owned[member]) || counted[member]) return;
      counted[member] = 1;
      group.bytes_unfused = saturating_add(group.bytes_unfused, plan.op_bytes_unfused[member]);
    });
    group.bytes_saved = static_cast<std::int64_t>(group.bytes_unfused) -
                        static_cast<std::int64_t>(saturating_add(group.bytes_read, group.bytes_written));
  }
}

}  // namespace

void price_plan(const FusionGraph& g, FusionPlan& plan) {
  const bool resident = plan.options.resident_sources;
  const std::vector<std::uint64_t> bytes = output_bytes_of(g);
  const OpWork work = op_work_of(g);
  const HardwareProfile hw = hardware_of(plan);
  const std::vector<char> written = written_ops(g, collect_inputs(g, plan));
  for (FusionGroup& group : plan.groups) {
    price_group_bytes(g, bytes, written, resident, group);
    price_group_time(g, work, hw, group);
  }
  sum_fused(plan);
  plan.op_bytes_unfused = per_op_unfused(g, bytes, resident).value_or(std::vector<std::uint64_t>(g.size(), 0));
  sum_unfused(g, work, hw, plan);
  attribute_savings(g, plan);
  plan.speedup_estimate = ratio_or_one(static_cast<double>(plan.bytes_unfused), static_cast<double>(plan.bytes_fused));
  plan.time_speedup = ratio_or_one(plan.time_unfused_us, plan.time_fused_us);
}

}  // namespace fusion
