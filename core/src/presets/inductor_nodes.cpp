// inductor_nodes.cpp — realization, closures and the scheduler graph of inductor_nodes.h.
#include "presets/inductor_nodes.h"

#include <algorithm>

#include "fusion/strategy.h"

namespace fusion::presets {
namespace {

constexpr std::size_t kRealizeReadsThreshold = 4;    // config.realize_reads_threshold
constexpr std::uint32_t kRealizeOpcountThreshold = 30;  // config.realize_opcount_threshold
constexpr std::size_t kRealizeAccReadsThreshold = 8;  // config.realize_acc_reads_threshold
constexpr std::uint64_t kUnrollReductionsThreshold = 8;  // config.unroll_reductions_threshold
constexpr std::int64_t kMaxComplexPointwiseCat = 8;      // lowering.py MAX_COMPLEX_POINTWISE_CAT

std::uint64_t elements(const FusionOp& op) { return shape_elements(op.shape).value_or(0); }

IterationRange range_of(const FusionGraph& graph, OpId x, InductorNode kind) {
  const FusionOp& op = graph.op(x);
  const std::uint64_t n = elements(op);
  if (kind != InductorNode::reduction) return {n, 1};
  if (op.kind == OpKind::softmax || op.kind == OpKind::layer_norm) {
    const std::uint64_t last = op.shape.empty() ? 1 : static_cast<std::uint64_t>(op.shape.back());
    return last == 0 ? IterationRange{n, 1} : IterationRange{n / last, last};
  }
  const std::uint64_t in = op.inputs.empty() ? n : elements(graph.op(op.inputs.front()));
  return n == 0 ? IterationRange{0, in} : IterationRange{n, in / n};
}

}  // namespace

IterationRange inductor_range(const FusionGraph& graph, OpId x) {
  return range_of(graph, x, InductorNode::reduction);
}

bool wide_concat(const FusionOp& op, const StrategyRules& rules) {
  const auto inputs = static_cast<std::int64_t>(op.inputs.size());
  return op.kind == OpKind::concat && inputs > kMaxComplexPointwiseCat && inputs > rules.max_pointwise_cat_inputs;
}

InductorNode inductor_node_kind(const FusionGraph& graph, OpId x, const StrategyRules& rules) {
  const FusionOp& op = graph.op(x);
  if (is_reduction_kind(op.kind)) {  // a reduction over at most 8 elements is unrolled into pointwise code
    const std::uint64_t in = op.inputs.empty() ? 0 : elements(graph.op(op.inputs.front()));
    return in <= elements(op) * kUnrollReductionsThreshold ? InductorNode::pointwise : InductorNode::reduction;
  }
  if (op.kind == OpKind::softmax || op.kind == OpKind::layer_norm) return InductorNode::reduction;
  if (is_anchor_kind(op.kind)) return rules.epilogue ? InductorNode::template_kernel : InductorNode::own_kernel;
  if (op.kind == OpKind::concat) return wide_concat(op, rules) ? InductorNode::concat_kernel : InductorNode::pointwise;
  if (is_fusible(op.kind) || is_movement_kind(op.kind) || op.kind == OpKind::max_pool || op.kind == OpKind::avg_pool)
    return InductorNode::pointwise;
  return InductorNode::own_kernel;
}

SchedulerGraph lower_for_inductor(const PresetInput& in) {
  const FusionGraph& g = in.graph;
  const std::size_t n = g.size();
  std::vector<InductorNode> kind(n, InductorNode::own_kernel);
  std::vector<char> realized(n, 0);
  for (std::size_t x = 0; x < n; ++x) kind[x] = inductor_node_kind(g, static_cast<OpId>(x), in.options.rules);
  // Reads and op counts of each op's inlined expression, in topological order (capped past the thresholds).
  std::vector<std::vector<OpId>> reads(n);
  std::vector<std::uint32_t> opcount(n, 0);
  for (OpId x : in.order) {
    const FusionOp& op = g.op(x);
    if (op.is_source()) {
      realized[x] = 1;
      continue;
    }
    std::vector<OpId>& r = reads[x];
    opcount[x] = 1;
    for (auto p = in.producers.begin(x); p != in.producers.end(x); ++p) {
      if (realized[*p]) {
        r.push_back(*p);
      } else {
        r.insert(r.end(), reads[*p].begin(), reads[*p].end());
        opcount[x] = std::min(opcount[x] + opcount[*p], kRealizeOpcountThreshold + 1);
      }
    }
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    if (r.size() > kRealizeAccReadsThreshold + 1) r.resize(kRealizeAccReadsThreshold + 1);
    bool realize = kind[x] != InductorNode::pointwise || is_graph_output(in, x);
    for (auto c = in.consumers.begin(x); c != in.consumers.end(x) && !realize; ++c)
      realize = (kind[*c] != InductorNode::pointwise && kind[*c] != InductorNode::reduction) ||
                g.op(*c).region != op.region;
    if (!realize && in.consumers.count(x) >= 2)
      realize = r.size() > kRealizeReadsThreshold || opcount[x] > kRealizeOpcountThreshold;
    if (!realize) realize = r.size() > kRealizeAccReadsThreshold || opcount[x] > kRealizeOpcountThreshold;
    realized[x] = realize;
    if (realize) {
      r.assign(1, x);
      opcount[x] = 0;
    }
  }
  SchedulerGraph s;
  s.scheduler_id.assign(n, -1);
  for (OpId x : in.order) {
    if (!realized[x]) continue;
    const OpId id = static_cast<OpId>(s.original.size());
    s.scheduler_id[x] = id;
    s.original.push_back(x);
    s.node.push_back(g.op(x).is_source() ? InductorNode::own_kernel : kind[x]);
    s.range.push_back(range_of(g, x, kind[x]));
  }
  // Closures (backward through inlined ops) and the buffers each one reads.
  std::vector<std::uint32_t> seen(n, 0);
  std::uint32_t mark = 0;
  s.closure.resize(s.original.size());
  std::vector<OpId> stack;
  for (std::size_t id = 0; id < s.original.size(); ++id) {
    const OpId x = s.original[id];
    FusionOp op = g.op(x);
    op.inputs.clear();
    op.name.clear();
    op.label.clear();
    if (!g.op(x).is_source()) {
      ++mark;
      stack.assign(1, x);
      seen[x] = mark;
      while (!stack.empty()) {
        const OpId y = stack.back();
        stack.pop_back();
        s.closure[id].push_back(y);
        for (auto p = in.producers.begin(y); p != in.producers.end(y); ++p) {
          if (seen[*p] == mark) continue;
          seen[*p] = mark;
          if (realized[*p])
            op.inputs.push_back(s.scheduler_id[*p]);
          else
            stack.push_back(*p);
        }
      }
      std::sort(s.closure[id].begin(), s.closure[id].end());
      std::sort(op.inputs.begin(), op.inputs.end());
    }
    s.graph.add_op(std::move(op));
  }
  return s;
}

}  // namespace fusion::presets
