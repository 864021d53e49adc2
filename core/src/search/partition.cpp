// search/partition.cpp — bytes and relaxed legality of one part's partition (partition.h), for the three widths.
#include "search/partition.h"

#include <algorithm>

#include "detail/saturating.h"
#include "fusion/time_model.h"
#include "search/group_rules.h"

namespace fusion::search {
namespace {

// The groups that hold a member of `members`.
template <std::size_t W>
Bits<W> groups_hit(const Partition<W>& partition, const Bits<W>& members) {
  Bits<W> hit;
  members.each([&](std::size_t i) { hit.set(partition.group_of[i]); });
  return hit;
}

// Successors of each group in the relaxed group graph: `near` by direct edges, `far` by outside paths.
template <std::size_t W>
struct GroupEdges {
  std::vector<Bits<W>> near, far, reach;  // reach: groups reachable by one or more steps
};

template <std::size_t W>
GroupEdges<W> group_edges(const LocalProblem<W>& p, const Partition<W>& partition) {
  const std::size_t count = partition.groups.size();
  GroupEdges<W> e{std::vector<Bits<W>>(count), std::vector<Bits<W>>(count), std::vector<Bits<W>>(count)};
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const std::size_t g = partition.group_of[i];
    e.near[g] |= groups_hit(partition, p.direct[i]).minus(Bits<W>::of(g));
    e.far[g] |= groups_hit(partition, p.via[i]);
  }
  return e;
}

// Fills reach by Kahn's algorithm over the groups; false when the relaxed group graph has a cycle.
template <std::size_t W>
bool close_reach(GroupEdges<W>& e) {
  const std::size_t count = e.near.size();
  std::vector<int> pending(count, 0);
  for (std::size_t g = 0; g < count; ++g) (e.near[g] | e.far[g]).each([&](std::size_t s) { ++pending[s]; });
  std::vector<std::size_t> topo;
  for (std::size_t g = 0; g < count; ++g)
    if (pending[g] == 0) topo.push_back(g);
  for (std::size_t head = 0; head < topo.size(); ++head)
    (e.near[topo[head]] | e.far[topo[head]]).each([&](std::size_t s) {
      if (--pending[s] == 0) topo.push_back(s);
    });
  if (topo.size() != count) return false;
  for (std::size_t t = count; t-- > 0;) {
    const std::size_t g = topo[t];
    Bits<W> reach = e.near[g] | e.far[g];
    (e.near[g] | e.far[g]).each([&](std::size_t s) { reach |= e.reach[s]; });
    e.reach[g] = reach;
  }
  return true;
}

// Would merging groups a and b close a cycle (a path between them through something else)?
template <std::size_t W>
bool merge_closes_cycle(const GroupEdges<W>& e, std::size_t a, std::size_t b) {
  if (e.far[a].test(b)) return true;
  bool found = false;
  (e.near[a] | e.far[a]).minus(Bits<W>::of(b)).each([&](std::size_t s) { found = found || e.reach[s].test(b); });
  return found;
}

// Inductor: each group computes every inlined op of its members' closures once.
template <std::size_t W>
void add_inlined_flops(const LocalProblem<W>& p, const Partition<W>& partition, std::vector<std::uint64_t>& vector_flops,
                       std::vector<std::uint64_t>& matrix_flops) {
  if (p.inlined_vector_flops.empty()) return;
  std::vector<std::uint32_t> seen_in(p.inlined_vector_flops.size(), 0);  // group index + 1
  for (std::size_t g = 0; g < partition.groups.size(); ++g)
    partition.groups[g].each([&](std::size_t i) {
      for (std::uint32_t y : p.inlined[i]) {
        if (seen_in[y] == g + 1) continue;
        seen_in[y] = static_cast<std::uint32_t>(g + 1);
        vector_flops[g] = detail::saturating_add(vector_flops[g], p.inlined_vector_flops[y]);
        matrix_flops[g] = detail::saturating_add(matrix_flops[g], p.inlined_matrix_flops[y]);
      }
    });
}

// May members of `members` never all share one group: one reaches another through outside ops (a cycle), or reads
// another it is separated from (partition.h)?
template <std::size_t W>
bool must_split(const LocalProblem<W>& p, const Bits<W>& members, const std::vector<Bits<W>>& separated) {
  bool split = false;
  members.each([&](std::size_t i) { split = split || p.via[i].intersects(members) || separated[i].intersects(members); });
  return split;
}

// The most members of s in one chain, each followed by one of next(member) & s. Members ascend in a topological
// order (and next() only points later), so one pass.
template <std::size_t W, typename Next>
std::int64_t longest_chain(const Bits<W>& s, Next&& next) {
  std::array<std::int64_t, 64 * W> before;  // per member of s: the longest chain ending just before it
  s.each([&](std::size_t i) { before[i] = 0; });  // (only s's entries are read: no clearing of the whole array)
  std::int64_t longest = 0;
  s.each([&](std::size_t i) {
    const std::int64_t here = before[i] + 1;
    longest = std::max(longest, here);
    (next(i) & s).each([&](std::size_t j) { before[j] = std::max(before[j], here); });
  });
  return longest;
}

// The most members of s in one chain, each reaching the next through an outside op (after[]): each needs a group
// of its own.
template <std::size_t W>
std::int64_t longest_outside_chain(const LocalProblem<W>& p, const Bits<W>& s) {
  return longest_chain(s, [&](std::size_t i) -> const Bits<W>& { return p.after[i]; });
}

// Inductor: groups needed for the ranges alone: one per reduction range, plus one per numel of a non-reduction
// member that no range of the group can take (n·r or n), since a group without a reduction has one numel. Such a
// numel's members, and a range's reductions, sit in groups of their own kind only: one more when they must split.
template <std::size_t W>
std::int64_t inductor_range_groups(const LocalProblem<W>& p, const Bits<W>& group, const std::vector<Bits<W>>& separated) {
  std::vector<presets::IterationRange> ranges;
  std::vector<Bits<W>> reductions_of;  // per range, its reductions in the group
  std::vector<std::uint64_t> numels;
  std::vector<Bits<W>> members_of;     // per numel, its non-reduction members in the group
  group.each([&](std::size_t s) {
    const bool reduction = p.reductions.test(s);
    if (reduction) {
      const auto at = std::find(ranges.begin(), ranges.end(), p.range[s]) - ranges.begin();
      if (static_cast<std::size_t>(at) == ranges.size()) ranges.push_back(p.range[s]), reductions_of.emplace_back();
      reductions_of[static_cast<std::size_t>(at)].set(s);
    } else {
      const auto at = std::find(numels.begin(), numels.end(), p.range[s].numel) - numels.begin();
      if (static_cast<std::size_t>(at) == numels.size()) numels.push_back(p.range[s].numel), members_of.emplace_back();
      members_of[static_cast<std::size_t>(at)].set(s);
    }
  });
  std::int64_t groups = 0;
  const auto class_groups = [&](const Bits<W>& members) {
    return std::max<std::int64_t>(must_split(p, members, separated) ? 2 : 1, longest_outside_chain(p, members));
  };
  for (const Bits<W>& reductions : reductions_of) groups += class_groups(reductions);
  for (std::size_t k = 0; k < numels.size(); ++k) {
    const bool taken = std::any_of(ranges.begin(), ranges.end(), [&](const auto& r) { return r.takes(numels[k]); });
    if (!taken) groups += class_groups(members_of[k]);
  }
  return std::max<std::int64_t>(1, groups);
}

// The fewest legal groups a group of a coarser partition can be split into (partition.h, bound_score).
template <std::size_t W>
std::int64_t fewest_groups(const LocalProblem<W>& p, const Bits<W>& group, const std::vector<Bits<W>>& separated) {
  const auto size = static_cast<std::int64_t>(group.count());
  std::int64_t split = 1;
  if (p.max_depth > 0) split = std::max(split, (size + p.max_depth - 1) / p.max_depth);
  if (p.kind == SpaceKind::inductor) {
    split = std::max<std::int64_t>(split, (group & p.templates).count());
    return std::max(split, inductor_range_groups(p, group, separated));
  }
  // tvm: one root per group
  return std::max({split, static_cast<std::int64_t>((group & p.heavy).count()), roots_of(p, group, &separated)});
}

// Per group, the bytes it moves (reads once per tensor, writes of members read by another group or forced) and
// its flops, as time_ps prices them.
template <std::size_t W>
struct GroupWork {
  std::vector<std::uint64_t> moved, vector_flops, matrix_flops;
};

template <std::size_t W>
GroupWork<W> group_work(const LocalProblem<W>& p, const Partition<W>& partition) {
  const std::size_t count = partition.groups.size();
  GroupWork<W> w{std::vector<std::uint64_t>(count, 0), std::vector<std::uint64_t>(count, 0),
                 std::vector<std::uint64_t>(count, 0)};
  for (const OutsideRead<W>& read : p.outside_reads)
    groups_hit(partition, read.readers).each([&](std::size_t g) { w.moved[g] = detail::saturating_add(w.moved[g], read.bytes); });
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const std::size_t own = partition.group_of[i];
    const Bits<W> others = p.consumers[i].minus(partition.groups[own]);
    groups_hit(partition, others).each([&](std::size_t g) { w.moved[g] = detail::saturating_add(w.moved[g], p.bytes[i]); });
    if (p.forced_write[i] || others.any()) w.moved[own] = detail::saturating_add(w.moved[own], p.bytes[i]);
    w.vector_flops[own] = detail::saturating_add(w.vector_flops[own], p.vector_flops[i]);
    w.matrix_flops[own] = detail::saturating_add(w.matrix_flops[own], p.matrix_flops[i]);
  }
  add_inlined_flops(p, partition, w.vector_flops, w.matrix_flops);
  return w;
}

