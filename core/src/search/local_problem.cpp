// search/local_problem.cpp — builds the bitmask view of one part (local_problem.h), for the three widths.
#include "search/local_problem.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "detail/strategy_legality.h"
#include "fusion/strategy.h"
#include "fusion/time_model.h"
#include "presets/xla_kinds.h"

namespace fusion::search {
namespace {

// Fills via[i] for every member: a breadth-first walk over outside ops that stops at members and at ops
// after the part's last member (they cannot lead back). False when the step budget runs out.
template <std::size_t W>
bool find_outside_paths(const detail::Consumers& consumers, const std::unordered_map<OpId, int>& local,
                        const std::vector<std::int64_t>& position, std::int64_t last_position, LocalProblem<W>& p) {
  std::int64_t steps = 0;
  std::vector<OpId> queue;
  std::unordered_map<OpId, int> seen;  // outside op -> the member whose walk saw it last
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    queue.clear();
    auto visit_consumers = [&](OpId x, bool from_member) {
      for (const OpId* c = consumers.begin(x); c != consumers.end(x); ++c) {
        if (++steps > kMaxOutsideSteps) return false;
        if (const auto it = local.find(*c); it != local.end()) {
          if (!from_member) p.via[i].set(static_cast<std::size_t>(it->second));
          continue;
        }
        if (position[*c] > last_position) continue;
        auto [slot, fresh] = seen.try_emplace(*c, static_cast<int>(i));
        if (!fresh && slot->second == static_cast<int>(i)) continue;
        slot->second = static_cast<int>(i);
        queue.push_back(*c);
      }
      return true;
    };
    if (!visit_consumers(p.ops[i], true)) return false;
    for (std::size_t head = 0; head < queue.size(); ++head)
      if (!visit_consumers(queue[head], false)) return false;
  }
  return true;
}

// Per member, every member some path from it reaches (direct[] and via[] closed; local indices are topological,
// so one pass from the last member).
template <std::size_t W>
std::vector<Bits<W>> reachable(const LocalProblem<W>& p) {
  std::vector<Bits<W>> reach(p.ops.size());
  for (std::size_t i = p.ops.size(); i-- > 0;) {
    Bits<W> all = p.direct[i] | p.via[i];
    (p.direct[i] | p.via[i]).each([&](std::size_t j) { all |= reach[j]; });
    reach[i] = all;
  }
  return reach;
}

// tvm: members no other member post-dominates (every path from them to a write passes through it). A member
// that is not a root has all its readers in its group, and so does each of them but the root: the root post-dominates
// it. So these are roots in every partition. Post-dominators of a DAG from the last member back (local indices are
// topological): a member written (forced) has only the exit; another's immediate post-dominator is the lowest
// common one of its readers'.
template <std::size_t W>
void find_unpostdominated(LocalProblem<W>& p) {
  const std::size_t k = p.ops.size();
  constexpr std::size_t exit = static_cast<std::size_t>(-1);
  std::vector<std::size_t> parent(k, exit), depth(k, 0);
  const auto common = [&](std::size_t a, std::size_t b) {
    while (a != b) {
      if (a == exit || b == exit) return exit;
      if (depth[a] < depth[b]) std::swap(a, b);
      a = parent[a];
    }
    return a;
  };
  for (std::size_t i = k; i-- > 0;) {
    if (p.forced_write[i] || !p.direct[i].any()) {
      p.unpostdominated.set(i);
      continue;
    }
    std::size_t at = p.direct[i].first();
    p.direct[i].each([&](std::size_t r) { at = common(at, r); });
    parent[i] = at;
    depth[i] = at == exit ? 0 : depth[at] + 1;
    if (at == exit) p.unpostdominated.set(i);
  }
}

// Inductor: each member's node kind and range, and its own flops and closure's inlined ops (each flop counted
// on the planned graph: the scheduler graph's ops only say what they read).
template <std::size_t W>
void add_inductor_data(const SearchSpace& space, LocalProblem<W>& p) {
  const presets::SchedulerGraph& l = *space.lowered;
  const FusionGraph& g = *space.original;
  std::unordered_map<OpId, std::uint32_t> inlined_index;
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const OpId x = p.ops[i];
    p.node.push_back(l.node[x]);
    p.range.push_back(l.range[x]);
    if (l.node[x] == presets::InductorNode::template_kernel) p.templates.set(i);
    if (l.node[x] == presets::InductorNode::reduction) p.reductions.set(i);
    p.inlined.emplace_back();
    for (OpId y : l.closure(x)) {
      const std::uint64_t flops = op_flops(g, y);
      const bool matrix = uses_matrix_peak(g.op(y).kind);
      if (y == l.original[x]) {
        p.vector_flops[i] = matrix ? 0 : flops;
        p.matrix_flops[i] = matrix ? flops : 0;
        continue;
      }
      const auto [it, fresh] = inlined_index.try_emplace(y, static_cast<std::uint32_t>(p.inlined_vector_flops.size()));
      if (fresh) {
        p.inlined_vector_flops.push_back(matrix ? 0 : flops);
        p.inlined_matrix_flops.push_back(matrix ? flops : 0);
      }
      p.inlined[i].push_back(it->second);
    }
  }
}

