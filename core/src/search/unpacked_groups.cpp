// search/unpacked_groups.cpp — greedy's groups split into data-connected components (unpacked_groups.h).
#include "search/unpacked_groups.h"

#include "search/union_find.h"

namespace fusion::search {

detail::Grouping data_connected(const SearchSpace& space, const detail::Producers& producers,
                                const detail::Grouping& greedy) {
  const std::size_t n = space.graph.size();
  UnionFind<OpId> components(n);
  const auto join = [&](OpId a, OpId b) { components.join(a, b); };
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
  std::vector<OpId> smallest(n, -1);  // per component root: its smallest op, the representative
  for (std::size_t x = 0; x < n; ++x) {
    if (rep[x] < 0) {
      out.representative[x] = -1;
      continue;
    }
    OpId& first = smallest[static_cast<std::size_t>(components.find(static_cast<OpId>(x)))];
    if (first < 0) first = static_cast<OpId>(x);
    out.representative[x] = first;
  }
  return out;
}

}  // namespace fusion::search
