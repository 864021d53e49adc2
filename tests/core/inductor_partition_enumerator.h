// inductor_partition_enumerator.h — brute force for the inductor plan search tests: the least estimated time
// over every partition of the scheduler nodes that the inductor search may form (docs/design.md §17), by
// trying every subset of the candidate pairs.
//
// Deliberately naive and apart from core/src/search and the lowering code: realization is written out again
// from docs/strategies.md ("inductor", Lowering; inductor_lowering below) and must agree with what the greedy
// inductor plan shows (greedy_grouping: every node owned by one group, copies only of inlined ops, each
// group's rule counting its nodes); the tests check that. Only presets::inductor_node_kind and inductor_range
// (an op's kind and range) are the core's. A node's closure is itself plus the inlined ops it reaches
// backwards through inlined ops only; the buffers it reads are the nodes its closure reads. Candidate pairs
// join two fusible nodes (kind not own_kernel, not a source) of one region when one reads the other's buffer
// or both read a common buffer; pairs no legal group could hold together are left out (a safe cut: it loses
// no legal partition, it only keeps the subsets few). A subset's groups are the connected components of its
// pairs; it counts only when it holds every candidate pair inside its groups (each partition once), each
// group of two or more nodes is legal (fusible members of one region, at most max_group_ops of them when that
// is > 0, connected by shared buffers; ranges: one range for all reductions and numel n·r or n for the rest
// when a reduction (n, r) is present, else one numel; at most one template, whose other members are pointwise
// nodes — a ConcatKernel counts as one, as the greedy scheduler fuses it — of its numel, none of them read by
// it, one of them reading it), and the group graph is acyclic (a group depends on the owner of every buffer
// its closures read from outside it). Each group holds the inlined ops of its members' closures as copies,
// once. Time is the time model written out again: per group of non-sources, the distinct outside buffers its
// closures read plus the members written (a graph output — `output` or read by nothing — or read by another
// group), the flops of the union of its closures once each, kernel_time_us; summed. Ops are bits of a 64-bit
// mask, so graphs have at most 64 ops.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fusion/hardware.h"
#include "fusion/plan.h"
#include "fusion/time_model.h"
#include "presets/inductor_nodes.h"

