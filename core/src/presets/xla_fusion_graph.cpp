// xla_fusion_graph.cpp — the fusion graph of xla_fusion_graph.h and its multi-output and horizontal passes.
#include "presets/xla_fusion_graph.h"

#include <algorithm>
#include <limits>
#include <map>
#include <span>

#include "presets/xla_kinds.h"

namespace fusion::presets {
namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
constexpr std::size_t kMaxSiblings = 16;
// Walk steps one multi-output or horizontal merge may spend on its cycle check before it is skipped (safe:
// a skipped merge is one XLA might have made, never a cycle).
constexpr std::uint64_t kFusionGraphCycleSteps = 4096;

// Nodes in topological order: sources and fusion roots, each reading what its fusion reads (distinct nodes, in
// the fusion's order), as producer rows; `output` marks the fusions whose root is a graph output.
detail::Producers build(const PresetInput& in, const PriorityFusionResult& p, std::vector<OpId>& root,
                        std::vector<std::size_t>& fusion_of, std::vector<std::uint8_t>& output) {
  std::vector<std::size_t> fusion_at(in.graph.size(), kNone);
  for (std::size_t k = 0; k < p.size(); ++k) fusion_at[p.roots[k]] = k;
  std::vector<OpId> node_of(in.graph.size(), -1);
  detail::Producers rows;
  rows.offsets.reserve(in.graph.size() + 1);
  rows.offsets.push_back(0);
  rows.ids.reserve(p.inputs.size());
  for (OpId x : in.order) {
    const bool source = p.facts[x].source;
    if (!source && fusion_at[x] == kNone) continue;
    if (!source)
      for (OpId i : p.fusion(fusion_at[x]).inputs) rows.ids.push_back(node_of[i]);
    rows.offsets.push_back(static_cast<std::int64_t>(rows.ids.size()));
    output.push_back(!source && p.facts[x].output);
    node_of[x] = static_cast<OpId>(root.size());
    root.push_back(x);
    fusion_of.push_back(source ? kNone : fusion_at[x]);
  }
  return rows;
}

// A stable sort that allocates nothing for the short lists the passes sort per node (insertion sort up to 32;
// std::stable_sort asks for a buffer on every call).
template <typename Less>
void stable_sort_short(std::vector<OpId>& list, Less&& less) {
  if (list.size() > 32) {
    std::stable_sort(list.begin(), list.end(), less);
    return;
  }
  for (std::size_t i = 1; i < list.size(); ++i) {
    const OpId x = list[i];
    std::size_t j = i;
    for (; j > 0 && less(x, list[j - 1]); --j) list[j] = list[j - 1];
    list[j] = x;
  }
}

std::vector<OpId> identity(std::size_t n) {
  std::vector<OpId> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<OpId>(i);
  return out;
}

}  // namespace

