// search/unpacked_groups.cpp — greedy's groups split into data-connected components (unpacked_groups.h).
#include "search/unpacked_groups.h"

#include <numeric>

namespace fusion::search {

detail::Grouping data_connected(const SearchSpace& space, const detail::Producers& producers,
                                const detail::Grouping& greedy) {
  const std::size_t n = space.graph.size();
  std::vector<OpId> root(n);
  std::iota(root.begin(), root.end(), OpId{0});
  const auto find = [&root](OpId x) {
    while (root[x] != x) x = root[x] = root[root[x]];
    return x;
  };
  const auto join = [&](OpId a, OpId b) {
    const OpId x = find(a), y = find(b);
    root[std::max(x, y)] = std::min(x, y);
  };
  const std::vector<OpId>& rep = greedy.representative;
  for (std::size_t v = 0; v < n; ++v)
    for (const OpId* in = producers.begin(static_cast<OpId>(v)); in != producers.end(static_cast<OpId>(v)); ++in)
      if (rep[v] >= 0 && rep[*in] == rep[v]) join(*in, static_cast<OpId>(v));
  if (space.shares_buffer_pairs())
    for (std::size_t t = 0; t < n; ++t) {
      std::vector<OpId> first_of;  // per greedy group met: its first reader of t outside it
      for (const OpId* c = space.consumers.begin(static_cast<OpId>(t)); c != space.consumers.end(static_cast<OpId>(t)); ++c) {
        if (rep[*c] < 0 || rep[*c] == rep[t]) continue;
        bool met = false;
        for (OpId f : first_of)
          if (rep[f] == rep[*c]) join(f, *c), met = true;
        if (!met) first_of.push_back(*c);
      }
    }
  detail::Grouping out = greedy;
  for (std::size_t x = 0; x < n; ++x) out.representative[x] = rep[x] < 0 ? -1 : find(static_cast<OpId>(x));
  return out;
}

}  // namespace fusion::search