namespace fusion::testing {

using OpMask = std::uint64_t;

inline OpMask bit_of(std::size_t x) { return OpMask{1} << x; }

// The lowering: which ops are inlined, with each op's kind and range and each node's closure and reads.
struct InductorLowering {
  std::vector<char> inlined;                   // per op: computed inside each reader's expression
  std::vector<char> fusible;                   // per op: a non-source node whose kind may share a kernel
  std::vector<char> graph_output;              // per op: `output`, or read by no op
  std::vector<presets::InductorNode> kind;     // per op
  std::vector<presets::IterationRange> range;  // per op: inductor_range for reductions, else (elements, 1)
  std::vector<OpMask> closure;  // per node: itself and the inlined ops it computes (sources: 0)
  std::vector<OpMask> reads;    // per node: the buffers (nodes) its closure reads
};

// Realization as docs/strategies.md ("inductor", Lowering) states it, written out again: an op of kind
// pointwise (not a source) is inlined unless it is a graph output, a reader needs realized inputs (a
// template, own-kernel or ConcatKernel reader, or one of another region), it has two or more readers and its
// expression (itself and the inlined ops it reaches) reads more than 4 buffers or holds more than 30 ops, or
// it reads more than 8 buffers or holds more than 30 ops whatever its readers. Ops of an expression are
// counted as a tree, as Inductor's inner_fn op count does: an inlined op reached along two paths counts twice
// (each distinct input once per op). Ops are taken in id order (inputs come first in these graphs). nullopt
// when the graph has more than 64 ops or an op reads a later one.
inline std::optional<InductorLowering> inductor_lowering(const FusionGraph& g, const StrategyRules& rules) {
  using presets::InductorNode;
  const std::size_t n = g.size();
  if (n > 64) return std::nullopt;
  InductorLowering l;
  l.inlined.assign(n, 0);
  l.fusible.assign(n, 0);
  l.graph_output.assign(n, 0);
  l.kind.resize(n);
  l.range.resize(n);
  l.closure.assign(n, 0);
  l.reads.assign(n, 0);
  std::vector<OpMask> readers(n, 0);
  std::vector<std::uint64_t> terms(n, 0);  // per inlined op: its expression's op count as a tree (capped)
  for (std::size_t v = 0; v < n; ++v)
    for (OpId u : g.op(static_cast<OpId>(v)).inputs) {
      if (static_cast<std::size_t>(u) >= v) return std::nullopt;
      readers[u] |= bit_of(v);
    }
  for (std::size_t x = 0; x < n; ++x) {
    const auto id = static_cast<OpId>(x);
    l.graph_output[x] = g.op(id).output || !readers[x];
    l.kind[x] = presets::inductor_node_kind(g, id, rules);
    l.range[x] = l.kind[x] == InductorNode::reduction
                     ? presets::inductor_range(g, id)
                     : presets::IterationRange{shape_elements(g.op(id).shape).value_or(0), 1};
  }
  for (std::size_t x = 0; x < n; ++x) {
    const FusionOp& op = g.op(static_cast<OpId>(x));
    if (op.is_source()) continue;
    // The expression of x: x and the inlined ops it reaches (all decided: they come before x).
    l.closure[x] = bit_of(x);
    std::uint64_t ops = 1;
    OpMask seen = 0;
    for (OpId u : op.inputs) {
      if (seen & bit_of(u)) continue;
      seen |= bit_of(u);
      if (l.inlined[u])
        l.closure[x] |= l.closure[u], l.reads[x] |= l.reads[u],
            ops = std::min<std::uint64_t>(ops + terms[u], 31);
      else
        l.reads[x] |= bit_of(u);
    }
    if (l.kind[x] != InductorNode::pointwise || l.graph_output[x]) continue;
    bool reader_needs_buffer = false;
    for (std::size_t v = 0; v < n; ++v)
      if (readers[x] & bit_of(v))
        reader_needs_buffer = reader_needs_buffer || g.op(static_cast<OpId>(v)).region != op.region ||
                              l.kind[v] == InductorNode::template_kernel ||
                              l.kind[v] == InductorNode::own_kernel ||
                              l.kind[v] == InductorNode::concat_kernel;
    const int reads = std::popcount(l.reads[x]);
    const bool shared = std::popcount(readers[x]) >= 2 && (reads > 4 || ops > 30);
    l.inlined[x] = !reader_needs_buffer && !shared && reads <= 8 && ops <= 30;
    terms[x] = ops;
  }
  for (std::size_t x = 0; x < n; ++x) {
    if (l.inlined[x]) l.closure[x] = l.reads[x] = 0;  // only nodes keep a closure
    l.fusible[x] =
        !l.inlined[x] && !g.op(static_cast<OpId>(x)).is_source() && l.kind[x] != InductorNode::own_kernel;
  }
  return l;
}

// The greedy plan's own grouping as labels per op (the smallest node of each group; inlined ops: their own
// id, ignored), after checking that the plan shows the same lowering: every node owned by exactly one group
// and recomputed nowhere, every inlined op held by some group, and each group's rule counting its nodes ("N
// nodes fused"). Otherwise the first disagreement, in words.
struct GreedyGrouping {
  std::vector<int> group;
  std::string disagreement;  // empty when the plan and the lowering agree
};

inline GreedyGrouping greedy_grouping(const FusionGraph& g, const InductorLowering& l,
                                      const FusionPlan& greedy) {
  const std::size_t n = g.size();
  GreedyGrouping out;
  std::vector<std::int32_t> owner(n, -1);
  std::vector<char> held(n, 0);
  auto say = [&out](std::string text) {
    if (out.disagreement.empty()) out.disagreement = std::move(text);
  };
  for (const FusionGroup& group : greedy.groups) {
    std::size_t nodes = 0;
    for (OpId x : group.ops) {
      held[x] = 1;
      if (l.inlined[x]) continue;
      ++nodes;
      if (is_recomputed(group, x))
        say("node " + std::to_string(x) + " is recomputed in group " + std::to_string(group.id));
      else if (owner[x] != -1)
        say("node " + std::to_string(x) + " is owned twice");
      else
        owner[x] = group.id;
    }
    const std::size_t at = group.rule.find(" fused");
    const std::size_t comma = group.rule.rfind(", ", at);
    if (at != std::string::npos && comma != std::string::npos) {
      const std::string count = group.rule.substr(comma + 2, group.rule.find(' ', comma + 2) - comma - 2);
      if (count != std::to_string(nodes))
        say("group " + std::to_string(group.id) + " says '" + group.rule + "', the lowering has " +
            std::to_string(nodes) + " nodes");
    } else if (nodes != 1) {
      say("group " + std::to_string(group.id) + " has " + std::to_string(nodes) + " nodes and rule '" +
          group.rule + "'");
    }
  }
  for (std::size_t x = 0; x < n; ++x) {
    if (!held[x]) say("op " + std::to_string(x) + " is in no group");
    if (!l.inlined[x] && owner[x] == -1) say("node " + std::to_string(x) + " is owned by no group");
  }
  out.group.resize(n);
  for (std::size_t x = 0; x < n; ++x) {
    out.group[x] = static_cast<int>(x);
    for (std::size_t y = 0; y < x && !l.inlined[x]; ++y)
      if (!l.inlined[y] && owner[y] == owner[x]) {
        out.group[x] = static_cast<int>(y);
        break;
      }
  }
  return out;
}

inline bool is_template(const InductorLowering& l, std::size_t x) {
  return l.kind[x] == presets::InductorNode::template_kernel;
}
// A ConcatKernel is a pointwise node reading its realized inputs (docs/strategies.md), so it may be an
// epilogue.
inline bool is_pointwise_node(const InductorLowering& l, std::size_t x) {
  return l.kind[x] == presets::InductorNode::pointwise || l.kind[x] == presets::InductorNode::concat_kernel;
}
inline bool is_reduction(const InductorLowering& l, std::size_t x) {
  return l.kind[x] == presets::InductorNode::reduction;
}

// Could fusible nodes a and b ever share a legal group? (Used only to leave pairs out of the enumeration.)
inline bool pair_possible(const FusionGraph& g, const InductorLowering& l, std::size_t a, std::size_t b) {
  if (is_template(l, b)) std::swap(a, b);
  if (is_template(l, a))
    return !is_template(l, b) && is_pointwise_node(l, b) && l.range[b].numel == l.range[a].numel &&
           !(l.reads[a] & bit_of(b));
  if (is_reduction(l, b)) std::swap(a, b);
  const auto fits = [](const presets::IterationRange& r, std::uint64_t numel) {
    return numel == r.numel * r.rnumel || numel == r.numel;
  };
  if (is_reduction(l, a))
    return is_reduction(l, b) ? l.range[a] == l.range[b] : fits(l.range[a], l.range[b].numel);
  if (l.range[a].numel == l.range[b].numel) return true;
  for (std::size_t r = 0; r < g.size(); ++r)  // two numels meet only through a reduction of the region
    if (l.fusible[r] && is_reduction(l, r) &&
        g.op(static_cast<OpId>(r)).region == g.op(static_cast<OpId>(a)).region &&
        fits(l.range[r], l.range[a].numel) && fits(l.range[r], l.range[b].numel))
      return true;
  return false;
}

inline std::vector<std::pair<std::size_t, std::size_t>> inductor_candidate_pairs(const FusionGraph& g,
                                                                                 const InductorLowering& l) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t a = 0; a < g.size(); ++a)
    for (std::size_t b = a + 1; b < g.size(); ++b) {
      if (!l.fusible[a] || !l.fusible[b] ||
          g.op(static_cast<OpId>(a)).region != g.op(static_cast<OpId>(b)).region)
        continue;
      const bool share = (l.reads[a] & bit_of(b)) || (l.reads[b] & bit_of(a)) || (l.reads[a] & l.reads[b]);
      if (share && pair_possible(g, l, a, b)) out.push_back({a, b});
    }
  return out;
}

