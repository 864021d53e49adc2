// search/partition.cpp — bytes and relaxed legality of one component's partition (partition.h).
#include "search/partition.h"

#include <bit>

namespace fusion::search {
namespace {

// The groups (as a mask of group indices) that hold a member of `members`.
Mask groups_hit(const Partition& partition, Mask members) {
  Mask hit = 0;
  for (; members; members &= members - 1) hit |= Mask{1} << partition.group_of[std::countr_zero(members)];
  return hit;
}

// Successors of each group in the relaxed group graph: `near` by direct edges, `far` by outside paths.
struct GroupEdges {
  std::vector<Mask> near, far, reach;  // reach: groups reachable by one or more steps
};

GroupEdges group_edges(const LocalProblem& p, const Partition& partition) {
  const std::size_t count = partition.groups.size();
  GroupEdges e{std::vector<Mask>(count, 0), std::vector<Mask>(count, 0), std::vector<Mask>(count, 0)};
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const std::size_t g = partition.group_of[i];
    e.near[g] |= groups_hit(partition, p.direct[i]) & ~(Mask{1} << g);
    e.far[g] |= groups_hit(partition, p.via[i]);
  }
  return e;
}

// Fills reach by Kahn's algorithm over the groups; false when the relaxed group graph has a cycle.
bool close_reach(GroupEdges& e) {
  const std::size_t count = e.near.size();
  std::vector<int> pending(count, 0);
  for (std::size_t g = 0; g < count; ++g)
    for (Mask s = e.near[g] | e.far[g]; s; s &= s - 1) ++pending[std::countr_zero(s)];
  std::vector<std::size_t> topo;
  for (std::size_t g = 0; g < count; ++g)
    if (pending[g] == 0) topo.push_back(g);
  for (std::size_t head = 0; head < topo.size(); ++head)
    for (Mask s = e.near[topo[head]] | e.far[topo[head]]; s; s &= s - 1)
      if (--pending[std::countr_zero(s)] == 0) topo.push_back(static_cast<std::size_t>(std::countr_zero(s)));
  if (topo.size() != count) return false;
  for (std::size_t t = count; t-- > 0;) {
    const std::size_t g = topo[t];
    Mask reach = e.near[g] | e.far[g];
    for (Mask s = reach; s; s &= s - 1) reach |= e.reach[std::countr_zero(s)];
    e.reach[g] = reach;
  }
  return true;
}

// Would merging groups a and b close a cycle (a path between them through something else)?
bool merge_closes_cycle(const GroupEdges& e, std::size_t a, std::size_t b) {
  const Mask bit_b = Mask{1} << b;
  if (e.far[a] & bit_b) return true;
  for (Mask s = (e.near[a] | e.far[a]) & ~bit_b; s; s &= s - 1)
    if (e.reach[std::countr_zero(s)] & bit_b) return true;
  return false;
}

}  // namespace

std::uint64_t bytes(const LocalProblem& p, const Partition& partition) {
  std::uint64_t total = 0;
  for (const OutsideRead& read : p.outside_reads)
    total += read.bytes * static_cast<std::uint64_t>(std::popcount(groups_hit(partition, read.readers)));
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const Mask others = p.consumers[i] & ~partition.groups[partition.group_of[i]];
    const auto readers = static_cast<std::uint64_t>(std::popcount(groups_hit(partition, others)));
    total += p.bytes[i] * (readers + ((p.forced_write[i] || others) ? 1 : 0));
  }
  return total;
}

bool relaxed_legal(const LocalProblem& p, const Partition& partition) {
  for (std::size_t i = 0; i < p.ops.size(); ++i)
    if (p.via[i] & partition.groups[partition.group_of[i]]) return false;  // a path out of a group and back
  GroupEdges e = group_edges(p, partition);
  if (!close_reach(e)) return false;
  for (const LocalEdge& edge : p.edges) {
    const std::size_t a = partition.group_of[edge.producer], b = partition.group_of[edge.consumer];
    if (a == b) continue;
    Mask apart = 0;
    for (Mask s = partition.groups[a]; s; s &= s - 1) apart |= p.shape_apart[std::countr_zero(s)];
    if (apart & partition.groups[b]) continue;
    if (!merge_closes_cycle(e, a, b) && !merge_closes_cycle(e, b, a)) return false;  // not maximal
  }
  return true;
}

}  // namespace fusion::search
