// cost.cpp — unfused and fused bytes, per group and in total.
#include "fusion/cost.h"

#include <algorithm>

#include "detail/topology.h"

namespace fusion {
namespace {

std::uint64_t output_bytes(const FusionOp& op) { return tensor_bytes(op.shape, op.dtype_bytes).value_or(0); }

std::uint64_t written_bytes(const FusionOp& op, bool resident_sources) {
  return (resident_sources && op.is_source()) ? 0 : output_bytes(op);
}

}  // namespace

std::uint64_t op_bytes_unfused(const FusionGraph& g, OpId id, bool resident_sources) {
  const FusionOp& op = g.op(id);
  std::uint64_t bytes = written_bytes(op, resident_sources);
  for (OpId in : detail::distinct_inputs(op)) bytes += output_bytes(g.op(in));
  return bytes;
}

std::optional<std::uint64_t> unfused_bytes(const FusionGraph& g, bool resident_sources) {
  std::uint64_t total = 0;
  std::vector<OpId> last_reader(g.size(), -1);  // dedupes repeated inputs of one op
  for (std::size_t x = 0; x < g.size(); ++x) {
    const FusionOp& op = g.op(static_cast<OpId>(x));
    auto sum = add_bytes(total, written_bytes(op, resident_sources));
    for (OpId in : op.inputs) {
      if (!sum) break;
      if (last_reader[in] == static_cast<OpId>(x)) continue;
      last_reader[in] = static_cast<OpId>(x);
      sum = add_bytes(*sum, output_bytes(g.op(in)));
    }
    if (!sum) return std::nullopt;
    total = *sum;
  }
  return total;
}

void price_plan(const FusionGraph& g, FusionPlan& plan) {
  const bool resident = plan.options.resident_sources;
  const std::vector<std::int32_t>& group_of = plan.op_group;
  std::vector<bool> is_output(g.size(), false);
  std::vector<bool> has_consumer(g.size(), false);
  std::vector<std::int32_t> last_group(g.size(), -1);  // dedupes external inputs per group
  plan.bytes_fused = 0;
  plan.kernels_fused = 0;
  for (FusionGroup& group : plan.groups) {
    group.inputs.clear();
    for (OpId member : group.ops)
      for (OpId in : g.op(member).inputs) {
        has_consumer[in] = true;
        if (group_of[in] == group.id) continue;
        is_output[in] = true;
        if (last_group[in] == group.id) continue;
        last_group[in] = group.id;
        group.inputs.push_back(in);
      }
    std::sort(group.inputs.begin(), group.inputs.end());
  }
  for (FusionGroup& group : plan.groups) {
    group.outputs.clear();
    group.bytes_read = 0;
    group.bytes_written = 0;
    for (OpId in : group.inputs) group.bytes_read += output_bytes(g.op(in));
    bool all_sources = true;
    for (OpId member : group.ops) {
      all_sources = all_sources && g.op(member).is_source();
      if (!is_output[member] && has_consumer[member]) continue;
      group.outputs.push_back(member);
      group.bytes_written += written_bytes(g.op(member), resident);
    }
    plan.bytes_fused += group.bytes_read + group.bytes_written;
    if (!all_sources) ++plan.kernels_fused;
  }
  plan.op_bytes_unfused.resize(g.size());
  for (std::size_t x = 0; x < g.size(); ++x) plan.op_bytes_unfused[x] = op_bytes_unfused(g, static_cast<OpId>(x), resident);
  plan.bytes_unfused = unfused_bytes(g, resident).value_or(0);
  plan.kernels_unfused = static_cast<std::int64_t>(
      std::count_if(g.ops().begin(), g.ops().end(), [](const FusionOp& op) { return !op.is_source(); }));
  plan.speedup_estimate = plan.bytes_fused == 0 ? 1.0
                                                : static_cast<double>(plan.bytes_unfused) /
                                                      static_cast<double>(plan.bytes_fused);
}

}  // namespace fusion