// Is the group of nodes `m` legal (every rule but the acyclic one, which is the whole plan's)?
inline bool inductor_group_legal(const FusionGraph& g, const InductorLowering& l, OpMask m,
                                 std::int64_t max_group_ops) {
  std::vector<std::size_t> members;
  for (std::size_t x = 0; x < g.size(); ++x)
    if (m & bit_of(x)) members.push_back(x);
  if (members.size() < 2) return true;
  if (max_group_ops > 0 && static_cast<std::int64_t>(members.size()) > max_group_ops) return false;
  for (std::size_t x : members)
    if (!l.fusible[x] || g.op(static_cast<OpId>(x)).region != g.op(static_cast<OpId>(members[0])).region)
      return false;
  // Connected by candidate pairs (shared buffers), checked pair by pair.
  OpMask reached = bit_of(members[0]);
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t a : members)
      for (std::size_t b : members)
        if ((reached & bit_of(a)) && !(reached & bit_of(b)) &&
            ((l.reads[a] & bit_of(b)) || (l.reads[b] & bit_of(a)) || (l.reads[a] & l.reads[b])))
          reached |= bit_of(b), grew = true;
  }
  if (reached != m) return false;
  // Ranges.
  std::optional<presets::IterationRange> reduction;
  for (std::size_t x : members) {
    if (!is_reduction(l, x)) continue;
    if (reduction && !(*reduction == l.range[x])) return false;
    reduction = l.range[x];
  }
  for (std::size_t x : members) {
    if (is_reduction(l, x)) continue;
    const std::uint64_t numel = l.range[x].numel;
    if (reduction ? numel != reduction->numel * reduction->rnumel && numel != reduction->numel
                  : numel != l.range[members[0]].numel)
      return false;
  }
  // Templates.
  std::optional<std::size_t> t;
  for (std::size_t x : members)
    if (is_template(l, x)) {
      if (t) return false;
      t = x;
    }
  if (!t) return true;
  bool read_by_member = false;
  for (std::size_t x : members) {
    if (x == *t) continue;
    if (!is_pointwise_node(l, x) || l.range[x].numel != l.range[*t].numel) return false;
    if (l.reads[*t] & bit_of(x)) return false;
    read_by_member = read_by_member || (l.reads[x] & bit_of(*t));
  }
  return read_by_member;
}

