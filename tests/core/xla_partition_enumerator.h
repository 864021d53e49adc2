// xla_partition_enumerator.h — brute force for the xla plan search tests: the least estimated time over every plan
// of the xla search space (docs/design.md §17, docs/strategies.md "xla"): a set D of ops left only as copies
// (priority fusion's duplication) and a partition of the other fusible ops, tried exhaustively.
//
// Deliberately naive and apart from core/src/search, with the space's rules written out again:
//  - fusible: not a source, and an XLA role (presets/xla_kinds.h) other than own_kernel;
//  - an edge u -> v may fuse unless: either end is not fusible, other regions, u is a scatter, v a scatter reading
//    u as its in-place operand (its first input), a concat into a reduction, or a reduction into anything but an
//    elementwise op of its output elements;
//  - D: loop ops, not graph outputs, with readers, every edge to which may fuse; a group computes (copies) every
//    op of D that reaches one of its members through D only;
//  - relations that may join two ops of a group (each group must be connected by them, inside it): an edge that
//    may fuse between two members, or between a member u and a member v that u reaches through D only (the edge
//    into D may fuse); two members reading one tensor (directly, or both reached from one op of D through D) of
//    one iteration space (sibling key below); two loop members (no reshape) of one element count and size, both
//    read by one op, in one region;
//  - a group's kernel (members and copies): no reduction reaches (by any path of the graph) a reduction or an op
//    that is not elementwise of its output elements in the kernel; a scatter's in-place operand and readers are
//    not in it; a reshape member reading the kernel is not written; operands (tensors read) plus outputs at most
//    max_group_operands;
//  - the group graph (with every other op alone) is acyclic, where a group reads what its kernel reads.
// Time is the time model written out again over the kernels. nullopt when the graph has more than max_fusible
// fusible ops or more than max_duplicable candidates for D.
// greedy_in_space(g, options, plan): is the greedy plan one of these plans (its copy-only ops a D, its groups a
// partition of the rest, each copy where the closure puts it)? When it is, no plan the search returns can beat
// the brute-force optimum.
#pragma once

#include <map>
#include <set>

#include "fusion/shape.h"
#include "fusion/strategy.h"
#include "fusion/time_model.h"
#include "partition_enumerator.h"
#include "presets/xla_kinds.h"

namespace fusion::testing {

struct XlaSpace {
  const FusionGraph& g;
  std::int64_t max_operands;
  std::vector<std::vector<OpId>> readers;

