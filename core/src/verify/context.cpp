// verify/context.cpp — the verifier's shared helpers and the distinct edge list.
#include "verify/context.h"

#include <algorithm>

#include "fusion/strategy.h"

namespace fusion::verifier {

Context::Context(const FusionGraph& graph, const PlannerOptions& opts, const FusionPlan& p)
    : g(graph), options(opts), rules(opts.rules), procedure(procedure_of(opts.strategy)), plan(p) {}

void Context::fail(const char* code, std::string message, std::optional<std::int64_t> group,
                   std::optional<std::int64_t> op) {
  if (out.size() < kMaxReportedErrors) out.push_back({code, std::move(message), group, op});
}

bool Context::holds(std::int32_t group, OpId x) const {
  const std::vector<OpId>& ops = plan.groups[static_cast<std::size_t>(group)].ops;
  return std::binary_search(ops.begin(), ops.end(), x);
}

std::uint64_t Context::bytes_of(OpId x) const {
  const FusionOp& op = g.op(x);
  return tensor_bytes(op.shape, op.dtype_bytes).value_or(0);
}

std::uint64_t Context::elements_of(OpId x) const {
  const Shape& shape = g.op(x).shape;
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return 0;
  std::uint64_t n = 1;
  for (std::int64_t d : shape) n *= static_cast<std::uint64_t>(d);  // a valid graph keeps this below 2^53
  return n;
}

bool Context::shapes_ok(OpId producer, OpId consumer) const {
  const Shape& a = g.op(producer).shape;
  const Shape& b = g.op(consumer).shape;
  return options.broadcast ? broadcast_compatible(a, b) : a == b;
}

std::uint64_t Context::unfused_bytes_of(OpId x) const {
  std::uint64_t bytes = (options.resident_sources && g.op(x).is_source()) ? 0 : bytes_of(x);
  for (OpId in : producers[static_cast<std::size_t>(x)]) bytes += bytes_of(in);
  return bytes;
}

bool Context::is_loop(OpId x) const { return is_loop_kind(g.op(x).kind, rules); }

bool Context::runs_kernel(const FusionGroup& group) const {
  return std::any_of(group.ops.begin(), group.ops.end(), [&](OpId x) { return !g.op(x).is_source(); });
}

std::vector<InnerEdge> inner_edges(const Context& c, const FusionGroup& group) {
  std::vector<InnerEdge> out;
  if (group.ops.size() < 2) return out;
  const auto position = [&](OpId x) {
    return static_cast<std::size_t>(std::lower_bound(group.ops.begin(), group.ops.end(), x) -
                                    group.ops.begin());
  };
  for (std::size_t j = 0; j < group.ops.size(); ++j)
    for (OpId in : c.producers[static_cast<std::size_t>(group.ops[j])])
      if (c.holds(group.id, in)) out.push_back({position(in), j});
  return out;
}

bool shape_checked(const FusionOp& producer, const FusionOp& consumer) {
  return !is_movement_kind(producer.kind) && !is_movement_kind(consumer.kind) &&
         !is_reduction_kind(consumer.kind);
}

std::string list_to_string(const std::vector<OpId>& ids) {
  std::string out = "[";
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + std::to_string(ids[i]);
  return out + "]";
}

std::string op_text(const FusionGraph& g, OpId x) {
  return "op " + std::to_string(x) + " (" + std::string(to_string(g.op(x).kind)) + ")";
}

void collect_edges(Context& c) {
  c.producers.assign(c.g.size(), {});
  c.readers.assign(c.g.size(), {});
  for (std::size_t x = 0; x < c.g.size(); ++x) {
    std::vector<OpId>& ins = c.producers[x];
    ins = c.g.op(static_cast<OpId>(x)).inputs;
    std::sort(ins.begin(), ins.end());
    ins.erase(std::unique(ins.begin(), ins.end()), ins.end());
    for (OpId in : ins) {
      c.edges.push_back({in, static_cast<OpId>(x)});
      c.readers[static_cast<std::size_t>(in)].push_back(static_cast<OpId>(x));
    }
  }
  std::sort(c.edges.begin(), c.edges.end());
}

}  // namespace fusion::verifier
