// search/local_problem.cpp — builds the bitmask view of one component (local_problem.h).
#include "search/local_problem.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "detail/legality.h"

namespace fusion::search {
namespace {

std::uint64_t output_bytes(const FusionOp& op) { return tensor_bytes(op.shape, op.dtype_bytes).value_or(0); }

// Fills via[i] for every member: a breadth-first walk over outside ops that stops at members and at ops
// after the component's last member (they cannot lead back). False when the step budget runs out.
bool find_outside_paths(const detail::Consumers& consumers,
                        const std::unordered_map<OpId, int>& local, const std::vector<std::int64_t>& position,
                        std::int64_t last_position, LocalProblem& p) {
  std::int64_t steps = 0;
  std::vector<OpId> queue;
  std::unordered_map<OpId, int> seen;  // outside op -> the member whose walk saw it last
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    queue.clear();
    auto visit_consumers = [&](OpId x, bool from_member) {
      for (const OpId* c = consumers.begin(x); c != consumers.end(x); ++c) {
        if (++steps > kMaxOutsideSteps) return false;
        if (const auto it = local.find(*c); it != local.end()) {
          if (!from_member) p.via[i] |= Mask{1} << it->second;
          continue;
        }
        if (position[*c] > last_position) continue;
        auto [slot, fresh] = seen.try_emplace(*c, static_cast<int>(i));
        if (!fresh && slot->second == static_cast<int>(i)) continue;
        slot->second = static_cast<int>(i);
        queue.push_back(*c);
      }
      return true;
    };
    if (!visit_consumers(p.ops[i], true)) return false;
    for (std::size_t head = 0; head < queue.size(); ++head)
      if (!visit_consumers(queue[head], false)) return false;
  }
  return true;
}

}  // namespace

std::optional<LocalProblem> build_local_problem(const FusionGraph& g, const detail::Producers& producers,
                                                const detail::Consumers& consumers, const std::vector<OpId>& members,
                                                const std::vector<std::int64_t>& position, bool broadcast) {
  if (members.size() > kMaxLocalOps) return std::nullopt;
  const std::size_t k = members.size();
  LocalProblem p;
  p.ops = members;
  p.bytes.resize(k);
  p.forced_write.assign(k, false);
  p.consumers.assign(k, 0);
  p.shape_apart.assign(k, 0);
  p.direct.assign(k, 0);
  p.via.assign(k, 0);
  std::unordered_map<OpId, int> local;
  for (std::size_t i = 0; i < k; ++i) local.emplace(members[i], static_cast<int>(i));
  std::map<OpId, Mask> outside;  // ordered: a deterministic list
  for (std::size_t j = 0; j < k; ++j) {
    const OpId v = members[j];
    const FusionOp& op = g.op(v);
    p.bytes[j] = output_bytes(op);
    p.forced_write[j] = op.output || consumers.count(v) == 0;
    for (const OpId* c = consumers.begin(v); c != consumers.end(v); ++c)
      if (!local.contains(*c)) p.forced_write[j] = true;
    for (const OpId* in = producers.begin(v); in != producers.end(v); ++in) {
      const auto it = local.find(*in);
      if (it == local.end()) {
        outside[*in] |= Mask{1} << j;
        continue;
      }
      const int i = it->second;
      p.consumers[i] |= Mask{1} << j;
      p.direct[i] |= Mask{1} << j;
      const EdgeReason reason = detail::local_reason(g.op(*in), op, broadcast);
      if (reason == EdgeReason::none) {
        p.edges.push_back({i, static_cast<int>(j), producers.offsets[v] + (in - producers.begin(v))});
      } else {  // inside a component only the shape rule can fail
        p.shape_apart[i] |= Mask{1} << j;
        p.shape_apart[j] |= Mask{1} << i;
      }
    }
  }
  for (const auto& [op, readers] : outside) p.outside_reads.push_back({output_bytes(g.op(op)), readers});
  if (!find_outside_paths(consumers, local, position, position[members.back()], p)) return std::nullopt;
  return p;
}

}  // namespace fusion::search