// group[x]: a label per node (inlined ops: ignored). Members of a label as a mask.
inline std::vector<OpMask> group_masks(const InductorLowering& l, const std::vector<int>& group) {
  std::vector<OpMask> masks(group.size(), 0);
  for (std::size_t x = 0; x < group.size(); ++x)
    if (!l.inlined[x]) masks[static_cast<std::size_t>(group[x])] |= bit_of(x);
  return masks;
}

inline bool inductor_groups_acyclic(const InductorLowering& l, const std::vector<int>& group) {
  const std::vector<OpMask> masks = group_masks(l, group);
  std::vector<OpMask> after(masks.size(), 0);  // arcs k -> groups depending on k, as masks of labels
  for (std::size_t v = 0; v < group.size(); ++v) {
    if (l.inlined[v]) continue;
    for (std::size_t b = 0; b < group.size(); ++b)
      if ((l.reads[v] & bit_of(b)) && group[b] != group[v])
        after[static_cast<std::size_t>(group[b])] |= bit_of(static_cast<std::size_t>(group[v]));
  }
  std::vector<int> pending(masks.size(), 0);
  for (OpMask a : after)
    for (std::size_t k = 0; k < masks.size(); ++k)
      if (a & bit_of(k)) ++pending[k];
  std::vector<std::size_t> ready;
  std::size_t groups = 0, done = 0;
  for (std::size_t k = 0; k < masks.size(); ++k)
    if (masks[k]) {
      ++groups;
      if (pending[k] == 0) ready.push_back(k);
    }
  while (!ready.empty()) {
    const std::size_t k = ready.back();
    ready.pop_back();
    ++done;
    for (std::size_t j = 0; j < masks.size(); ++j)
      if ((after[k] & bit_of(j)) && --pending[j] == 0) ready.push_back(j);
  }
  return done == groups;
}

