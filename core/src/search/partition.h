// search/partition.h — partitions of one part (local_problem.h): their bytes and their relaxed legality.
//
// A partition is given by which fusible edges are merged: its groups are the connected components of the merged
// edges (every member in exactly one group). bytes() is §8 restricted to the part: what its groups read
// (each outside producer once per group that reads it, each member once per other group that reads it) plus
// what they write (a member whose write is forced, or that another group reads). Merging two groups never adds
// bytes, so the bytes of any coarser partition are a lower bound for every partition it coarsens.
// time_ps() is the time model's estimate for the part's groups, each a kernel (docs/strategies.md "Time model":
// the group's bytes as above, its members' flops), in whole picoseconds rounded down per kernel; merging two
// groups never adds time (bytes and flops do not grow, and one launch of 3.8 us is saved, far more than the
// rounding), so the same coarsening argument holds. score() is the space's objective: bytes, or time_ps for a
// timed space (space.h).
// bound_score(p, partition, separated) is what branch and bound prunes with. separated[i] holds the members that
// read member i and share no group with it in every partition the search can still reach (apart pairs, readers it
// also reaches through outside ops, and the edges it has cut). A group G of the coarser partition holding i and one
// of them is split in all of those: i's output is then read by one more group than G's bytes count and written
// even when G does not write it, so bytes(G) plus those bytes (once per such i) bounds the split from below (the
// seed bound). Under a timed space, G's kernel is priced with those bytes added, and G adds (m(G) - 1) launches
// less 1 ps each, where m(G) is the fewest legal groups G can be split into:
//   - at least ceil(|G| / limit);
//   - 2 when G must split (it holds a separated pair, or a member and one it reaches through outside ops);
//   - the longest chain of members each reaching the next through an outside op (each needs its own group);
//   - tvm: its members of pattern kCommReduce or above (one per group), and its members that are roots in every
//     split (group_rules.h roots_of: written, read by another group, read by a separated reader in G, read by two
//     members of G that never share a group, or post-dominated by no other member), one per group;
//   - inductor: its templates, and its distinct reduction ranges plus the numels of its other members that none
//     of those ranges takes (a group without a reduction has one numel), a range or such a numel counting twice
//     when its own members must split, or as the longest chain among them.
// (time_ps under inductor counts each inlined op once per group that computes it, so merging never adds flops.)
// m groups that split G take at least m launches and, together, G's bytes plus the separated outputs' and G's
// flops (sub-additivity, above), so the bound stays below every partition the coarser one coarsens.
// relaxed_legal(): every group is legal (group_rules.h), no cycle through the groups and the outside ops (each
// alone), and maximal: every two groups joined by a fusible edge either could not form one legal group or would
// close such a cycle if merged. Apart pairs are the caller's to keep apart (the search never merges across one).
// Sets of groups are Bits<W> too (a part of at most 64 W members has at most 64 W groups).
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
std::uint64_t time_ps(const LocalProblem<W>& p, const Partition<W>& partition);
template <std::size_t W>
std::uint64_t score(const LocalProblem<W>& p, const Partition<W>& partition) {
  return p.kind == SpaceKind::seed || p.kind == SpaceKind::engine ? bytes(p, partition) : time_ps(p, partition);
}
template <std::size_t W>
std::uint64_t bound_score(const LocalProblem<W>& p, const Partition<W>& partition, const std::vector<Bits<W>>& separated);
template <std::size_t W>
bool relaxed_legal(const LocalProblem<W>& p, const Partition<W>& partition);

}  // namespace fusion::search