// xla: each member's role facts, elements and sibling key (local_problem.h).
template <std::size_t W>
void add_xla_data(const SearchSpace& space, const std::unordered_map<OpId, int>& local, LocalProblem<W>& p) {
  using presets::XlaRole;
  p.max_operands = space.max_operands;
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const FusionOp& op = space.graph.op(p.ops[i]);
    const XlaRole role = presets::xla_role(space.graph, p.ops[i]);
    if (role == XlaRole::reduction) p.reductions.set(i);
    if (role == XlaRole::loop && is_fusible(op.kind)) p.elementwise.set(i);
    if (op.kind == OpKind::reshape) p.reshapes.set(i);
    int inplace = -1;
    if (role == XlaRole::scatter) {
      p.scatters.set(i);
      if (const auto it = local.find(op.inputs.front()); it != local.end()) inplace = it->second;
    }
    p.inplace.push_back(inplace);
    p.elements.push_back(shape_elements(op.shape).value_or(0));
    p.sibling.push_back(space.sibling_key(p.ops[i]));
  }
}

// engine: the member facts and rule limits the group rules need (local_problem.h).
template <std::size_t W>
void add_engine_data(const SearchSpace& space, const detail::Producers& producers,
                     const std::unordered_map<OpId, int>& local, LocalProblem<W>& p) {
  const StrategyRules& rules = *space.rules;
  p.max_operands = rules.max_group_operands;
  p.max_live = rules.max_live_values;
  p.horizontal = rules.horizontal;
  p.small_bytes = rules.horizontal_small_bytes;
  p.inputs.assign(p.ops.size(), {});
  p.outside_elements.assign(p.ops.size(), 0);
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const FusionOp& op = space.graph.op(p.ops[i]);
    p.elements.push_back(shape_elements(op.shape).value_or(0));
    if (is_heavy_kind(op.kind)) p.heavy.set(i);
    if (is_reduction_kind(op.kind)) p.reductions.set(i);
    if (is_anchor_kind(op.kind)) p.anchors.set(i);
    if (is_movement_kind(op.kind)) p.movement.set(i);
    for (const OpId* in = producers.begin(p.ops[i]); in != producers.end(p.ops[i]); ++in) {
      if (const auto it = local.find(*in); it != local.end()) p.inputs[i].set(static_cast<std::size_t>(it->second));
      else p.outside_elements[i] = std::max(p.outside_elements[i], shape_elements(space.graph.op(*in).shape).value_or(0));
    }
  }
}

