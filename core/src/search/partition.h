// search/partition.h — partitions of one part (local_problem.h): their bytes and their relaxed legality.
//
// A partition is given by which fusible edges are merged: its groups are the connected components of the merged
// edges (every member in exactly one group). bytes() is §8 restricted to the part: what its groups read
// (each outside producer once per group that reads it, each member once per other group that reads it) plus
// what they write (a member whose write is forced, or that another group reads). Merging two groups never adds
// bytes, so the bytes of any coarser partition are a lower bound for every partition it coarsens.
// relaxed_legal(): no cycle through the groups and the outside ops (each alone), and maximal: every two groups
// joined by a fusible edge either hold a shape-apart pair or would close such a cycle if merged. Shape-apart
// pairs are the caller's to keep apart (the search never merges across one). Sets of groups are Bits<W> too
// (a part of at most 64 W members has at most 64 W groups).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "search/local_problem.h"

namespace fusion::search {

template <std::size_t W>
struct Partition {
  std::vector<Bits<W>> groups;                    // ascending by smallest member
  std::array<std::uint16_t, 64 * W> group_of{};  // local index -> index in groups
};

// Groups of the edges for which merged(edge index) is true.
template <std::size_t W, typename MergedFn>
Partition<W> partition_of(const LocalProblem<W>& p, MergedFn merged) {
  std::array<std::uint16_t, 64 * W> parent{};
  const std::size_t k = p.ops.size();
  for (std::size_t i = 0; i < k; ++i) parent[i] = static_cast<std::uint16_t>(i);
  auto root = [&parent](std::uint16_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (std::size_t e = 0; e < p.edges.size(); ++e) {
    if (!merged(e)) continue;
    const std::uint16_t a = root(static_cast<std::uint16_t>(p.edges[e].producer));
    const std::uint16_t b = root(static_cast<std::uint16_t>(p.edges[e].consumer));
    parent[std::max(a, b)] = std::min(a, b);
  }
  Partition<W> out;
  std::array<std::int16_t, 64 * W> index_of_root;
  index_of_root.fill(-1);
  for (std::size_t i = 0; i < k; ++i) {
    const std::uint16_t r = root(static_cast<std::uint16_t>(i));
    if (index_of_root[r] < 0) {
      index_of_root[r] = static_cast<std::int16_t>(out.groups.size());
      out.groups.emplace_back();
    }
    out.group_of[i] = static_cast<std::uint16_t>(index_of_root[r]);
    out.groups[static_cast<std::size_t>(index_of_root[r])].set(i);
  }
  return out;
}

template <std::size_t W>
std::uint64_t bytes(const LocalProblem<W>& p, const Partition<W>& partition);
template <std::size_t W>
bool relaxed_legal(const LocalProblem<W>& p, const Partition<W>& partition);

}  // namespace fusion::search