// Per group, the bytes every split of it separating the pairs in `separated` adds (partition.h): each member i
// with a separated reader in its group is read once more, and written once more unless the group writes it.
template <std::size_t W>
std::vector<std::uint64_t> split_bytes(const LocalProblem<W>& p, const Partition<W>& partition,
                                       const std::vector<Bits<W>>& separated) {
  std::vector<std::uint64_t> extra(partition.groups.size(), 0);
  for (std::size_t i = 0; i < separated.size(); ++i) {
    const Bits<W>& group = partition.groups[partition.group_of[i]];
    if (!separated[i].intersects(group)) continue;
    const bool written = p.forced_write[i] || p.consumers[i].minus(group).any();
    const std::uint64_t added = written ? p.bytes[i] : detail::saturating_add(p.bytes[i], p.bytes[i]);
    extra[partition.group_of[i]] = detail::saturating_add(extra[partition.group_of[i]], added);
  }
  return extra;
}

// xla: per group, the ops its kernel computes (members and their copies, xla_duplication.h), as holders: per op,
// the groups whose kernel computes it. A group of duplicated members only computes nothing.
template <std::size_t W>
std::vector<Bits<W>> xla_holders(const LocalProblem<W>& p, const Partition<W>& partition) {
  std::vector<Bits<W>> holders(p.ops.size());
  for (std::size_t g = 0; g < partition.groups.size(); ++g) {
    const Bits<W>& group = partition.groups[g];
    if (!group.minus(p.duplicated).any()) continue;
    group.each([&](std::size_t s) {
      holders[s].set(g);
      p.copy_of[s].each([&](std::size_t d) { holders[d].set(g); });
    });
  }
  return holders;
}

