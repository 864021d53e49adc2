// search/local_problem.cpp — builds the bitmask view of one part (local_problem.h), for the three widths.
#include "search/local_problem.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "detail/legality.h"

namespace fusion::search {
namespace {

std::uint64_t output_bytes(const FusionOp& op) { return tensor_bytes(op.shape, op.dtype_bytes).value_or(0); }

// Fills via[i] for every member: a breadth-first walk over outside ops that stops at members and at ops
// after the part's last member (they cannot lead back). False when the step budget runs out.
template <std::size_t W>
bool find_outside_paths(const detail::Consumers& consumers, const std::unordered_map<OpId, int>& local,
                        const std::vector<std::int64_t>& position, std::int64_t last_position, LocalProblem<W>& p) {
  std::int64_t steps = 0;
  std::vector<OpId> queue;
  std::unordered_map<OpId, int> seen;  // outside op -> the member whose walk saw it last
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    queue.clear();
    auto visit_consumers = [&](OpId x, bool from_member) {
      for (const OpId* c = consumers.begin(x); c != consumers.end(x); ++c) {
        if (++steps > kMaxOutsideSteps) return false;
        if (const auto it = local.find(*c); it != local.end()) {
          if (!from_member) p.via[i].set(static_cast<std::size_t>(it->second));
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

template <std::size_t W>
std::optional<LocalProblem<W>> build_local_problem(const FusionGraph& g, const detail::Producers& producers,
                                                   const detail::Consumers& consumers,
                                                   const std::vector<OpId>& members,
                                                   const std::vector<std::int64_t>& position, bool broadcast) {
  if (members.size() > 64 * W) return std::nullopt;
  const std::size_t k = members.size();
  LocalProblem<W> p;
  p.ops = members;
  p.bytes.resize(k);
  p.forced_write.assign(k, false);
  p.consumers.assign(k, {});
  p.shape_apart.assign(k, {});
  p.direct.assign(k, {});
  p.via.assign(k, {});
  std::unordered_map<OpId, int> local;
  for (std::size_t i = 0; i < k; ++i) local.emplace(members[i], static_cast<int>(i));
  std::map<OpId, Bits<W>> outside;  // ordered: a deterministic list
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
        outside[*in].set(j);
        continue;
      }
      const auto i = static_cast<std::size_t>(it->second);
      p.consumers[i].set(j);
      p.direct[i].set(j);
      const EdgeReason reason = detail::local_reason(g.op(*in), op, broadcast);
      if (reason == EdgeReason::none) {
        p.edges.push_back({it->second, static_cast<int>(j), producers.offsets[v] + (in - producers.begin(v))});
      } else {  // inside a part only the shape rule can fail
        p.shape_apart[i].set(j);
        p.shape_apart[j].set(i);
      }
    }
  }
  for (const auto& [op, readers] : outside) p.outside_reads.push_back({output_bytes(g.op(op)), readers});
  if (!find_outside_paths(consumers, local, position, position[members.back()], p)) return std::nullopt;
  return p;
}

template std::optional<LocalProblem<1>> build_local_problem<1>(const FusionGraph&, const detail::Producers&,
                                                               const detail::Consumers&, const std::vector<OpId>&,
                                                               const std::vector<std::int64_t>&, bool);
template std::optional<LocalProblem<4>> build_local_problem<4>(const FusionGraph&, const detail::Producers&,
                                                               const detail::Consumers&, const std::vector<OpId>&,
                                                               const std::vector<std::int64_t>&, bool);
template std::optional<LocalProblem<16>> build_local_problem<16>(const FusionGraph&, const detail::Producers&,
                                                               const detail::Consumers&, const std::vector<OpId>&,
                                                               const std::vector<std::int64_t>&, bool);

}  // namespace fusion::search