// The space's own data (local_problem.h): kind, limit, device, flops, tvm patterns, inductor nodes, xla facts.
template <std::size_t W>
void add_space_data(const SearchSpace& space, const std::unordered_map<OpId, int>& local, LocalProblem<W>& p) {
  p.kind = space.kind;
  p.max_depth = space.max_depth;
  p.hardware = space.hardware;
  if (space.kind == SpaceKind::engine) p.max_depth = space.rules->max_group_ops;
  if (!space.timed()) return;
  p.vector_flops.assign(p.ops.size(), 0);
  p.matrix_flops.assign(p.ops.size(), 0);
  if (space.kind == SpaceKind::inductor) return add_inductor_data(space, p);
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const FusionOp& op = space.graph.op(p.ops[i]);
    const std::uint64_t flops = op_flops(space.graph, p.ops[i]);
    (uses_matrix_peak(op.kind) ? p.matrix_flops[i] : p.vector_flops[i]) = flops;
    if (space.kind != SpaceKind::tvm) continue;
    const presets::TvmPattern pattern = presets::tvm_pattern(op.kind);
    p.pattern.push_back(pattern);
    if (pattern >= presets::TvmPattern::comm_reduce) p.heavy.set(i);
    if (pattern == presets::TvmPattern::out_ewise_fusable) p.out_ewise.set(i);
  }
  if (space.kind == SpaceKind::xla) add_xla_data(space, local, p);
}

// For each buffer (a member or an outside op) read by two or more members: its readers, ascending.
template <std::size_t W>
std::vector<std::vector<int>> readers_of(const LocalProblem<W>& p) {
  std::vector<std::vector<int>> out;
  auto add = [&out](const Bits<W>& readers) {
    if (readers.count() < 2) return;
    std::vector<int>& list = out.emplace_back();
    readers.each([&list](std::size_t r) { list.push_back(static_cast<int>(r)); });
  };
  for (const Bits<W>& readers : p.consumers) add(readers);
  for (const OutsideRead<W>& read : p.outside_reads) add(read.readers);
  return out;
}

// xla: for each op (a member or an outside op) that reads two or more members, those members, ascending.
template <std::size_t W>
std::vector<std::vector<int>> read_together(const detail::Consumers& consumers, const LocalProblem<W>& p) {
  std::map<OpId, Bits<W>> by_reader;  // ordered: a deterministic list
  for (std::size_t i = 0; i < p.ops.size(); ++i)
    for (const OpId* c = consumers.begin(p.ops[i]); c != consumers.end(p.ops[i]); ++c) by_reader[*c].set(i);
  std::vector<std::vector<int>> out;
  for (const auto& [reader, members] : by_reader) {
    if (!members.several()) continue;
    std::vector<int>& list = out.emplace_back();
    members.each([&list](std::size_t r) { list.push_back(static_cast<int>(r)); });
  }
  return out;
}

// xla: reach[i], every member a path from member i reaches (before any duplication, so copies count too); and which
// members may exist only as copies (xla_duplication.h): loop ops, not graph outputs, read
// only inside the part, by members each of which it may fuse into.
template <std::size_t W>
void add_xla_closures(const SearchSpace& space, LocalProblem<W>& p) {
  const std::size_t k = p.ops.size();
  p.reach = reachable(p);
  for (std::size_t i = 0; i < k; ++i) {
    if (p.forced_write[i] || !p.consumers[i].any()) continue;
    if (presets::xla_role(space.graph, p.ops[i]) != presets::XlaRole::loop) continue;
    bool fuses = true;
    p.consumers[i].each([&](std::size_t r) { fuses = fuses && space.fusible(p.ops[i], p.ops[r]); });
    if (fuses) p.duplicable.set(i);
  }
  p.duplicated = {};
  p.copy_of.assign(k, {});
}

}  // namespace

// after[i]: the members a path from member i reaches through at least one outside op (i and each of them can never
// share a group: the path would leave it and come back). Local indices are topological, so one pass from the last
// member, with reach[i] every member some path from i reaches.
template <std::size_t W>
void find_cycle_order(LocalProblem<W>& p) {
  const std::vector<Bits<W>> reach = reachable(p);
  p.after.assign(p.ops.size(), {});
  for (std::size_t i = p.ops.size(); i-- > 0;) {
    Bits<W> after = p.via[i];
    p.via[i].each([&](std::size_t j) { after |= reach[j]; });
    p.direct[i].each([&](std::size_t j) { after |= p.after[j]; });
    p.after[i] = after;
  }
}

template void find_cycle_order<1>(LocalProblem<1>&);
template void find_cycle_order<4>(LocalProblem<4>&);
template void find_cycle_order<16>(LocalProblem<16>&);