XlaFusionGraph::XlaFusionGraph(const PresetInput& in, PriorityFusionResult priority)
    : in_(in), priority_(std::move(priority)), producers_(build(in, priority_, root_, fusion_of_, output_)),
      consumers_(detail::consumers_of(producers_)), order_(identity(node_count())),
      groups_(nodes(), consumers_, order_), reach_(nodes(), consumers_), members_(node_count()),
      stats_(nodes(), producers_, consumers_, members_), info_(node_count()) {
  // Per op, in one pass over priority fusion's facts: a transpose or a reduction (the member loop below then reads
  // no op but those; priority fusion's copies make several member slots per op).
  const std::vector<XlaOpFacts>& facts = priority_.facts;
  enum : std::uint8_t { plain, transpose, reduction };
  std::vector<std::uint8_t> special(in.graph.size(), plain);
  for (std::size_t x = 0; x < in.graph.size(); ++x) {
    if (facts[x].kind == OpKind::transpose) special[x] = transpose;
    else if (facts[x].role == XlaRole::reduction) special[x] = reduction;
  }
  std::map<std::pair<Shape, Shape>, std::int32_t> transposes;  // numbers the transpose shapes
  fusible_node_.assign(node_count(), 0);
  epoch_.assign(node_count(), 0);
  for (std::size_t k = 0; k < node_count(); ++k) {
    members_[k].push_back(static_cast<OpId>(k));
    Group& group = info_[k];
    const XlaOpFacts& root = facts[root_[k]];
    group.region = root.region;
    group.dtype_bytes = in.graph.op(root_[k]).dtype_bytes;
    group.output = output_[k] != 0;
    if (fusion_of_[k] == kNone) {
      group.role = Role::source;
      continue;
    }
    const XlaFusion f = priority_.fusion(fusion_of_[k]);
    group.members = static_cast<std::int64_t>(f.members.size());
    group.space = root.elements;
    const bool lone_bitcast = f.members.size() == 1 && root.kind == OpKind::reshape;
    group.role = root.role != XlaRole::loop || lone_bitcast ? Role::own_kernel : Role::loop;
    // Its first transpose and its last reduction by op id (the members come in no set order).
    OpId first_transpose = -1, last_reduction = -1;
    for (OpId x : f.members) {
      if (special[x] == transpose && (first_transpose < 0 || x < first_transpose)) first_transpose = x;
      if (special[x] == reduction && x > last_reduction) last_reduction = x;
    }
    if (first_transpose >= 0) {
      const FusionOp& op = in.graph.op(first_transpose);
      const auto shapes = std::pair(in.graph.op(op.inputs.front()).shape, op.shape);
      group.transpose = transposes.emplace(shapes, static_cast<std::int32_t>(transposes.size())).first->second;
    }
    if (last_reduction >= 0) {
      const FusionOp& op = in.graph.op(last_reduction);
      group.role = Role::reduction;
      group.reduced = facts[last_reduction].elements;
      group.space = contiguous_reduction(in.graph, last_reduction) ? facts[op.inputs.front()].elements
                                                                   : facts[last_reduction].elements;
    }
    fusible_node_[k] = fusible(static_cast<OpId>(k));
  }
}

XlaFusionGraph::SpaceKey XlaFusionGraph::space_key(OpId group) const {
  const Group& g = info_[group];
  return {g.space, g.reduced, g.transpose, g.role == Role::reduction};
}

bool XlaFusionGraph::same_space(const SpaceKey& x, const SpaceKey& y) {
  if (x.transpose >= 0 || y.transpose >= 0) {
    if (x.reduction || y.reduction) return false;
    if (x.transpose >= 0 && y.transpose >= 0) return x.transpose == y.transpose;  // the same shapes
  }
  if (x.space != y.space) return false;
  return !x.reduction || !y.reduction || x.reduced == y.reduced;
}

// An edge between the groups: the later one in the group order reads a member of the earlier one (an edge never
// runs against the order). Looked for from the cheaper side: the later group's external inputs (kept by the
// stats), or the readers of the earlier group's members.
bool XlaFusionGraph::connected(OpId a, OpId b) {
  if (groups_.order_label(a) > groups_.order_label(b)) std::swap(a, b);
  const auto inputs = static_cast<std::size_t>(stats_.counts(b).inputs);
  std::size_t readers = 0;
  for (OpId member : members_[a])
    if ((readers += consumers_.count(member)) >= inputs) break;
  if (readers < inputs) {
    for (OpId member : members_[a])
      for (auto it = consumers_.begin(member); it != consumers_.end(member); ++it)
        if (find(*it) == b) return true;
    return false;
  }
  bool found = false;
  stats_.inputs_of(b, [&](OpId x) { found = found || find(x) == a; });
  return found;
}

// With no edge between them, every output of either group stays one and their inputs only overlap: the merged
// group has at least the larger input count plus both output counts as operands.
bool XlaFusionGraph::over_budget_unconnected(const detail::GroupCounts& x, const detail::GroupCounts& y) const {
  const std::int64_t limit = in_.options.rules.max_group_operands;
  return limit > 0 && std::max(x.inputs, y.inputs) + x.outputs + y.outputs > limit;
}

bool XlaFusionGraph::shares_operand(OpId a, OpId b) {
  if (members_[a].size() > members_[b].size()) std::swap(a, b);
  for (OpId node : members_[a])
    for (auto it = producers_.begin(node); it != producers_.end(node); ++it)
      if (find(*it) != a)
        for (OpId other : members_[b])
          if (std::find(producers_.begin(other), producers_.end(other), *it) != producers_.end(other)) return true;
  return false;
}