inline double inductor_partition_time_us(const FusionGraph& g, const InductorLowering& l,
                                         const std::vector<int>& group, const HardwareProfile& hw) {
  auto size = [&g](std::size_t x) {
    return tensor_bytes(g.op(static_cast<OpId>(x)).shape, g.op(static_cast<OpId>(x)).dtype_bytes).value_or(0);
  };
  const std::vector<OpMask> masks = group_masks(l, group);
  double total = 0.0;
  for (const OpMask m : masks) {
    OpMask computed = 0, read = 0, read_by_others = 0;
    for (std::size_t x = 0; x < g.size(); ++x) {
      if (l.inlined[x]) continue;
      if (m & bit_of(x))
        computed |= l.closure[x], read |= l.reads[x];
      else
        read_by_others |= l.reads[x];
    }
    if (!computed) continue;  // no members, or a source
    std::uint64_t bytes = 0, vector_flops = 0, matrix_flops = 0;
    for (std::size_t x = 0; x < g.size(); ++x) {
      if ((read & ~m) & bit_of(x)) bytes += size(x);
      if ((m & bit_of(x)) && (l.graph_output[x] || (read_by_others & bit_of(x)))) bytes += size(x);
      if (computed & bit_of(x))
        (uses_matrix_peak(g.op(static_cast<OpId>(x)).kind) ? matrix_flops : vector_flops) +=
            op_flops(g, static_cast<OpId>(x));
    }
    total += kernel_time_us(bytes, vector_flops, matrix_flops, hw);
  }
  return total;
}

// Is the whole partition one the inductor search may answer (every group legal, the group graph acyclic)?
inline bool inductor_partition_legal(const FusionGraph& g, const InductorLowering& l,
                                     const std::vector<int>& group, std::int64_t max_group_ops) {
  for (const OpMask m : group_masks(l, group))
    if (m && !inductor_group_legal(g, l, m, max_group_ops)) return false;
  return inductor_groups_acyclic(l, group);
}

struct InductorOptimum {
  double time_us = 0.0;
  std::vector<int> group;  // the fastest partition found, as labels per op
  std::size_t pairs = 0;   // candidate pairs
  std::size_t legal = 0;   // legal partitions tried
};

// nullopt when there are more than max_pairs candidate pairs.
inline std::optional<InductorOptimum> brute_force_min_inductor_time(const FusionGraph& g,
                                                                    const InductorLowering& l,
                                                                    const PlannerOptions& options,
                                                                    std::size_t max_pairs) {
  const std::vector<std::pair<std::size_t, std::size_t>> pairs = inductor_candidate_pairs(g, l);
  if (pairs.size() > max_pairs) return std::nullopt;
  const HardwareProfile hw = *hardware_profile(options.hardware);
  std::optional<InductorOptimum> best;
  std::size_t legal = 0;
  for (std::uint64_t subset = 0; subset < (std::uint64_t{1} << pairs.size()); ++subset) {
    std::vector<int> group(g.size());
    for (std::size_t x = 0; x < g.size(); ++x) group[x] = static_cast<int>(x);
    for (bool changed = true; changed;) {  // label propagation over the chosen pairs
      changed = false;
      for (std::size_t k = 0; k < pairs.size(); ++k) {
        if (!(subset >> k & 1)) continue;
        const auto [a, b] = pairs[k];
        const int low = std::min(group[a], group[b]);
        if (group[a] != low || group[b] != low) group[a] = group[b] = low, changed = true;
      }
    }
    bool ok = true;
    for (std::size_t k = 0; k < pairs.size() && ok; ++k)
      ok = (subset >> k & 1) || group[pairs[k].first] != group[pairs[k].second];
    if (!ok || !inductor_partition_legal(g, l, group, options.rules.max_group_ops)) continue;
    ++legal;
    const double time = inductor_partition_time_us(g, l, group, hw);
    if (!best || time < best->time_us) best = InductorOptimum{time, group, pairs.size(), 0};
  }
  if (best) best->legal = legal;
  return best;
}

}  // namespace fusion::testing
