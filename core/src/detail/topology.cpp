// topology.cpp — consumer rows, Kahn's order, and cycle extraction.
#include "detail/topology.h"

#include <algorithm>
#include <functional>
#include <queue>

namespace fusion::detail {

bool ids_are_topological(const FusionGraph& graph) {
  for (std::size_t x = 0; x < graph.size(); ++x)
    for (OpId in : graph.op(static_cast<OpId>(x)).inputs)
      if (in >= static_cast<OpId>(x)) return false;
  return true;
}

Consumers build_consumers(const FusionGraph& graph) {
  const std::size_t n = graph.size();
  Consumers c;
  c.offsets.assign(n + 1, 0);
  // last_consumer[p] == x marks that the pair (p, x) was already counted: repeated inputs count once.
  std::vector<OpId> last_consumer(n, -1);
  for (std::size_t x = 0; x < n; ++x)
    for (OpId in : graph.op(static_cast<OpId>(x)).inputs)
      if (last_consumer[in] != static_cast<OpId>(x)) {
        last_consumer[in] = static_cast<OpId>(x);
        ++c.offsets[in + 1];
      }
  for (std::size_t x = 0; x < n; ++x) c.offsets[x + 1] += c.offsets[x];
  c.ids.resize(static_cast<std::size_t>(c.offsets[n]));
  std::vector<std::int64_t> fill(c.offsets.begin(), c.offsets.end() - 1);
  std::fill(last_consumer.begin(), last_consumer.end(), -1);
  for (std::size_t x = 0; x < n; ++x)  // ascending consumer id, so rows come out sorted
    for (OpId in : graph.op(static_cast<OpId>(x)).inputs)
      if (last_consumer[in] != static_cast<OpId>(x)) {
        last_consumer[in] = static_cast<OpId>(x);
        c.ids[static_cast<std::size_t>(fill[in]++)] = static_cast<OpId>(x);
      }
  return c;
}

Consumers consumers_of(const Producers& producers) {
  const std::size_t n = producers.offsets.size() - 1;
  Consumers c;
  c.offsets.assign(n + 1, 0);
  for (OpId in : producers.ids) ++c.offsets[static_cast<std::size_t>(in) + 1];
  for (std::size_t x = 0; x < n; ++x) c.offsets[x + 1] += c.offsets[x];
  c.ids.resize(producers.ids.size());
  std::vector<std::int64_t> fill(c.offsets.begin(), c.offsets.end() - 1);
  for (std::size_t x = 0; x < n; ++x)  // ascending consumer id, so rows come out sorted
    for (auto it = producers.begin(static_cast<OpId>(x)); it != producers.end(static_cast<OpId>(x)); ++it)
      c.ids[static_cast<std::size_t>(fill[*it]++)] = static_cast<OpId>(x);
  return c;
}

Producers build_producers(const FusionGraph& graph) {
  const std::size_t n = graph.size();
  Producers p;
  p.offsets.assign(n + 1, 0);
  std::size_t slots = 0;
  for (const FusionOp& op : graph.ops()) slots += op.inputs.size();
  p.ids.reserve(slots);
  std::vector<OpId> last_consumer(n, -1);  // last_consumer[u] == x: u already listed for x
  for (std::size_t x = 0; x < n; ++x) {
    for (OpId in : graph.op(static_cast<OpId>(x)).inputs)
      if (last_consumer[in] != static_cast<OpId>(x)) {
        last_consumer[in] = static_cast<OpId>(x);
        p.ids.push_back(in);
      }
    p.offsets[x + 1] = static_cast<std::int64_t>(p.ids.size());
  }
  return p;
}

std::optional<std::vector<OpId>> topological_order(const FusionGraph& graph, const Consumers& consumers) {
  const std::size_t n = graph.size();
  std::vector<OpId> order;
  order.reserve(n);
  if (ids_are_topological(graph)) {
    for (std::size_t x = 0; x < n; ++x) order.push_back(static_cast<OpId>(x));
    return order;
  }
  std::vector<std::int64_t> pending(n, 0);  // distinct producers not yet ordered
  for (std::size_t x = 0; x < n; ++x)
    for (auto it = consumers.begin(static_cast<OpId>(x)); it != consumers.end(static_cast<OpId>(x)); ++it)
      ++pending[*it];
  std::priority_queue<OpId, std::vector<OpId>, std::greater<>> ready;
  for (std::size_t x = 0; x < n; ++x)
    if (pending[x] == 0) ready.push(static_cast<OpId>(x));
  while (!ready.empty()) {
    const OpId x = ready.top();
    ready.pop();
    order.push_back(x);
    for (auto it = consumers.begin(x); it != consumers.end(x); ++it)
      if (--pending[*it] == 0) ready.push(*it);
  }
  if (order.size() != n) return std::nullopt;
  return order;
}

std::vector<OpId> find_cycle(const FusionGraph& graph, const Consumers& consumers) {
  const std::size_t n = graph.size();
  // Peel off everything Kahn can order; every op left has a producer that is also left.
  std::vector<std::int64_t> pending(n, 0);
  for (std::size_t x = 0; x < n; ++x)
    for (auto it = consumers.begin(static_cast<OpId>(x)); it != consumers.end(static_cast<OpId>(x)); ++it)
      ++pending[*it];
  std::vector<OpId> stack;
  for (std::size_t x = 0; x < n; ++x)
    if (pending[x] == 0) stack.push_back(static_cast<OpId>(x));
  while (!stack.empty()) {
    const OpId x = stack.back();
    stack.pop_back();
    for (auto it = consumers.begin(x); it != consumers.end(x); ++it)
      if (--pending[*it] == 0) stack.push_back(*it);
  }
  OpId start = -1;
  for (std::size_t x = 0; x < n && start < 0; ++x)
    if (pending[x] > 0) start = static_cast<OpId>(x);
  if (start < 0) return {};
  // Walk producers that are left until an op repeats; the repeat closes a cycle.
  std::vector<std::int64_t> seen_at(n, -1);
  std::vector<OpId> walk;
  OpId x = start;
  while (seen_at[x] < 0) {
    seen_at[x] = static_cast<std::int64_t>(walk.size());
    walk.push_back(x);
    for (OpId in : graph.op(x).inputs)
      if (pending[in] > 0) {
        x = in;
        break;
      }
  }
  std::vector<OpId> cycle(walk.begin() + seen_at[x], walk.end());
  std::reverse(cycle.begin(), cycle.end());  // walked consumer -> producer; report producer -> consumer
  return cycle;
}

}  // namespace fusion::detail
