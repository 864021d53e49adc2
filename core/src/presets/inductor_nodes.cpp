// inductor_nodes.cpp — realization, closures and the scheduler graph of inductor_nodes.h.
#include "presets/inductor_nodes.h"

#include <algorithm>
#include <span>
#include <string>
#include <unordered_map>

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

namespace {

// The buffers each op's inlined expression reads, capped at the kReadsKept smallest ids (enough to tell
// every threshold apart), in one flat table.
class InlinedReads {
 public:
  static constexpr std::size_t kReadsKept = kRealizeAccReadsThreshold + 1;

  explicit InlinedReads(std::size_t n) : ids_(n * kReadsKept), count_(n, 0) {}

  std::span<const OpId> of(OpId x) const {
    return {ids_.data() + static_cast<std::size_t>(x) * kReadsKept, count_[static_cast<std::size_t>(x)]};
  }
  // Keeps the smallest kReadsKept of `reads` (ascending, distinct).
  void set(OpId x, const std::vector<OpId>& reads) {
    const std::size_t kept = std::min(reads.size(), kReadsKept);
    std::copy_n(reads.begin(), kept,
                ids_.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(x) * kReadsKept));
    count_[static_cast<std::size_t>(x)] = static_cast<std::uint8_t>(kept);
  }

 private:
  std::vector<OpId> ids_;
  std::vector<std::uint8_t> count_;
};

// Regions as small numbers (0: top level), per op.
std::vector<std::int32_t> numbered_regions(const FusionGraph& g) {
  std::unordered_map<std::string, std::int32_t> known{{std::string(), 0}};
  std::vector<std::int32_t> out(g.size(), 0);
  for (std::size_t x = 0; x < g.size(); ++x) {
    const std::string& region = g.op(static_cast<OpId>(x)).region;
    if (!region.empty())
      out[x] = known.try_emplace(region, static_cast<std::int32_t>(known.size())).first->second;
  }
  return out;
}

// Is pointwise op x realized whatever its expression: a graph output, or read by an op that needs realized
// inputs?
bool realized_for_readers(const PresetInput& in, const std::vector<InductorNode>& kind,
                          const std::vector<std::int32_t>& region, OpId x) {
  if (is_graph_output(in, x)) return true;
  for (auto c = in.consumers.begin(x); c != in.consumers.end(x); ++c)
    if ((kind[*c] != InductorNode::pointwise && kind[*c] != InductorNode::reduction) ||
        region[*c] != region[x])
      return true;
  return false;
}

// Which ops are realized (the header's rules), visiting ops in topological order.
std::vector<char> realized_ops(const PresetInput& in, const std::vector<InductorNode>& kind,
                               const std::vector<std::int32_t>& region) {
  const FusionGraph& g = in.graph;
  std::vector<char> realized(g.size(), 0);
  InlinedReads inlined(
      g.size());  // reads and op counts of each inlined expression (capped past the thresholds)
  std::vector<std::uint32_t> opcount(g.size(), 0);
  std::vector<OpId> reads;
  for (OpId x : in.order) {
    if (g.op(x).is_source() || kind[x] != InductorNode::pointwise ||
        realized_for_readers(in, kind, region, x)) {
      realized[x] = 1;  // (read as its own buffer: its expression's reads and op count do not matter)
      continue;
    }
    reads.clear();
    opcount[x] = 1;
    for (auto p = in.producers.begin(x); p != in.producers.end(x); ++p) {
      if (realized[*p]) {
        reads.push_back(*p);
      } else {
        const std::span<const OpId> more = inlined.of(*p);
        reads.insert(reads.end(), more.begin(), more.end());
        opcount[x] = std::min(opcount[x] + opcount[*p], kRealizeOpcountThreshold + 1);
      }
    }
    std::sort(reads.begin(), reads.end());
    reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
    const std::size_t read_count = std::min(reads.size(), InlinedReads::kReadsKept);
    bool realize = false;
    if (in.consumers.count(x) >= 2)
      realize = read_count > kRealizeReadsThreshold || opcount[x] > kRealizeOpcountThreshold;
    if (!realize) realize = read_count > kRealizeAccReadsThreshold || opcount[x] > kRealizeOpcountThreshold;
    realized[x] = realize;
    if (!realize) inlined.set(x, reads);  // a realized op is read as its own buffer
  }
  return realized;
}