template <std::size_t W>
std::optional<LocalProblem<W>> build_local_problem(const SearchSpace& space, const detail::Producers& producers,
                                                   const std::vector<OpId>& members,
                                                   const std::vector<std::int64_t>& position) {
  if (members.size() > 64 * W) return std::nullopt;
  const detail::Consumers& consumers = space.consumers;
  const std::size_t k = members.size();
  LocalProblem<W> p;
  p.ops = members;
  p.bytes.resize(k);
  p.forced_write.assign(k, false);
  p.consumers.assign(k, {});
  p.apart.assign(k, {});
  p.direct.assign(k, {});
  p.via.assign(k, {});
  std::unordered_map<OpId, int> local;
  for (std::size_t i = 0; i < k; ++i) local.emplace(members[i], static_cast<int>(i));
  std::map<OpId, Bits<W>> outside;  // ordered: a deterministic list
  for (std::size_t j = 0; j < k; ++j) {
    const OpId v = members[j];
    p.bytes[j] = space.bytes_of(v);
    p.forced_write[j] = space.graph_output(v);
    for (const OpId* c = consumers.begin(v); c != consumers.end(v); ++c)
      if (!local.contains(*c)) p.forced_write[j] = true;
    for (const OpId* in = producers.begin(v); in != producers.end(v); ++in) {
      const auto it = local.find(*in);
      if (it == local.end()) {
        outside[*in].set(j);
        continue;
      }
      const auto i = static_cast<std::size_t>(it->second);
      p.consumers[i].set(j);
      p.direct[i].set(j);
      if (space.fusible(*in, v)) {
        p.edges.push_back({it->second, static_cast<int>(j), producers.offsets[v] + (in - producers.begin(v))});
      } else if (space.apart(*in, v)) {
        p.apart[i].set(j);
        p.apart[j].set(i);
        if (space.kind == SpaceKind::engine)
          p.refused.push_back({it->second, static_cast<int>(j),
                               static_cast<std::int64_t>(detail::strategy_edge_reason(space.graph.op(*in), space.graph.op(v),
                                                                                      *space.rules, space.broadcast))});
      }
    }
  }
  for (const auto& [op, readers] : outside) p.outside_reads.push_back({space.bytes_of(op), readers});
  add_space_data(space, local, p);
  if (space.kind == SpaceKind::engine) add_engine_data(space, producers, local, p);
  if (space.shares_buffer_pairs())
    add_pairs(readers_of(p), [&](std::size_t a, std::size_t b) { return space.may_pair(p.ops[a], p.ops[b]); }, p);
  if (space.kind == SpaceKind::xla)
    add_pairs(read_together(consumers, p), [&](std::size_t a, std::size_t b) { return space.packable(p.ops[a], p.ops[b]); },
              p);
  if (!find_outside_paths(consumers, local, position, position[members.back()], p)) return std::nullopt;
  if (space.kind == SpaceKind::xla) add_xla_closures(space, p);
  if (space.timed()) find_cycle_order(p);  // (the bytes bound counts no groups)
  if (p.kind == SpaceKind::tvm) find_unpostdominated(p);
  p.apart_readers.resize(k);  // a reader it is apart from, or also reaches through outside ops (a cycle)
  for (std::size_t i = 0; i < k; ++i) p.apart_readers[i] = p.consumers[i] & (p.apart[i] | p.via[i]);
  return p;
}

template std::optional<LocalProblem<1>> build_local_problem<1>(const SearchSpace&, const detail::Producers&,
                                                               const std::vector<OpId>&,
                                                               const std::vector<std::int64_t>&);
template std::optional<LocalProblem<4>> build_local_problem<4>(const SearchSpace&, const detail::Producers&,
                                                               const std::vector<OpId>&,
                                                               const std::vector<std::int64_t>&);
template std::optional<LocalProblem<16>> build_local_problem<16>(const SearchSpace&, const detail::Producers&,
                                                               const std::vector<OpId>&,
                                                               const std::vector<std::int64_t>&);

}  // namespace fusion::search