  XlaSpace(const FusionGraph& graph, std::int64_t max) : g(graph), max_operands(max), readers(graph.size()) {
    for (std::size_t v = 0; v < g.size(); ++v)
      for (OpId u : g.op(static_cast<OpId>(v)).inputs)
        if (std::find(readers[u].begin(), readers[u].end(), static_cast<OpId>(v)) == readers[u].end())
          readers[u].push_back(static_cast<OpId>(v));
  }
  presets::XlaRole role(OpId x) const { return presets::xla_role(g, x); }
  std::uint64_t elements(OpId x) const { return shape_elements(g.op(x).shape).value_or(0); }
  bool fusible(OpId x) const { return !g.op(x).is_source() && role(x) != presets::XlaRole::own_kernel; }
  bool output(OpId x) const { return g.op(x).output || readers[x].empty(); }
  bool edge_may_fuse(OpId u, OpId v) const {
    using presets::XlaRole;
    if (!fusible(u) || !fusible(v) || g.op(u).region != g.op(v).region) return false;
    if (role(u) == XlaRole::scatter || (role(v) == XlaRole::scatter && g.op(v).inputs.front() == u)) return false;
    if (g.op(u).kind == OpKind::concat && role(v) == XlaRole::reduction) return false;
    if (role(u) != XlaRole::reduction) return true;
    return role(v) == XlaRole::loop && is_fusible(g.op(v).kind) && elements(v) == elements(u);
  }
  bool duplicable(OpId x) const {
    if (role(x) != presets::XlaRole::loop || !fusible(x) || output(x)) return false;
    return std::all_of(readers[x].begin(), readers[x].end(), [&](OpId r) { return edge_may_fuse(x, r); });
  }
  // (pairs at all, iteration space, reduced elements, is reduction, transpose shapes)
  bool siblings(OpId a, OpId b) const {
    using presets::XlaRole;
    const auto key = [&](OpId x) {
      const FusionOp& op = g.op(x);
      const bool reduction = role(x) == XlaRole::reduction;
      std::uint64_t space = elements(x);
      if (reduction && presets::contiguous_reduction(g, x)) space = elements(op.inputs.front());
      const bool pairs = fusible(x) && role(x) != XlaRole::scatter && op.kind != OpKind::reshape;
      const bool transpose = op.kind == OpKind::transpose;
      return std::tuple{pairs, space, elements(x), reduction, transpose,
                        transpose ? g.op(op.inputs.front()).shape : Shape{}, transpose ? op.shape : Shape{}};
    };
    const auto ka = key(a), kb = key(b);
    if (!std::get<0>(ka) || !std::get<0>(kb) || g.op(a).region != g.op(b).region) return false;
    if (std::get<4>(ka) || std::get<4>(kb)) {
      if (std::get<3>(ka) || std::get<3>(kb)) return false;
      if (std::get<4>(ka) && std::get<4>(kb) && (std::get<5>(ka) != std::get<5>(kb) || std::get<6>(ka) != std::get<6>(kb)))
        return false;
    }
    if (std::get<1>(ka) != std::get<1>(kb)) return false;
    return !std::get<3>(ka) || !std::get<3>(kb) || std::get<2>(ka) == std::get<2>(kb);
  }
  bool packable(OpId a, OpId b) const {
    const auto loop = [&](OpId x) {
      return fusible(x) && role(x) == presets::XlaRole::loop && g.op(x).kind != OpKind::reshape;
    };
    return loop(a) && loop(b) && g.op(a).region == g.op(b).region && elements(a) == elements(b) &&
           g.op(a).dtype_bytes == g.op(b).dtype_bytes;
  }
  // Ops of D reaching x through D only (x's copies when x is a member).
  std::set<OpId> copies_for(OpId x, const std::vector<char>& in_d) const {
    std::set<OpId> out;
    std::vector<OpId> stack = {x};
    while (!stack.empty()) {
      const OpId y = stack.back();
      stack.pop_back();
      for (OpId u : g.op(y).inputs)
        if (in_d[u] && out.insert(u).second) stack.push_back(u);
    }
    return out;
  }
  bool reaches(OpId from, OpId to) const {
    std::vector<char> seen(g.size(), 0);
    std::vector<OpId> stack = {from};
    while (!stack.empty()) {
      const OpId y = stack.back();
      stack.pop_back();
      for (OpId r : readers[y]) {
        if (r == to) return true;
        if (!seen[r]) seen[r] = 1, stack.push_back(r);
      }
    }
    return false;
  }
};

// One candidate plan: group[x] for members (-1 for ops of D and ops outside the partition).
struct XlaPlan {
  std::vector<int> group;
  std::vector<char> in_d;
};

// The kernel of each group: members and copies.
inline std::map<int, std::set<OpId>> xla_kernels(const XlaSpace& s, const XlaPlan& plan) {
  std::map<int, std::set<OpId>> kernels;
  for (std::size_t x = 0; x < s.g.size(); ++x) {
    if (plan.group[x] < 0) continue;
    std::set<OpId>& k = kernels[plan.group[x]];
    k.insert(static_cast<OpId>(x));
    for (OpId d : s.copies_for(static_cast<OpId>(x), plan.in_d)) k.insert(d);
  }
  return kernels;
}

inline bool xla_related(const XlaSpace& s, const XlaPlan& plan, OpId a, OpId b) {
  const auto through_d = [&](OpId u, OpId v) {  // u -> v directly, or u -> d (may fuse) -> ... -> v through D only
    if (std::find(s.readers[u].begin(), s.readers[u].end(), v) != s.readers[u].end() && s.edge_may_fuse(u, v))
      return true;
    for (OpId d : s.copies_for(v, plan.in_d))
      if (std::find(s.readers[u].begin(), s.readers[u].end(), d) != s.readers[u].end() && s.edge_may_fuse(u, d)) return true;
    return false;
  };
  if (through_d(a, b) || through_d(b, a)) return true;
  const auto reads = [&](OpId x) {  // tensors read directly, and D ops it copies (read through them)
    std::set<OpId> out(s.g.op(x).inputs.begin(), s.g.op(x).inputs.end());
    for (OpId d : s.copies_for(x, plan.in_d)) out.insert(d);
    return out;
  };
  const std::set<OpId> ra = reads(a), rb = reads(b);
  const bool share = std::any_of(ra.begin(), ra.end(), [&](OpId t) { return rb.count(t) > 0; });
  if (share && s.siblings(a, b)) return true;
  for (std::size_t r = 0; r < s.g.size(); ++r) {
    const auto& in = s.g.op(static_cast<OpId>(r)).inputs;
    if (std::count(in.begin(), in.end(), a) && std::count(in.begin(), in.end(), b) && s.packable(a, b)) return true;
  }
  return false;
}

// Is member m (of the group with this kernel) written: a graph output, or read by an op computed elsewhere (a
// member of another group, a copy in another kernel, an op outside the partition)?
inline bool xla_written(const XlaSpace& s, const XlaPlan& plan, const std::set<OpId>& kernel, OpId m) {
  if (s.output(m)) return true;
  for (OpId r : s.readers[m]) {
    if (kernel.count(r)) {
      if (!plan.in_d[r]) continue;
      for (std::size_t x = 0; x < s.g.size(); ++x)  // a copy of r in another kernel reads m too
        if (plan.group[x] >= 0 && !kernel.count(static_cast<OpId>(x)) && s.copies_for(static_cast<OpId>(x), plan.in_d).count(r))
          return true;
      continue;
    }
    return true;
  }
  return false;
}

inline bool xla_group_ok(const XlaSpace& s, const XlaPlan& plan, int k, const std::set<OpId>& kernel) {
  using presets::XlaRole;
  std::vector<OpId> members;
  for (std::size_t x = 0; x < s.g.size(); ++x)
    if (plan.group[x] == k) members.push_back(static_cast<OpId>(x));
  // connected by relations inside the group
  std::set<OpId> reached = {members.front()};
  for (bool grew = true; grew;) {
    grew = false;
    for (OpId a : members)
      for (OpId b : members)
        if (reached.count(a) && !reached.count(b) && xla_related(s, plan, a, b)) reached.insert(b), grew = true;
  }
  if (reached.size() != members.size()) return false;
  for (OpId u : members)  // two members joined by an edge that may not fuse never share a group
    for (OpId v : s.readers[u])
      if (plan.group[v] == k && !s.edge_may_fuse(u, v)) return false;
  const auto written = [&](OpId m) { return xla_written(s, plan, kernel, m); };
  for (OpId m : members) {
    if (s.role(m) == XlaRole::reduction)
      for (OpId y : kernel)
        if (y != m && s.reaches(m, y) &&
            (s.role(y) == XlaRole::reduction || !is_fusible(s.g.op(y).kind) || s.elements(y) != s.elements(m)))
          return false;
    if (s.role(m) == XlaRole::scatter) {
      if (kernel.count(s.g.op(m).inputs.front())) return false;
      for (OpId r : s.readers[m])
        if (kernel.count(r)) return false;
    }
    if (s.g.op(m).kind == OpKind::reshape) {
      const bool reads_kernel = std::any_of(s.g.op(m).inputs.begin(), s.g.op(m).inputs.end(),
                                            [&](OpId u) { return kernel.count(u) > 0; });
      if (reads_kernel && written(m)) return false;
    }
  }
  if (s.max_operands > 0) {
    std::set<OpId> read;
    for (OpId y : kernel)
      for (OpId u : s.g.op(y).inputs)
        if (!kernel.count(u)) read.insert(u);
    std::int64_t outputs = 0;
    for (OpId m : members) outputs += written(m) ? 1 : 0;
    if (static_cast<std::int64_t>(read.size()) + outputs > s.max_operands) return false;
  }
  return true;
}

// Acyclic group graph and the plan's time, or nullopt when a group graph cycle forms.
inline std::optional<double> xla_plan_time(const XlaSpace& s, const XlaPlan& plan,
                                           const std::map<int, std::set<OpId>>& kernels, const HardwareProfile& hw) {
  const std::size_t n = s.g.size();
  // Every op is a node: a group's kernel is its group's node; an op outside the partition and not in D is its own.
  std::map<int, std::set<OpId>> nodes = kernels;
  for (std::size_t x = 0; x < n; ++x)
    if (plan.group[x] < 0 && !plan.in_d[x]) nodes[static_cast<int>(n + x)] = {static_cast<OpId>(x)};
  std::map<OpId, int> owner;
  for (const auto& [k, ops] : nodes)
    for (OpId y : ops)
      if (!plan.in_d[y]) owner[y] = k;
  std::set<std::pair<int, int>> arcs;
  std::map<int, std::set<OpId>> reads;
  for (const auto& [k, ops] : nodes)
    for (OpId y : ops)
      for (OpId u : s.g.op(y).inputs)
        if (!ops.count(u)) {
          if (plan.in_d[u]) return std::nullopt;  // a copy read from memory: not a plan of the space
          arcs.insert({owner.at(u), k});
          reads[k].insert(u);
        }
  std::vector<int> ids;
  for (const auto& [k, ops] : nodes) ids.push_back(k);
  if (!arcs_acyclic(ids, arcs)) return std::nullopt;
  auto size = [&](OpId x) { return tensor_bytes(s.g.op(x).shape, s.g.op(x).dtype_bytes).value_or(0); };
  double total = 0.0;
  for (const auto& [k, ops] : nodes) {
    std::uint64_t bytes = 0, vector_flops = 0, matrix_flops = 0;
    bool computes = false;
    for (OpId u : reads[k]) bytes += size(u);
    for (OpId y : ops) {
      computes = computes || !s.g.op(y).is_source();
      (uses_matrix_peak(s.g.op(y).kind) ? matrix_flops : vector_flops) += op_flops(s.g, y);
      if (plan.in_d[y]) continue;
      bool written = s.output(y);
      for (const auto& [other, read] : reads) written = written || (other != k && read.count(y) > 0);
      if (written) bytes += size(y);
    }
    if (computes) total += kernel_time_us(bytes, vector_flops, matrix_flops, hw);
  }
  return total;
}

// Calls f(group) for every set partition of `count` items (restricted growth strings).
template <typename F>
void each_set_partition(std::size_t count, F&& f) {
  std::vector<int> label(count, 0), most(count, 0);
  while (true) {
    f(label);
    std::size_t i = count;
    while (i-- > 1) {
      if (label[i] <= most[i - 1]) break;
    }
    if (i == 0 || count == 0) return;
    ++label[i];
    for (std::size_t j = i + 1; j < count; ++j) label[j] = 0;
    for (std::size_t j = i; j < count; ++j) most[j] = std::max(most[j - 1], label[j]);
  }
}

inline std::optional<double> brute_force_min_xla_time(const FusionGraph& g, const PlannerOptions& options,
                                                      std::size_t max_fusible, std::size_t max_duplicable) {
  const XlaSpace s(g, options.rules.max_group_operands);
  std::vector<OpId> fusible, candidates;
  for (std::size_t x = 0; x < g.size(); ++x) {
    if (s.fusible(static_cast<OpId>(x))) fusible.push_back(static_cast<OpId>(x));
    if (s.duplicable(static_cast<OpId>(x))) candidates.push_back(static_cast<OpId>(x));
  }
  if (fusible.size() > max_fusible || candidates.size() > max_duplicable) return std::nullopt;
  const HardwareProfile hw = *hardware_profile(options.hardware);
  std::optional<double> best;
  for (std::uint64_t subset = 0; subset < (std::uint64_t{1} << candidates.size()); ++subset) {
    XlaPlan plan{std::vector<int>(g.size(), -1), std::vector<char>(g.size(), 0)};
    for (std::size_t k = 0; k < candidates.size(); ++k)
      if (subset >> k & 1) plan.in_d[candidates[k]] = 1;
    std::vector<OpId> members;
    for (OpId x : fusible)
      if (!plan.in_d[x]) members.push_back(x);
    each_set_partition(members.size(), [&](const std::vector<int>& label) {
      for (std::size_t i = 0; i < members.size(); ++i) plan.group[members[i]] = label[i];
      const std::map<int, std::set<OpId>> kernels = xla_kernels(s, plan);
      for (const auto& [k, kernel] : kernels)
        if (!xla_group_ok(s, plan, k, kernel)) return;
      const std::optional<double> time = xla_plan_time(s, plan, kernels, hw);
      if (time && (!best || *time < *best)) best = time;
    });
  }
  return best;
}

// Is the greedy plan one of the space's plans (see above)?
inline bool greedy_in_space(const FusionGraph& g, const PlannerOptions& options, const FusionPlan& greedy) {
  const XlaSpace s(g, options.rules.max_group_operands);
  XlaPlan plan{std::vector<int>(g.size(), -1), std::vector<char>(g.size(), 0)};
  std::vector<int> owned(g.size(), 0), copied(g.size(), 0);
  for (const FusionGroup& group : greedy.groups)
    for (OpId x : group.ops) {
      if (is_recomputed(group, x)) ++copied[x];
      else ++owned[x], plan.group[x] = static_cast<int>(group.id);
    }
  for (std::size_t x = 0; x < g.size(); ++x) {
    if (copied[x] && owned[x]) return false;
    if (copied[x]) {
      if (!s.duplicable(static_cast<OpId>(x))) return false;
      plan.in_d[x] = 1, plan.group[x] = -1;
    }
    if (!s.fusible(static_cast<OpId>(x))) plan.group[x] = -1;
  }
  const std::map<int, std::set<OpId>> kernels = xla_kernels(s, plan);
  for (const FusionGroup& group : greedy.groups) {
    std::set<OpId> ops(group.ops.begin(), group.ops.end());
    const auto it = kernels.find(static_cast<int>(group.id));
    if (it == kernels.end()) {
      if (ops.size() > 1 || s.fusible(group.ops.front())) return false;
      continue;
    }
    if (it->second != ops || !xla_group_ok(s, plan, it->first, it->second)) return false;
  }
  return true;
}

}  // namespace fusion::testing