// Does the landmark index prove that merging the two groups would close a cycle (merge() would refuse them)?
bool XlaFusionGraph::cycle_proved(OpId a, OpId b) {
  if (a > b) std::swap(a, b);
  const auto known = known_cycles_.find(static_cast<std::uint64_t>(a) << 32 | static_cast<std::uint32_t>(b));
  if (known != known_cycles_.end() &&
      known->second == (static_cast<std::uint64_t>(epoch_[a]) << 32 | epoch_[b]))
    return true;
  if (groups_.order_label(a) > groups_.order_label(b)) std::swap(a, b);
  return reach_.proves_path(a, b, groups_);
}

void XlaFusionGraph::remember_cycle(OpId a, OpId b) {
  if (a > b) std::swap(a, b);
  known_cycles_[static_cast<std::uint64_t>(a) << 32 | static_cast<std::uint32_t>(b)] =
      static_cast<std::uint64_t>(epoch_[a]) << 32 | epoch_[b];
}

std::optional<OpId> XlaFusionGraph::merge(OpId a, OpId b, bool proof_tried) {
  a = find(a);
  b = find(b);
  if (a == b || !fusible(a) || !fusible(b)) return std::nullopt;
  if (info_[a].region != info_[b].region) return std::nullopt;
  const auto finder = [this](OpId x) { return groups_.find(x); };
  const std::int64_t limit = in_.options.rules.max_group_operands;
  const OpId first = a, second = b;  // the order the budget preview takes them in
  if (groups_.order_label(a) > groups_.order_label(b)) std::swap(a, b);
  // The cheap cycle proof first (it refuses about 4 in 10 merges on random graphs), then the budget (a scan of
  // the smaller group), then the walk; the last preview is the one commit() applies. The union has at most the
  // operands of both groups (merging only turns inputs and outputs inside): when they fit, the scan waits until
  // the walk has said yes (the walk refuses far more merges than the budget).
  if (!proof_tried && cycle_proved(a, b)) return std::nullopt;  // a cycle: the walk would refuse it too
  const bool fits = limit <= 0 || stats_.counts(a).operands() + stats_.counts(b).operands() <= limit;
  if (!fits && stats_.preview(first, second, finder).operands() > limit) return std::nullopt;
  if (!groups_.acyclic(a, b, kFusionGraphCycleSteps)) {
    if (groups_.found_cycle()) remember_cycle(a, b);
    return std::nullopt;
  }
  if (fits) stats_.preview(first, second, finder);
  groups_.merge_checked();
  const OpId into = find(a);
  const OpId from = into == a ? b : a;
  stats_.commit(into, finder);
  reach_.absorb(into, from);
  if (members_[into].size() < members_[from].size()) std::swap(members_[into], members_[from]);
  members_[into].insert(members_[into].end(), members_[from].begin(), members_[from].end());
  std::vector<OpId>().swap(members_[from]);
  Group& x = info_[into];
  const Group& y = info_[from];  // another entry (into != from)
  if (x.transpose < 0) x.transpose = y.transpose;
  if (y.role == Role::reduction && x.role != Role::reduction) {
    x.role = Role::reduction;
    x.space = y.space;
    x.reduced = y.reduced;
  }
  x.members += y.members;
  x.siblings += y.siblings;
  x.producer_outputs += y.producer_outputs;
  x.horizontal += y.horizontal;
  if (!loop_candidate_.empty()) loop_candidate_[into] = loop_candidate(into);
  return into;
}