// xla: per group, the bytes its kernel moves and its flops. A group's kernel reads each outside tensor and each
// member of another group that its kernel reads once, writes its members that are forced or read by another
// kernel, and computes its kernel's ops.
template <std::size_t W>
GroupWork<W> xla_group_work(const LocalProblem<W>& p, const Partition<W>& partition) {
  const std::size_t count = partition.groups.size();
  const std::vector<Bits<W>> holders = xla_holders(p, partition);
  const auto hit = [&](const Bits<W>& readers) {
    Bits<W> groups;
    readers.each([&](std::size_t r) { groups |= holders[r]; });
    return groups;
  };
  GroupWork<W> w{std::vector<std::uint64_t>(count, 0), std::vector<std::uint64_t>(count, 0),
                 std::vector<std::uint64_t>(count, 0)};
  for (const OutsideRead<W>& read : p.outside_reads)
    hit(read.readers).each([&](std::size_t g) { w.moved[g] = detail::saturating_add(w.moved[g], read.bytes); });
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    holders[i].each([&](std::size_t g) {
      w.vector_flops[g] = detail::saturating_add(w.vector_flops[g], p.vector_flops[i]);
      w.matrix_flops[g] = detail::saturating_add(w.matrix_flops[g], p.matrix_flops[i]);
    });
    if (p.duplicated.test(i)) continue;
    const std::size_t own = partition.group_of[i];
    const Bits<W> others = hit(p.consumers[i]).minus(Bits<W>::of(own));
    others.each([&](std::size_t g) { w.moved[g] = detail::saturating_add(w.moved[g], p.bytes[i]); });
    if (p.forced_write[i] || others.any()) w.moved[own] = detail::saturating_add(w.moved[own], p.bytes[i]);
  }
  return w;
}

