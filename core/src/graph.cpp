// graph.cpp — the append-only builder.
#include "fusion/graph.h"

namespace fusion {

BuildError::BuildError(Error error) : std::invalid_argument(error.message), error_(std::move(error)) {}

FusionGraph FusionGraph::from_ops(std::vector<FusionOp> ops, DimValues dims) {
  FusionGraph graph;
  graph.ops_ = std::move(ops);
  graph.dims_ = std::move(dims);
  return graph;
}

bool FusionGraph::has_dim_names() const {
  for (const FusionOp& op : ops_)
    if (!op.dim_names.empty()) return true;
  return false;
}

OpId FusionGraph::add_op(FusionOp op) {
  const auto next = static_cast<OpId>(ops_.size());
  for (std::size_t slot = 0; slot < op.inputs.size(); ++slot) {
    const OpId input = op.inputs[slot];
    if (input < 0 || input >= next) {
      throw BuildError(Error{ErrorCode::unknown_input,
                             "input " + std::to_string(slot) + " of op " + std::to_string(next) + " is " +
                                 std::to_string(input) + ", but only ops 0.." + std::to_string(next - 1) +
                                 " exist; add producers before their consumers",
                             next, "/ops/" + std::to_string(next) + "/inputs/" + std::to_string(slot), {}, {}});
    }
  }
  ops_.push_back(std::move(op));
  return next;
}

OpId FusionGraph::add_op(OpKind kind, std::vector<OpId> inputs, Shape shape, std::int64_t dtype_bytes,
                         std::string name) {
  return add_op(FusionOp{kind, std::move(inputs), std::move(shape), dtype_bytes, std::move(name), false, {}, {}, {}, {}});
}

std::string describe_op(const FusionGraph& graph, OpId id) {
  std::string text = "op " + std::to_string(id);
  if (id >= 0 && static_cast<std::size_t>(id) < graph.size() && !graph.op(id).name.empty())
    text += " ('" + graph.op(id).name + "')";
  return text;
}

}  // namespace fusion
