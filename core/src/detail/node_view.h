// detail/node_view.h — what the group machinery (group_graph.h, group_stats.h, presets/landmark_reach.h) reads
// of a graph's nodes: each node's inputs in order, repeats kept (the cycle walks count a step per entry), whether
// it is a source (no inputs) and whether it is marked `output`.
//
// Either a FusionGraph's ops (converts implicitly, so callers holding a graph pass it as before), or rows a preset
// builds for a graph of its own: xla's fusion graph (presets/xla_fusion_graph.h) keeps its nodes' input lists as
// one compressed table and their output flags as bytes, with no FusionOp per node. A view holds pointers: the
// graph, or the rows and flags, must outlive it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "detail/topology.h"
#include "fusion/graph.h"

namespace fusion::detail {

class NodeView {
 public:
  NodeView(const FusionGraph& graph) : graph_(&graph), size_(graph.size()) {}  // NOLINT: implicit on purpose
  // Node x's inputs are rows x of `inputs` (offsets.size() == node count + 1); `outputs[x]` != 0: marked output.
  NodeView(const Producers& inputs, const std::vector<std::uint8_t>& outputs)
      : rows_(&inputs), outputs_(&outputs), size_(inputs.offsets.size() - 1) {}

  std::size_t size() const { return size_; }
  std::span<const OpId> inputs(OpId x) const {
    if (rows_) return {rows_->begin(x), rows_->end(x)};
    return graph_->op(x).inputs;
  }
  bool is_source(OpId x) const { return rows_ ? rows_->count(x) == 0 : graph_->op(x).is_source(); }
  bool output(OpId x) const { return rows_ ? (*outputs_)[static_cast<std::size_t>(x)] != 0 : graph_->op(x).output; }

 private:
  const FusionGraph* graph_ = nullptr;
  const Producers* rows_ = nullptr;
  const std::vector<std::uint8_t>* outputs_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace fusion::detail