void XlaFusionGraph::fuse_siblings(OpId parent) {
  if (consumers_.count(parent) < 2) return;  // no pair
  std::vector<OpId>& siblings = scratch_;
  siblings.clear();
  for (auto it = consumers_.begin(parent); it != consumers_.end(parent) && siblings.size() < kMaxSiblings; ++it) {
    if (!fusible_node_[*it]) continue;
    const OpId group = find(*it);
    if (std::find(siblings.begin(), siblings.end(), group) == siblings.end()) siblings.push_back(group);
  }
  if (siblings.size() < 2) return;
  stable_sort_short(siblings, [&](OpId l, OpId r) {
    return (info_[l].role == Role::reduction) > (info_[r].role == Role::reduction);
  });
  // Each sibling's group, space and operand counts, read once (most pairs differ in space); a merge changes only
  // the entries of its two groups, which then name the merged one (the other groups stay as they were).
  std::vector<SpaceKey>& keys = sibling_keys_;
  std::vector<detail::GroupCounts>& counts = sibling_counts_;
  keys.clear();
  counts.clear();
  for (OpId& group : siblings) {
    keys.push_back(space_key(group = find(group)));
    counts.push_back(stats_.counts(group));
  }
  for (std::size_t i = 0; i < siblings.size(); ++i)
    for (std::size_t j = i + 1; j < siblings.size(); ++j) {
      const OpId a = siblings[i], b = siblings[j];
      // The budget needs no edge check first: a connected pair is skipped anyway.
      if (a == b || !same_space(keys[i], keys[j]) || over_budget_unconnected(counts[i], counts[j]) || cycle_proved(a, b) ||
          connected(a, b))
        continue;
      if (const auto merged = merge(a, b, true)) {
        ++info_[*merged].siblings;
        for (std::size_t k = 0; k < siblings.size(); ++k)
          if (siblings[k] == a || siblings[k] == b) {
            siblings[k] = *merged;
            keys[k] = space_key(*merged);
            counts[k] = stats_.counts(*merged);
          }
      }
    }
}

void XlaFusionGraph::fuse_into_consumer(OpId producer) {
  const OpId p = find(producer);
  if (info_[p].role != Role::loop || info_[p].transpose >= 0 || members_[p].size() != 1) return;
  std::vector<OpId>& readers = scratch_;
  readers.clear();
  for (auto it = consumers_.begin(producer); it != consumers_.end(producer); ++it)
    if (const OpId group = find(*it); std::find(readers.begin(), readers.end(), group) == readers.end())
      readers.push_back(group);
  if (readers.size() < 2 && !info_[producer].output) return;
  for (OpId c : readers) {
    if (!fusible(c) || info_[c].space != info_[p].space) continue;
    if (const auto merged = merge(p, c)) {
      ++info_[*merged].producer_outputs;
      ++epoch_[*merged];  // merged across an edge: the cycles known of either group may be gone
      return;
    }
  }
}

void XlaFusionGraph::multi_output() {
  for (OpId node : order_) {
    fuse_siblings(node);
    if (info_[node].role != Role::source) fuse_into_consumer(node);
  }
}

// Same-shape (kLoop) batch candidates: loop groups of at most 128 members and 8192·8192 elements.
bool XlaFusionGraph::loop_candidate(OpId group) const {
  const Group& g = info_[group];
  return g.role == Role::loop && g.members <= 128 && g.space <= std::uint64_t{8192} * 8192;
}

// The distinct loop candidates among `nodes`' groups, in order, into `out`.
void XlaFusionGraph::loop_operands(std::span<const OpId> nodes, std::vector<OpId>& out) {
  out.clear();
  for (OpId node : nodes) {
    const OpId group = find(node);  // (a source is its own group, never a candidate)
    if (loop_candidate_[group] && std::find(out.begin(), out.end(), group) == out.end()) out.push_back(group);
  }
}

// One kind of horizontal batch: candidates sorted by (element size, iteration space), each joining the open
// batch of its kind when it fits, else opening the next one (GetNextSpanOfFusions); at most `most` per batch.
template <typename Fits>
void XlaFusionGraph::fuse_spans(std::vector<OpId>& candidates, std::int32_t most, Fits&& fits) {
  stable_sort_short(candidates, [&](OpId l, OpId r) {
    return std::pair(info_[l].dtype_bytes, info_[l].space) < std::pair(info_[r].dtype_bytes, info_[r].space);
  });
  OpId open = -1;
  std::int32_t size = 0;
  for (OpId candidate : candidates) {
    const OpId b = find(candidate);
    const OpId a = open >= 0 ? find(open) : -1;
    if (a >= 0 && a != b && size < most && fits(a, b) && !over_budget_unconnected(stats_.counts(a), stats_.counts(b)) && !cycle_proved(a, b) &&
        !connected(a, b))
      if (const auto merged = merge(a, b, true)) {
        ++info_[*merged].horizontal;
        open = *merged;
        ++size;
        continue;
      }
    open = b;
    size = 1;
  }
}

