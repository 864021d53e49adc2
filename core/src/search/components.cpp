// search/components.cpp — union-find over fusible edges, then components listed in topological order.
#include "search/components.h"


namespace fusion::search {
namespace {

OpId root_of(std::vector<OpId>& parent, OpId x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

}  // namespace

Components fusible_components(const SearchSpace& space, const detail::Producers& producers,
                              const std::vector<OpId>& order) {
  const std::size_t n = space.graph.size();
  std::vector<OpId> parent(n);
  std::vector<std::int32_t> size(n, 1);
  for (std::size_t x = 0; x < n; ++x) parent[x] = static_cast<OpId>(x);
  for (std::size_t v = 0; v < n; ++v)
    for (const OpId* in = producers.begin(static_cast<OpId>(v)); in != producers.end(static_cast<OpId>(v)); ++in) {
      if (!space.fusible(*in, static_cast<OpId>(v))) continue;
      OpId a = root_of(parent, *in), b = root_of(parent, static_cast<OpId>(v));
      if (a == b) continue;
      if (size[a] < size[b]) std::swap(a, b);
      parent[b] = a;
      size[a] += size[b];
    }
  Components c;
  c.of_op.assign(n, -1);
  std::vector<std::int32_t> index_of_root(n, -1);
  for (OpId x : order) {
    const OpId r = root_of(parent, x);
    if (size[r] < 2) continue;
    if (index_of_root[r] < 0) {
      index_of_root[r] = static_cast<std::int32_t>(c.members.size());
      c.members.emplace_back();
    }
    c.of_op[x] = index_of_root[r];
    c.members[static_cast<std::size_t>(index_of_root[r])].push_back(x);
  }
  return c;
}

}  // namespace fusion::search
