// verify/traffic.cpp — what each group reads and writes, recomputed from the members alone; the group graph
// those reads make (acyclic); and the byte counts, totals and kernel counts checked against the plan.
//
// With recomputation: a group reads every non-member that a member (owned or recomputed) reads; it writes
// the owned members that some group not holding them reads, that have no consumer, or that are marked
// `output`. Recomputed copies are never written, so an op that exists only as copies must never be read
// from memory nor be marked `output`.
#include <algorithm>
#include <cmath>

#include "verify/context.h"

namespace fusion::verifier {
namespace {

// Inputs of every group, and per op the first group that reads it from memory (-1 when none does).
std::vector<std::int32_t> collect_inputs(Context& c) {
  std::vector<std::int32_t> first_reader(c.g.size(), -1);
  for (const FusionGroup& group : c.plan.groups) {
    std::vector<OpId>& inputs = c.io[static_cast<std::size_t>(group.id)].inputs;
    for (OpId member : group.ops)
      for (OpId in : c.producers[static_cast<std::size_t>(member)]) {
        if (c.holds(group.id, in)) continue;
        inputs.push_back(in);
        if (first_reader[in] < 0) first_reader[in] = group.id;
      }
    std::sort(inputs.begin(), inputs.end());
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
  }
  return first_reader;
}

// An op that only exists as copies has nobody to write it.
void check_unwritten(Context& c, const std::vector<std::int32_t>& first_reader) {
  for (std::size_t x = 0; x < c.g.size(); ++x) {
    if (c.owner[x] >= 0) continue;
    const auto id = static_cast<OpId>(x);
    if (first_reader[x] >= 0)
      c.fail("recompute",
             op_text(c.g, id) + " exists only as recomputed copies, but group " +
                 std::to_string(first_reader[x]) + " reads it from memory, where nothing writes it",
             first_reader[x], id);
    if (c.g.op(id).output)
      c.fail("recompute",
             op_text(c.g, id) +
                 " is marked output but exists only as recomputed copies, which are "
                 "never written",
             c.group_of(id), id);
  }
}

std::uint64_t written_bytes(const Context& c, OpId x) {
  return (c.options.resident_sources && c.g.op(x).is_source()) ? 0 : c.bytes_of(x);
}

}  // namespace

void derive_group_io(Context& c) {
  c.io.assign(c.plan.groups.size(), {});
  const std::vector<std::int32_t> first_reader = collect_inputs(c);
  check_unwritten(c, first_reader);
  for (const FusionGroup& group : c.plan.groups) {
    GroupIo& io = c.io[static_cast<std::size_t>(group.id)];
    for (OpId x : io.inputs) io.read += c.bytes_of(x);
    for (OpId x : group.ops) {
      if (c.owner[x] != group.id) continue;
      if (first_reader[x] < 0 && !c.readers[x].empty() && !c.g.op(x).output) continue;
      io.outputs.push_back(x);
      io.written += written_bytes(c, x);
    }
  }
}

// Kahn's algorithm over the groups; a group depends on the owner of every tensor it reads from memory.
void check_acyclic(Context& c) {
  const std::size_t groups = c.plan.groups.size();
  std::vector<std::vector<std::int32_t>> next(groups);
  for (std::size_t h = 0; h < groups; ++h)
    for (OpId in : c.io[h].inputs)
      if (c.owner[in] >= 0)
        next[static_cast<std::size_t>(c.owner[in])].push_back(static_cast<std::int32_t>(h));
  std::vector<int> indegree(groups, 0);
  for (auto& targets : next) {
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    for (std::int32_t t : targets) ++indegree[t];
  }
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
    c.fail("cycle", "the group graph has a cycle through " + std::to_string(groups - ordered) +
                        " groups; some group has a barrier between two of its halves");
}

namespace {

void check_group_bytes(Context& c, const FusionGroup& group) {
  const GroupIo& io = c.io[static_cast<std::size_t>(group.id)];
  const std::string name = "group " + std::to_string(group.id);
  if (group.inputs != io.inputs)
    c.fail("inputs",
           name + " lists inputs " + list_to_string(group.inputs) + " but its members read " +
               list_to_string(io.inputs) + " from outside it",
           group.id);
  if (group.outputs != io.outputs)
    c.fail("outputs",
           name + " lists outputs " + list_to_string(group.outputs) +
               " but the owned members read "
               "outside, terminal or marked output are " +
               list_to_string(io.outputs),
           group.id);
  if (group.bytes_read != io.read || group.bytes_written != io.written)
    c.fail("bytes",
           name + " reports " + std::to_string(group.bytes_read) + " bytes read and " +
               std::to_string(group.bytes_written) + " written; the model gives " + std::to_string(io.read) +
               " and " + std::to_string(io.written),
           group.id);
}

void check_op_bytes(Context& c, std::uint64_t& unfused, std::int64_t& kernels) {
  if (c.plan.op_bytes_unfused.size() != c.g.size())
    c.fail("totals", "op_bytes_unfused has " + std::to_string(c.plan.op_bytes_unfused.size()) +
                         " entries for " + std::to_string(c.g.size()) + " ops");
  for (std::size_t x = 0; x < c.g.size(); ++x) {
    const std::uint64_t bytes = c.unfused_bytes_of(static_cast<OpId>(x));
    unfused += bytes;
    if (!c.g.op(static_cast<OpId>(x)).is_source()) ++kernels;
    if (x < c.plan.op_bytes_unfused.size() && c.plan.op_bytes_unfused[x] != bytes)
      c.fail("totals",
             "op_bytes_unfused of op " + std::to_string(x) + " is " +
                 std::to_string(c.plan.op_bytes_unfused[x]) + "; the model gives " + std::to_string(bytes),
             {}, static_cast<std::int64_t>(x));
  }
}

// Per group: the unfused bytes of the ops it owns (op_group) and the saving against its fused bytes.
void check_savings(Context& c) {
  std::vector<std::uint64_t> owned(c.plan.groups.size(), 0);
  for (std::size_t x = 0; x < c.g.size() && x < c.plan.op_group.size(); ++x) {
    const std::int32_t k = c.plan.op_group[x];
    if (k >= 0 && static_cast<std::size_t>(k) < owned.size()) owned[static_cast<std::size_t>(k)] += c.unfused_bytes_of(static_cast<OpId>(x));
  }
  for (const FusionGroup& group : c.plan.groups) {
    const std::size_t k = static_cast<std::size_t>(group.id);
    if (k >= owned.size()) continue;
    const std::int64_t saved = static_cast<std::int64_t>(owned[k]) - static_cast<std::int64_t>(c.io[k].read + c.io[k].written);
    if (group.bytes_unfused != owned[k] || group.bytes_saved != saved)
      c.fail("bytes",
             "group " + std::to_string(group.id) + " reports " + std::to_string(group.bytes_unfused) +
                 " bytes unfused and " + std::to_string(group.bytes_saved) + " saved; its ops give " +
                 std::to_string(owned[k]) + " and " + std::to_string(saved),
             group.id);
  }
}

}  // namespace

void check_bytes(Context& c) {
  std::uint64_t fused = 0, unfused = 0;
  std::int64_t kernels_fused = 0, kernels_unfused = 0;
  for (const FusionGroup& group : c.plan.groups) {
    check_group_bytes(c, group);
    fused += c.io[static_cast<std::size_t>(group.id)].read + c.io[static_cast<std::size_t>(group.id)].written;
    const bool kernel = c.runs_kernel(group);
    if (group.kernel != kernel)
      c.fail("kernels", "group " + std::to_string(group.id) + " says kernel " + (group.kernel ? "true" : "false") +
                            "; " + (kernel ? "a member has inputs, so it runs a kernel" : "it holds only sources, so it runs none"),
             group.id);
    if (kernel) ++kernels_fused;
  }
  check_op_bytes(c, unfused, kernels_unfused);
  check_savings(c);
  const FusionPlan& p = c.plan;
  if (p.bytes_unfused != unfused)
    c.fail("totals", "bytes_unfused is " + std::to_string(p.bytes_unfused) + "; the model gives " +
                         std::to_string(unfused));
  if (p.bytes_fused != fused)
    c.fail("totals", "bytes_fused is " + std::to_string(p.bytes_fused) + "; the groups add up to " +
                         std::to_string(fused));
  const bool may_duplicate = c.procedure == Procedure::xla || c.procedure == Procedure::inductor;
  if (fused > unfused && !may_duplicate)  // xla and inductor recompute producers in several kernels, as they do
    c.fail("totals",
           "fused bytes " + std::to_string(fused) + " exceed unfused bytes " + std::to_string(unfused));
  const double speedup = fused == 0 ? 1.0 : static_cast<double>(unfused) / static_cast<double>(fused);
  if (std::fabs(p.speedup_estimate - speedup) > 1e-9 * std::max(1.0, speedup))
    c.fail("totals", "speedup_estimate is " + std::to_string(p.speedup_estimate) + "; bytes give " +
                         std::to_string(speedup));
  if (p.kernels_unfused != kernels_unfused || p.kernels_fused != kernels_fused)
    c.fail("totals", "kernel counts are " + std::to_string(p.kernels_unfused) + " -> " +
                         std::to_string(p.kernels_fused) + "; the plan gives " +
                         std::to_string(kernels_unfused) + " -> " + std::to_string(kernels_fused));
}

}  // namespace fusion::verifier