void XlaFusionGraph::fuse_operands(std::span<const OpId> operands) {
  std::vector<OpId>& candidates = scratch_;  // in the order of the operands (the sorts below take copies)
  // Same-shape (kLoop) batches: one element size and count, up to 90 fusions.
  loop_operands(operands, candidates);
  if (candidates.size() < 2) return;  // no batch of two, and the sliced candidates below are among these
  batch_.assign(candidates.begin(), candidates.end());
  fuse_spans(batch_, 90, [&](OpId a, OpId b) {
    return info_[a].space == info_[b].space && info_[a].dtype_bytes == info_[b].dtype_bytes;
  });
  // Sliced (kInput) batches: small groups of one element size, sharing no operand, up to 32. Their groups are
  // the ones above as merged, within the smaller limits (a group that was no candidate above was not changed
  // by the merges and is outside the smaller limits too), in the order the operands name them first.
  batch_.clear();
  for (OpId candidate : candidates) {
    const OpId group = find(candidate);
    const Group& g = info_[group];
    if (g.role != Role::loop || g.members > 30 || g.space > std::uint64_t{128} * 2048) continue;
    if (std::find(batch_.begin(), batch_.end(), group) == batch_.end()) batch_.push_back(group);
  }
  fuse_spans(batch_, 32, [&](OpId a, OpId b) {
    return info_[a].dtype_bytes == info_[b].dtype_bytes && !shares_operand(a, b);
  });
}

void XlaFusionGraph::horizontal() {
  loop_candidate_.assign(node_count(), 0);
  for (OpId node : order_)
    if (find(node) == node) loop_candidate_[node] = loop_candidate(node);
  std::vector<OpId> outputs;
  for (OpId node : order_)
    if (info_[node].output) outputs.push_back(node);
  fuse_operands(outputs);  // the ROOT tuple's operands
  for (auto it = order_.rbegin(); it != order_.rend(); ++it)
    fuse_operands(std::span<const OpId>(producers_.begin(*it), producers_.end(*it)));
}

}  // namespace fusion::presets