// Builds the scheduler ops of the realized ops, in scheduler id order: each one's closure (backward through
// inlined ops) and, as inputs, the buffers the closure reads.
class ClosureBuilder {
 public:
  ClosureBuilder(const PresetInput& in, const std::vector<char>& realized, SchedulerGraph& s)
      : in_(in), realized_(realized), s_(s), seen_(in.graph.size(), 0) {
    s_.closure_offsets.reserve(s_.original.size() + 1);
    s_.closure_offsets.assign(1, 0);
    s_.closure_ops.reserve(in.graph.size());
    ops_.reserve(s_.original.size());
  }

  void add(OpId x) {
    const FusionOp& original = in_.graph.op(x);
    FusionOp& op = ops_.emplace_back();  // what the scheduler reads of it: kind and inputs
    op.kind = original.kind;
    if (!original.is_source()) {
      const std::size_t start = s_.closure_ops.size();
      walk_closure(x);
      std::sort(s_.closure_ops.begin() + static_cast<std::ptrdiff_t>(start), s_.closure_ops.end());
      std::sort(reads_.begin(), reads_.end());
      op.inputs.assign(reads_.begin(), reads_.end());
    }
    s_.closure_offsets.push_back(s_.closure_ops.size());
  }

  std::vector<FusionOp> take_ops() { return std::move(ops_); }

 private:
  // Appends x's closure to closure_ops and collects the scheduler ids of the buffers it reads in reads_.
  void walk_closure(OpId x) {
    ++mark_;
    reads_.clear();
    stack_.assign(1, x);
    seen_[x] = mark_;
    while (!stack_.empty()) {
      const OpId y = stack_.back();
      stack_.pop_back();
      s_.closure_ops.push_back(y);
      for (auto p = in_.producers.begin(y); p != in_.producers.end(y); ++p) {
        if (seen_[*p] == mark_) continue;
        seen_[*p] = mark_;
        if (realized_[*p])
          reads_.push_back(s_.scheduler_id[*p]);
        else
          stack_.push_back(*p);
      }
    }
  }

  const PresetInput& in_;
  const std::vector<char>& realized_;
  SchedulerGraph& s_;
  std::vector<FusionOp> ops_;
  std::vector<std::uint32_t> seen_;  // per op: the last walk that reached it
  std::uint32_t mark_ = 0;           // (one walk per realized op: no wrap-around)
  std::vector<OpId> stack_, reads_;
};

}  // namespace

SchedulerGraph lower_for_inductor(const PresetInput& in) {
  const FusionGraph& g = in.graph;
  const std::size_t n = g.size();
  std::vector<InductorNode> kind(n, InductorNode::own_kernel);
  for (std::size_t x = 0; x < n; ++x) kind[x] = inductor_node_kind(g, static_cast<OpId>(x), in.options.rules);
  SchedulerGraph s;
  s.op_region = numbered_regions(g);
  const std::vector<char> realized = realized_ops(in, kind, s.op_region);
  s.scheduler_id.assign(n, -1);
  const auto count = static_cast<std::size_t>(std::count(realized.begin(), realized.end(), 1));
  s.original.reserve(count);
  s.node.reserve(count);
  s.range.reserve(count);
  s.bytes.reserve(count);
  for (OpId x : in.order) {
    if (!realized[x]) continue;
    const FusionOp& op = g.op(x);
    s.scheduler_id[x] = static_cast<OpId>(s.original.size());
    s.original.push_back(x);
    s.node.push_back(op.is_source() ? InductorNode::own_kernel : kind[x]);
    s.range.push_back(range_of(g, x, kind[x]));
    s.bytes.push_back(tensor_bytes(op.shape, op.dtype_bytes).value_or(0));
  }
  ClosureBuilder closures(in, realized, s);
  for (OpId x : s.original) closures.add(x);
  s.graph = FusionGraph::from_ops(closures.take_ops());
  return s;
}

}  // namespace fusion::presets
