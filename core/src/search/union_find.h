// search/union_find.h — a union-find over 0..n-1 with path halving, for the search's short-lived groupings
// (differences.cpp's replays, engine_group.cpp's parts, unpacked_groups.cpp's components). join(a, b) makes b's
// root the root of a's; find never recurses.
#pragma once

#include <cstddef>
#include <vector>

namespace fusion::search {

template <typename Index>
struct UnionFind {
  std::vector<Index> parent;
  explicit UnionFind(std::size_t n) : parent(n) {
    for (std::size_t x = 0; x < n; ++x) parent[x] = static_cast<Index>(x);
  }
  Index find(Index x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void join(Index a, Index b) { parent[find(a)] = find(b); }
};

}  // namespace fusion::search
