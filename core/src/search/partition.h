// search/partition.h — partitions of one component (local_problem.h): their bytes and their relaxed legality.
//
// A partition is given by which fusible edges are merged: its groups are the connected components of the merged
// edges (every member in exactly one group). bytes() is §8 restricted to the component: what its groups read
// (each outside producer once per group that reads it, each member once per other group that reads it) plus
// what they write (a member whose write is forced, or that another group reads). Merging two groups never adds
// bytes, so the bytes of any coarser partition are a lower bound for every partition it coarsens.
// relaxed_legal(): no cycle through the groups and the outside ops (each alone), and maximal: every two groups
// joined by a fusible edge either hold a shape-apart pair or would close such a cycle if merged. Shape-apart
// pairs are the caller's to keep apart (the search never merges across one).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "search/local_problem.h"

namespace fusion::search {

struct Partition {
  std::vector<Mask> groups;               // ascending by smallest member
  std::array<std::uint8_t, kMaxLocalOps> group_of{};  // local index -> index in groups
};

// Groups of the edges for which merged(edge index) is true.
template <typename MergedFn>
Partition partition_of(const LocalProblem& p, MergedFn merged) {
  std::array<std::uint8_t, kMaxLocalOps> parent{};
  const std::size_t k = p.ops.size();
  for (std::size_t i = 0; i < k; ++i) parent[i] = static_cast<std::uint8_t>(i);
  auto root = [&parent](std::uint8_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (std::size_t e = 0; e < p.edges.size(); ++e) {
    if (!merged(e)) continue;
    const std::uint8_t a = root(static_cast<std::uint8_t>(p.edges[e].producer));
    const std::uint8_t b = root(static_cast<std::uint8_t>(p.edges[e].consumer));
    parent[std::max(a, b)] = std::min(a, b);
  }
  Partition out;
  std::array<std::int16_t, kMaxLocalOps> index_of_root;
  index_of_root.fill(-1);
  for (std::size_t i = 0; i < k; ++i) {
    const std::uint8_t r = root(static_cast<std::uint8_t>(i));
    if (index_of_root[r] < 0) {
      index_of_root[r] = static_cast<std::int16_t>(out.groups.size());
      out.groups.push_back(0);
    }
    out.group_of[i] = static_cast<std::uint8_t>(index_of_root[r]);
    out.groups[static_cast<std::size_t>(index_of_root[r])] |= Mask{1} << i;
  }
  return out;
}

std::uint64_t bytes(const LocalProblem& p, const Partition& partition);
bool relaxed_legal(const LocalProblem& p, const Partition& partition);

}  // namespace fusion::search
