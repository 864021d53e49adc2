// search/components.cpp — union-find over fusible edges, then components listed in topological order.
#include "search/components.h"

#include <algorithm>


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
  auto join = [&](OpId x, OpId y) {
    OpId a = root_of(parent, x), b = root_of(parent, y);
    if (a == b) return;
    if (size[a] < size[b]) std::swap(a, b);
    parent[b] = a;
    size[a] += size[b];
  };
  for (std::size_t v = 0; v < n; ++v)
    for (const OpId* in = producers.begin(static_cast<OpId>(v)); in != producers.end(static_cast<OpId>(v)); ++in) {
      if (space.fusible(*in, static_cast<OpId>(v))) join(*in, static_cast<OpId>(v));
    }
  if (space.shares_buffer_pairs())  // the fusible readers of one buffer that run in one region, chained
    for (std::size_t b = 0; b < n; ++b) {
      std::vector<std::pair<std::int32_t, OpId>> last;  // (region, its latest fusible reader)
      for (const OpId* c = space.consumers.begin(static_cast<OpId>(b)); c != space.consumers.end(static_cast<OpId>(b)); ++c) {
        if (!space.fusible_node(*c)) continue;
        const std::int32_t region = space.lowered->op_region[space.plan_op(*c)];
        auto it = std::find_if(last.begin(), last.end(), [&](const auto& entry) { return entry.first == region; });
        if (it == last.end()) last.emplace_back(region, *c);
        else join(it->second, *c), it->second = *c;
      }
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