// xla: the most reductions of s in one chain, each reaching the next (no kernel holds two of them).
template <std::size_t W>
std::int64_t longest_reduction_chain(const LocalProblem<W>& p, const Bits<W>& s) {
  return longest_chain(s & p.reductions, [&](std::size_t i) -> const Bits<W>& { return p.reach[i]; });
}

// xla: does a reduction of s reach a member of s that may not be its epilogue (not elementwise of its output
// elements)? Then the two never share a kernel.
template <std::size_t W>
bool reduction_splits(const LocalProblem<W>& p, const Bits<W>& s) {
  bool split = false;
  (s & p.reductions).each([&](std::size_t r) {
    (p.reach[r] & s).each([&](std::size_t m) {
      split = split || !p.elementwise.test(m) || p.elements[m] != p.elements[r];
    });
  });
  return split;
}

// Would the kernel of one group be empty (its members are all duplicated)?
template <std::size_t W>
bool copies_only(const LocalProblem<W>& p, const Bits<W>& group) {
  return !group.minus(p.duplicated).any();
}

template <std::size_t W>
std::uint64_t xla_time_ps(const LocalProblem<W>& p, const Partition<W>& partition) {
  const GroupWork<W> w = xla_group_work(p, partition);
  std::uint64_t total = 0;
  for (std::size_t g = 0; g < partition.groups.size(); ++g)
    if (!copies_only(p, partition.groups[g]))
      total = detail::saturating_add(total, kernel_ps(kernel_time_us(w.moved[g], w.vector_flops[g], w.matrix_flops[g], p.hardware)));
  return total;
}

// xla: bound_score (partition.h) with the fewest groups each group splits into: 2 when it holds a separated pair, a
// member and one it reaches through outside ops, or a reduction and a member it reaches that may not be its
// epilogue; the longest chain through outside ops; the longest chain of reductions each reaching the next.
template <std::size_t W>
std::uint64_t xla_bound_score(const LocalProblem<W>& p, const Partition<W>& partition, const std::vector<Bits<W>>& separated) {
  const GroupWork<W> w = xla_group_work(p, partition);
  const std::vector<std::uint64_t> extra = split_bytes(p, partition, separated);
  const std::uint64_t launch = kernel_ps(p.hardware.launch_us);
  std::uint64_t total = 0;
  for (std::size_t g = 0; g < partition.groups.size(); ++g) {
    const Bits<W>& group = partition.groups[g];
    if (copies_only(p, group)) continue;
    const std::uint64_t moved = detail::saturating_add(w.moved[g], extra[g]);
    std::int64_t split = must_split(p, group, separated) || reduction_splits(p, group) ? 2 : 1;
    split = std::max({split, longest_outside_chain(p, group), longest_reduction_chain(p, group)});
    total = detail::saturating_add(total, kernel_ps(kernel_time_us(moved, w.vector_flops[g], w.matrix_flops[g], p.hardware)));
    if (launch > 1) total = detail::saturating_add(total, static_cast<std::uint64_t>(split - 1) * (launch - 1));
  }
  return total;
}

}  // namespace

template <std::size_t W>
std::uint64_t bytes(const LocalProblem<W>& p, const Partition<W>& partition) {
  std::uint64_t total = 0;
  for (const OutsideRead<W>& read : p.outside_reads)
    total += read.bytes * static_cast<std::uint64_t>(groups_hit(partition, read.readers).count());
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const Bits<W> others = p.consumers[i].minus(partition.groups[partition.group_of[i]]);
    const auto readers = static_cast<std::uint64_t>(groups_hit(partition, others).count());
    total += p.bytes[i] * (readers + ((p.forced_write[i] || others.any()) ? 1 : 0));
  }
  return total;
}

