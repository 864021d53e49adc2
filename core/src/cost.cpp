// cost.cpp — unfused and fused bytes, per op, per group and in total.
#include "fusion/cost.h"

#include <algorithm>

namespace fusion {
namespace {

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

void price_plan(const FusionGraph& g, FusionPlan& plan) {
  const bool resident = plan.options.resident_sources;
  const std::vector<std::uint64_t> bytes = output_bytes_of(g);
  const std::vector<std::int32_t>& group_of = plan.op_group;
  std::vector<char> is_output(g.size(), 0), has_consumer(g.size(), 0);
  std::vector<std::int32_t> last_group(g.size(), -1);  // dedupes external inputs per group
  plan.bytes_fused = 0;
  plan.kernels_fused = 0;
  for (FusionGroup& group : plan.groups) {
    group.inputs.clear();
    for (OpId member : group.ops)
      for (OpId in : g.op(member).inputs) {
        has_consumer[in] = 1;
        if (group_of[in] == group.id) continue;
        is_output[in] = 1;
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
    for (OpId in : group.inputs) group.bytes_read += bytes[in];
    bool all_sources = true;
    for (OpId member : group.ops) {
      all_sources = all_sources && g.op(member).is_source();
      if (!is_output[member] && has_consumer[member]) continue;
      group.outputs.push_back(member);
      group.bytes_written += written_bytes(g.op(member), bytes[member], resident);
    }
    plan.bytes_fused += group.bytes_read + group.bytes_written;
    if (!all_sources) ++plan.kernels_fused;
  }
  plan.op_bytes_unfused = per_op_unfused(g, bytes, resident).value_or(std::vector<std::uint64_t>(g.size(), 0));
  plan.bytes_unfused = 0;
  plan.kernels_unfused = 0;
  for (std::size_t x = 0; x < g.size(); ++x) {
    plan.bytes_unfused += plan.op_bytes_unfused[x];
    plan.kernels_unfused += g.op(static_cast<OpId>(x)).is_source() ? 0 : 1;
  }
  plan.speedup_estimate = plan.bytes_fused == 0 ? 1.0
                                                : static_cast<double>(plan.bytes_unfused) /
                                                      static_cast<double>(plan.bytes_fused);
}

}  // namespace fusion
