// search/local_problem.cpp — builds the bitmask view of one part (local_problem.h), for the three widths.
#include "search/local_problem.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "fusion/time_model.h"

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

// The space's own data (local_problem.h): kind, limit, device, flops and tvm patterns.
template <std::size_t W>
void add_space_data(const SearchSpace& space, LocalProblem<W>& p) {
  p.kind = space.kind;
  p.max_depth = space.max_depth;
  p.hardware = space.hardware;
  if (!space.timed()) return;
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const FusionOp& op = space.graph.op(p.ops[i]);
    const std::uint64_t flops = op_flops(space.graph, p.ops[i]);
    const bool matrix = uses_matrix_peak(op.kind);
    p.vector_flops.push_back(matrix ? 0 : flops);
    p.matrix_flops.push_back(matrix ? flops : 0);
    if (space.kind != SpaceKind::tvm) continue;
    const presets::TvmPattern pattern = presets::tvm_pattern(op.kind);
    p.pattern.push_back(pattern);
    if (pattern >= presets::TvmPattern::comm_reduce) p.heavy.set(i);
    if (pattern == presets::TvmPattern::out_ewise_fusable) p.out_ewise.set(i);
  }
}

}  // namespace

template <std::size_t W>
std::optional<LocalProblem<W>> build_local_problem(const SearchSpace& space, const detail::Producers& producers,
                                                   const std::vector<OpId>& members,
                                                   const std::vector<std::int64_t>& position) {
  if (members.size() > 64 * W) return std::nullopt;
  const FusionGraph& g = space.graph;
  const detail::Consumers& consumers = space.consumers;
  const std::size_t k = members.size();
  LocalProblem<W> p;
  p.ops = members;
  p.bytes.resize(k);
  p.forced_write.assign(k, false);
  p.consumers.assign(k, {});
  p.apart.assign(k, {});
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
      if (space.fusible(*in, v)) {
        p.edges.push_back({it->second, static_cast<int>(j), producers.offsets[v] + (in - producers.begin(v))});
      } else if (space.apart(*in, v)) {
        p.apart[i].set(j);
        p.apart[j].set(i);
      }
    }
  }
  for (const auto& [op, readers] : outside) p.outside_reads.push_back({output_bytes(g.op(op)), readers});
  add_space_data(space, p);
  if (!find_outside_paths(consumers, local, position, position[members.back()], p)) return std::nullopt;
  return p;
}

template std::optional<LocalProblem<1>> build_local_problem<1>(const SearchSpace&, const detail::Producers&,
                                                               const std::vector<OpId>&,
                                                               const std::vector<std::int64_t>&);
template std::optional<LocalProblem<4>> build_local_problem<4>(const SearchSpace&, const detail::Producers&,
                                                               const std::vector<OpId>&,
                                                               const std::vector<std::int64_t>&);
template std::optional<LocalProblem<16>> build_local_problem<16>(const SearchSpace&, const detail::Producers&,
                                                               const std::vector<OpId>&,
                                                               const std::vector<std::int64_t>&);

}  // namespace fusion::search
