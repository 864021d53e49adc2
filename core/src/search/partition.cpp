// search/partition.cpp — bytes and relaxed legality of one part's partition (partition.h), for the three widths.
#include "search/partition.h"

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
bool relaxed_legal(const LocalProblem<W>& p, const Partition<W>& partition) {
  for (std::size_t i = 0; i < p.ops.size(); ++i)
    if (p.via[i].intersects(partition.groups[partition.group_of[i]])) return false;  // out of a group and back
  GroupEdges<W> e = group_edges(p, partition);
  if (!close_reach(e)) return false;
  for (const LocalEdge& edge : p.edges) {
    const std::size_t a = partition.group_of[edge.producer], b = partition.group_of[edge.consumer];
    if (a == b) continue;
    Bits<W> apart;
    partition.groups[a].each([&](std::size_t s) { apart |= p.shape_apart[s]; });
    if (apart.intersects(partition.groups[b])) continue;
    if (!merge_closes_cycle(e, a, b) && !merge_closes_cycle(e, b, a)) return false;  // not maximal
  }
  return true;
}

template std::uint64_t bytes<1>(const LocalProblem<1>&, const Partition<1>&);
template std::uint64_t bytes<4>(const LocalProblem<4>&, const Partition<4>&);
template std::uint64_t bytes<16>(const LocalProblem<16>&, const Partition<16>&);
template bool relaxed_legal<1>(const LocalProblem<1>&, const Partition<1>&);
template bool relaxed_legal<4>(const LocalProblem<4>&, const Partition<4>&);
template bool relaxed_legal<16>(const LocalProblem<16>&, const Partition<16>&);

}  // namespace fusion::search
