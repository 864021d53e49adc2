// codegen/kernel.cpp — kernels from groups and from single ops, and their stages (codegen/kernel.h).
#include "codegen/kernel.h"

#include <algorithm>
#include <queue>

#include "codegen/semantics.h"
#include "detail/internal_check.h"
#include "fusion/strategy.h"

namespace fusion::codegen {

GraphFacts::GraphFacts(const FusionGraph& graph) : g(graph) {
  const std::size_t n = g.size();
  producers.resize(n);
  readers.resize(n);
  std::vector<OpId> last(n, -1);
  std::vector<std::int32_t> pending(n, 0);
  for (std::size_t x = 0; x < n; ++x)
    for (OpId in : g.op(static_cast<OpId>(x)).inputs) {
      if (last[in] == static_cast<OpId>(x)) continue;
      last[in] = static_cast<OpId>(x);
      producers[x].push_back(in);
      readers[in].push_back(static_cast<OpId>(x));
      ++pending[x];
    }
  // Kahn's algorithm, smallest ready id first (docs/design.md §6).
  std::priority_queue<OpId, std::vector<OpId>, std::greater<>> ready;
  for (std::size_t x = 0; x < n; ++x)
    if (pending[x] == 0) ready.push(static_cast<OpId>(x));
  position.assign(n, 0);
  while (!ready.empty()) {
    const OpId x = ready.top();
    ready.pop();
    position[x] = static_cast<std::int64_t>(order.size());
    order.push_back(x);
    for (OpId r : readers[x])
      if (--pending[r] == 0) ready.push(r);
  }
  FUSION_CHECK(order.size() == n, "a validated graph has a topological order");
}

std::uint64_t GraphFacts::elements(OpId x) const { return shape_elements(g.op(x).shape).value_or(0); }
std::uint64_t GraphFacts::bytes(OpId x) const {
  return tensor_bytes(g.op(x).shape, g.op(x).dtype_bytes).value_or(0);
}

std::int64_t Kernel::member_index(OpId x) const {
  const auto it = std::lower_bound(members.begin(), members.end(), x);
  return (it != members.end() && *it == x) ? it - members.begin() : -1;
}

bool Kernel::is_output(OpId x) const { return std::binary_search(outputs.begin(), outputs.end(), x); }

bool is_loop_member(const FusionOp& op) {
  return !op.inputs.empty() && (is_fusible(op.kind) || is_reduction_kind(op.kind));
}

namespace {

// The shape a loop member iterates: its own, or for a reduction its first input's.
const Shape& loop_shape(const FusionGraph& g, OpId x) {
  const FusionOp& op = g.op(x);
  return is_reduction_kind(op.kind) ? g.op(op.inputs.front()).shape : op.shape;
}

// Members in topological order.
std::vector<OpId> topo_members(const GraphFacts& f, const Kernel& k) {
  std::vector<OpId> ops = k.members;
  std::sort(ops.begin(), ops.end(), [&](OpId a, OpId b) { return f.position[a] < f.position[b]; });
  return ops;
}

// Earliest stage a loop member may join: after every producer's stage, or in it when the producer is an
// elementwise member of the same loop (its value is then a register).
std::int32_t earliest_stage(const GraphFacts& f, const Kernel& k, OpId x) {
  std::int32_t at = 0;
  for (OpId p : f.producers[x]) {
    const std::int64_t i = k.member_index(p);
    if (i < 0) continue;
    const std::int32_t s = k.stage_of[static_cast<std::size_t>(i)];
    const bool same_loop = is_fusible(f.g.op(p).kind) && k.stages[static_cast<std::size_t>(s)].kind == StageKind::loop &&
                           k.stages[static_cast<std::size_t>(s)].shape == loop_shape(f.g, x);
    at = std::max(at, same_loop ? s : s + 1);
  }
  return at;
}

void place_members(const GraphFacts& f, Kernel& k) {
  k.stage_of.assign(k.members.size(), -1);
  for (OpId x : topo_members(f, k)) {
    const FusionOp& op = f.g.op(x);
    std::int32_t chosen = -1;
    if (is_loop_member(op)) {
      const Shape& shape = loop_shape(f.g, x);
      for (auto s = static_cast<std::size_t>(earliest_stage(f, k, x)); s < k.stages.size() && chosen < 0; ++s)
        if (k.stages[s].kind == StageKind::loop && k.stages[s].shape == shape) chosen = static_cast<std::int32_t>(s);
      if (chosen < 0) k.stages.push_back({StageKind::loop, shape, {}});
    } else {
      k.stages.push_back({StageKind::barrier, op.shape, {}});
    }
    if (chosen < 0) chosen = static_cast<std::int32_t>(k.stages.size() - 1);
    k.stages[static_cast<std::size_t>(chosen)].ops.push_back(x);
    k.stage_of[static_cast<std::size_t>(k.member_index(x))] = chosen;
  }
}

// Reductions and barrier results always live in scratch; an elementwise value does when a member of another
// stage reads it.
void assign_scratch(const GraphFacts& f, Kernel& k) {
  k.in_scratch.assign(k.members.size(), false);
  k.scratch_at.assign(k.members.size(), 0);
  for (std::size_t i = 0; i < k.members.size(); ++i) {
    const OpId x = k.members[i];
    bool keep = !is_fusible(f.g.op(x).kind);
    for (OpId r : f.readers[x]) {
      const std::int64_t j = k.member_index(r);
      if (j >= 0 && k.stage_of[static_cast<std::size_t>(j)] != k.stage_of[i]) keep = true;
    }
    if (f.g.op(x).inputs.empty()) keep = false;  // a source member is read from its buffer
    k.in_scratch[i] = keep;
  }
  for (std::size_t i = 0; i < k.members.size(); ++i)
    if (k.in_scratch[i]) {
      // A member computed in double (codegen/semantics.h CValue) takes two floats an element, 8-byte aligned.
      const bool wide = c_value(f.g.op(k.members[i])).wide;
      k.scratch_floats += wide && k.scratch_floats % 2 ? 1 : 0;
      k.scratch_at[i] = k.scratch_floats;
      k.scratch_floats += f.elements(k.members[i]) * (wide ? 2 : 1);
    }
}

void build_stages(const GraphFacts& f, Kernel& k) {
  k.fill = std::all_of(k.members.begin(), k.members.end(), [&](OpId x) { return f.g.op(x).inputs.empty(); });
  if (k.fill) {
    k.stage_of.assign(k.members.size(), -1);
    k.in_scratch.assign(k.members.size(), false);
    k.scratch_at.assign(k.members.size(), 0);
    return;
  }
  place_members(f, k);
  assign_scratch(f, k);
}

void collect_inputs(const GraphFacts& f, Kernel& k) {
  for (OpId x : k.members)
    for (OpId p : f.producers[x])
      if (!k.is_member(p)) k.inputs.push_back(p);
  std::sort(k.inputs.begin(), k.inputs.end());
  k.inputs.erase(std::unique(k.inputs.begin(), k.inputs.end()), k.inputs.end());
}

}  // namespace

std::vector<bool> read_from_memory(const GraphFacts& f, const FusionPlan& plan) {
  std::vector<bool> read(f.g.size(), false);
  for (const FusionGroup& group : plan.groups)
    for (OpId x : group.ops)
      for (OpId p : f.producers[x])
        if (!std::binary_search(group.ops.begin(), group.ops.end(), p)) read[p] = true;
  return read;
}

Kernel group_kernel(const GraphFacts& f, const FusionPlan& plan, std::int32_t group, const std::vector<bool>& read) {
  const FusionGroup& g = plan.groups[static_cast<std::size_t>(group)];
  Kernel k;
  k.name = "group_" + std::to_string(group);
  k.group = group;
  k.members = g.ops;
  k.recomputed = g.recomputed;
  k.resident_sources = plan.options.resident_sources;
  collect_inputs(f, k);
  for (OpId x : k.members) {
    if (is_recomputed(g, x)) continue;
    if (read[x] || f.readers[x].empty() || f.g.op(x).output) k.outputs.push_back(x);
  }
  build_stages(f, k);
  return k;
}

Kernel op_kernel(const GraphFacts& f, OpId op) {
  Kernel k;
  k.name = "op_" + std::to_string(op);
  k.members = {op};
  k.outputs = {op};
  collect_inputs(f, k);
  build_stages(f, k);
  return k;
}

}  // namespace fusion::codegen
