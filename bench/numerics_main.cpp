// numerics_main.cpp — `npm run bench:numerics`: how long the reference evaluator (docs/design.md §18) takes on a
// 1,000-op graph with 64k-element tensors natively (issue 16's target: under 2 s).
//
// Two graphs, every op f16: "elementwise", 1,000 ops over [256, 256] (65,536 elements each): 16 sources, then
// seeded random unary and binary elementwise kinds (exp, tanh, sigmoid, gelu, add, mul, sub, max) reading the
// last few ops, so the seed planner fuses long chains; and the `transformer` generator's 1,000-op graph
// (matmuls, reductions, softmax, layer norms; tensors above 65,536 elements are evaluated on their first 65,536).
// Prints, per graph, the evaluator's share of the plan time (with numerics minus without, best of 3), as process
// CPU time and as wall time (which a loaded machine inflates). Exits 1 when the evaluator takes 2 s of CPU or
// more on either graph (a gate to run by hand, not in npm test).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>

#include "fusion/planner.h"
#include "generators.h"

namespace {

fusion::FusionGraph elementwise_graph() {
  std::mt19937_64 rng(16);
  const fusion::OpKind kinds[] = {fusion::OpKind::exp, fusion::OpKind::tanh, fusion::OpKind::sigmoid,
                                  fusion::OpKind::gelu, fusion::OpKind::add, fusion::OpKind::mul,
                                  fusion::OpKind::sub, fusion::OpKind::max};
  fusion::FusionGraph g;
  for (int i = 0; i < 1000; ++i) {
    fusion::FusionOp op;
    op.shape = {256, 256};
    op.dtype_bytes = 2;
    op.dtype = "f16";
    op.kind = i < 16 ? fusion::OpKind::input : kinds[rng() % 8];
    const int arity = i < 16 ? 0 : (op.kind == fusion::OpKind::add || op.kind == fusion::OpKind::mul ||
                                    op.kind == fusion::OpKind::sub || op.kind == fusion::OpKind::max) ? 2 : 1;
    for (int k = 0; k < arity; ++k) op.inputs.push_back(static_cast<fusion::OpId>(i - 1 - static_cast<int>(rng() % std::min(i, 6))));
    g.add_op(std::move(op));
  }
  return g;
}

fusion::FusionGraph f16_transformer() {
  std::vector<fusion::FusionOp> ops = fusion::bench::generate("transformer", 1000, 1).ops();
  for (fusion::FusionOp& op : ops) op.dtype = "f16", op.dtype_bytes = 2;
  return fusion::FusionGraph::from_ops(std::move(ops));
}

struct Seconds {
  double wall = 1e30, cpu = 1e30;
};

Seconds best_seconds(const fusion::FusionGraph& g, bool numerics, std::size_t& outputs, std::size_t& skipped) {
  Seconds best;
  for (int run = 0; run < 3; ++run) {
    fusion::FusionPlanner planner;
    fusion::NumericsSettings s;
    s.enabled = numerics;
    planner.with_numerics(s);
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    const auto plan = planner.plan(g);
    best.cpu = std::min(best.cpu, static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC);
    best.wall = std::min(best.wall, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (!plan) {
      std::printf("plan failed: %s\n", plan.errors().front().message.c_str());
      return {};
    }
    outputs = plan->numerics.outputs.size();
    skipped = plan->numerics.skipped.size();
  }
  return best;
}

}  // namespace

int main() {
  int status = 0;
  const std::pair<const char*, fusion::FusionGraph> graphs[] = {{"elementwise", elementwise_graph()},
                                                                 {"transformer", f16_transformer()}};
  for (const auto& [name, graph] : graphs) {
    std::size_t outputs = 0, skipped = 0;
    const Seconds plain = best_seconds(graph, false, outputs, skipped);
    const Seconds with = best_seconds(graph, true, outputs, skipped);
    std::printf("%-12s %zu ops: evaluator %.3f s CPU (%.3f s wall; plan alone %.3f s); %zu outputs, %zu skipped\n",
                name, graph.size(), with.cpu - plain.cpu, with.wall - plain.wall, plain.wall, outputs, skipped);
    std::fflush(stdout);
    if (with.cpu - plain.cpu >= 2.0) status = 1;
  }
  return status;
}