template <std::size_t W>
std::uint64_t time_ps(const LocalProblem<W>& p, const Partition<W>& partition) {
  if (p.kind == SpaceKind::xla) return xla_time_ps(p, partition);
  const GroupWork<W> w = group_work(p, partition);
  std::uint64_t total = 0;
  for (std::size_t g = 0; g < partition.groups.size(); ++g)
    total = detail::saturating_add(total, kernel_ps(kernel_time_us(w.moved[g], w.vector_flops[g], w.matrix_flops[g], p.hardware)));
  return total;
}

template <std::size_t W>
std::uint64_t bound_score(const LocalProblem<W>& p, const Partition<W>& partition, const std::vector<Bits<W>>& separated) {
  if (p.kind == SpaceKind::xla) return xla_bound_score(p, partition, separated);
  const std::vector<std::uint64_t> extra = split_bytes(p, partition, separated);
  if (p.kind == SpaceKind::seed || p.kind == SpaceKind::engine) {  // bytes: the seed bound
    std::uint64_t total = bytes(p, partition);
    for (std::uint64_t added : extra) total = detail::saturating_add(total, added);
    return total;
  }
  const GroupWork<W> w = group_work(p, partition);
  const std::uint64_t launch = kernel_ps(p.hardware.launch_us);
  std::uint64_t total = 0;
  for (std::size_t g = 0; g < partition.groups.size(); ++g) {
    const Bits<W>& group = partition.groups[g];
    const std::uint64_t moved = detail::saturating_add(w.moved[g], extra[g]);
    std::int64_t split = fewest_groups(p, group, separated);
    if (must_split(p, group, separated)) split = std::max<std::int64_t>(split, 2);
    split = std::max(split, longest_outside_chain(p, group));
    total = detail::saturating_add(total, kernel_ps(kernel_time_us(moved, w.vector_flops[g], w.matrix_flops[g], p.hardware)));
    if (launch > 1) total = detail::saturating_add(total, static_cast<std::uint64_t>(split - 1) * (launch - 1));
  }
  return total;
}

template <std::size_t W>
bool relaxed_legal(const LocalProblem<W>& p, const Partition<W>& partition) {
  for (std::size_t i = 0; i < p.ops.size(); ++i)
    if (p.via[i].intersects(partition.groups[partition.group_of[i]])) return false;  // out of a group and back
  for (const Bits<W>& group : partition.groups)
    if (!legal_group(p, group)) return false;
  GroupEdges<W> e = group_edges(p, partition);
  if (!close_reach(e)) return false;
  for (const LocalEdge& edge : p.edges) {
    const std::size_t a = partition.group_of[edge.producer], b = partition.group_of[edge.consumer];
    if (a == b) continue;
    const Bits<W>& x = partition.groups[a];
    const Bits<W>& y = partition.groups[b];
    if (!may_join(p, x, y) || !legal_group(p, x | y)) continue;
    if (!merge_closes_cycle(e, a, b) && !merge_closes_cycle(e, b, a)) return false;  // not maximal
  }
  return true;
}

template std::uint64_t bytes<1>(const LocalProblem<1>&, const Partition<1>&);
template std::uint64_t bytes<4>(const LocalProblem<4>&, const Partition<4>&);
template std::uint64_t bytes<16>(const LocalProblem<16>&, const Partition<16>&);
template std::uint64_t time_ps<1>(const LocalProblem<1>&, const Partition<1>&);
template std::uint64_t time_ps<4>(const LocalProblem<4>&, const Partition<4>&);
template std::uint64_t time_ps<16>(const LocalProblem<16>&, const Partition<16>&);
template std::uint64_t bound_score<1>(const LocalProblem<1>&, const Partition<1>&, const std::vector<Bits<1>>&);
template std::uint64_t bound_score<4>(const LocalProblem<4>&, const Partition<4>&, const std::vector<Bits<4>>&);
template std::uint64_t bound_score<16>(const LocalProblem<16>&, const Partition<16>&, const std::vector<Bits<16>>&);
template bool relaxed_legal<1>(const LocalProblem<1>&, const Partition<1>&);
template bool relaxed_legal<4>(const LocalProblem<4>&, const Partition<4>&);
template bool relaxed_legal<16>(const LocalProblem<16>&, const Partition<16>&);

}  // namespace fusion::search