namespace fusion::presets {

detail::Grouping XlaFusionGraph::grouping() const {
  const std::size_t n = in_.graph.size();
  detail::Grouping out;
  out.representative.assign(n, -1);
  Holders holders;                        // per op: representatives (op ids) of the groups computing it
  std::vector<OpId> first_fusion(n, -1);  // per op: the root of the first priority fusion computing it
  auto& groups = const_cast<detail::GroupGraph&>(groups_);
  std::vector<std::int64_t> copies(n, 0);  // per representative op: ops it computes that others compute too
  holders.offsets.assign(n + 1, 0);
  for (OpId x : priority_.members) ++holders.offsets[static_cast<std::size_t>(x) + 1];
  for (std::size_t x = 0; x < n; ++x) holders.offsets[x + 1] += holders.offsets[x];
  holders.ids.resize(static_cast<std::size_t>(holders.offsets[n]));
  holders.ends.assign(holders.offsets.begin(), holders.offsets.end() - 1);
  // The fusion nodes by their group's representative op, ascending (a counting sort), so that each op's row fills
  // in ascending order and needs no sort; the first fusion computing an op is the one of the smallest node.
  std::vector<OpId> rep_of(node_count());
  std::vector<std::int64_t> at(n + 1, 0);
  for (std::size_t node = 0; node < node_count(); ++node) {
    rep_of[node] = root_[groups.find(static_cast<OpId>(node))];
    if (fusion_of_[node] == kNone) out.representative[root_[node]] = root_[node];
    else ++at[static_cast<std::size_t>(rep_of[node]) + 1];
  }
  for (std::size_t x = 0; x < n; ++x) at[x + 1] += at[x];
  std::vector<OpId> by_rep(static_cast<std::size_t>(at[n]));
  for (std::size_t node = 0; node < node_count(); ++node)
    if (fusion_of_[node] != kNone) by_rep[static_cast<std::size_t>(at[rep_of[node]]++)] = static_cast<OpId>(node);
  std::vector<OpId> first_node(n, std::numeric_limits<OpId>::max());
  for (OpId node : by_rep) {
    const OpId rep = rep_of[node];
    for (OpId x : priority_.fusion(fusion_of_[node]).members) {
      OpId* const end = holders.end(x);
      if (end == holders.begin(x) || end[-1] != rep) *end = rep, ++holders.ends[x];
      first_node[x] = std::min(first_node[x], node);
    }
  }
  for (std::size_t x = 0; x < n; ++x)
    if (first_node[x] != std::numeric_limits<OpId>::max()) first_fusion[x] = root_[first_node[x]];
  std::vector<OpId> own(n, -1);  // a live fusion's root belongs to its own group, copies elsewhere
  for (std::size_t node = 0; node < node_count(); ++node)
    if (fusion_of_[node] != kNone) own[root_[node]] = rep_of[node];
  out.copies.reserve(priority_.members.size() - priority_.size());  // at most every member slot but the roots
  for (std::size_t x = 0; x < n; ++x) {
    const std::span<const OpId> list(holders.begin(static_cast<OpId>(x)), holders.end(static_cast<OpId>(x)));
    const OpId owner = own[x] >= 0 ? own[x] : (list.size() == 1 ? list.front() : -1);
    if (owner >= 0 && out.representative[x] < 0) out.representative[x] = owner;
    for (OpId rep : list)
      if (rep != owner) {
        out.copies.emplace_back(static_cast<OpId>(x), rep);
        ++copies[rep];
      }
  }
  for (std::size_t node = 0; node < node_count(); ++node) {
    if (groups.find(static_cast<OpId>(node)) != static_cast<OpId>(node) || fusion_of_[node] == kNone) continue;
    const Group& g = info_[node];
    if (g.members < 2) continue;
    const std::int64_t here = copies[root_[node]];
    std::string text = g.role == Role::reduction ? "reduction fusion"
                       : in_.graph.op(root_[node]).kind == OpKind::scatter ? "scatter fusion"
                                                                           : "loop fusion";
    if (here > 0)
      text += "; priority fusion duplicated " + std::to_string(here) + (here == 1 ? " op" : " ops") +
              " into this kernel (also computed in another)";
    if (g.siblings > 0) text += "; multi-output fusion of " + std::to_string(g.siblings + 1) + " siblings";
    if (g.producer_outputs > 0) text += "; multi-output fusion: producer also written";
    if (g.horizontal > 0) text += "; horizontal loop fusion of " + std::to_string(g.horizontal + 1) + " fusions";
    out.rules.emplace_back(root_[node], std::move(text));
  }
  edge_reasons(holders, first_fusion, out);
  return out;
}

// The reason of every edge left unfused (xla_pipeline.cpp states the rule): the consumer's group is its owner,
// or the first group holding a copy of it.
void XlaFusionGraph::edge_reasons(const Holders& holders, const std::vector<OpId>& first_fusion,
                                  detail::Grouping& out) const {
  const FusionGraph& g = in_.graph;
  const std::vector<XlaOpFacts>& facts = priority_.facts;
  out.reasons.assign(in_.producers.ids.size(), EdgeReason::none);
  for (std::size_t v = 0; v < g.size(); ++v) {
    const auto consumer = static_cast<OpId>(v);
    if (holders.begin(consumer) == holders.end(consumer)) continue;
    const OpId group = out.representative[v] >= 0 ? out.representative[v] : *holders.begin(consumer);
    for (auto k = in_.producers.offsets[v]; k < in_.producers.offsets[v + 1]; ++k) {
      const OpId u = in_.producers.ids[static_cast<std::size_t>(k)];
      if (out.representative[u] == group || std::binary_search(holders.begin(u), holders.end(u), group)) continue;
      EdgeReason& reason = out.reasons[static_cast<std::size_t>(k)];
      const EdgeReason refused = priority_.refusal[u];
      // (The op facts say what the ops do, in a smaller record: regions numbered, equal for one region.)
      if (facts[u].source) reason = EdgeReason::source;
      else if (facts[u].region != facts[v].region) reason = EdgeReason::region;
      else if (refused == EdgeReason::none) reason = EdgeReason::cycle;
      else if (priority_.consumer[u] < 0 || priority_.consumer[u] == first_fusion[v]) reason = refused;
      else reason = EdgeReason::consumers;
    }
  }
}

}  // namespace fusion::presets
