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
                              const std::vector<OpId>& order, const detail::Grouping* greedy) {
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
  const auto same_region = [&](OpId a, OpId b) {
    if (!space.lowered) return space.graph.op(a).region == space.graph.op(b).region;
    return space.lowered->op_region[space.plan_op(a)] == space.lowered->op_region[space.plan_op(b)];
  };
  // Chains the ops of a row (readers of one buffer, or producers of one op) that `takes` accepts, per region.
  const auto chain = [&](const OpId* begin, const OpId* end, auto&& takes) {
    std::vector<OpId> last;  // the latest accepted op of each region met
    for (const OpId* x = begin; x != end; ++x) {
      if (!takes(*x)) continue;
      auto it = std::find_if(last.begin(), last.end(), [&](OpId y) { return same_region(y, *x); });
      if (it == last.end()) last.push_back(*x);
      else join(*it, *x), *it = *x;
    }
  };
  const auto fusible_node = [&](OpId x) { return space.fusible_node(x); };
  if (space.shares_buffer_pairs())  // the fusible readers of one buffer that run in one region, chained
    for (std::size_t b = 0; b < n; ++b)
      chain(space.consumers.begin(static_cast<OpId>(b)), space.consumers.end(static_cast<OpId>(b)), fusible_node);
  if (space.kind == SpaceKind::xla) {  // the fusible producers of one op (horizontal candidates), and greedy's groups
    for (std::size_t v = 0; v < n; ++v)
      chain(producers.begin(static_cast<OpId>(v)), producers.end(static_cast<OpId>(v)), fusible_node);
    if (greedy) {
      for (std::size_t x = 0; x < n; ++x)
        if (greedy->representative[x] >= 0) join(static_cast<OpId>(x), greedy->representative[x]);
      for (const auto& [op, rep] : greedy->copies) join(op, rep);
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
