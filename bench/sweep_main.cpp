// sweep_main.cpp — `npm run bench:sweep`: how long a 4096-point sweep of a 1,000-op graph takes natively
// (issue 14's target: under 1 s), for every strategy.
//
// The graph is the `transformer` generator's at 1,000 ops with its token dimension (2048, the first dimension of
// every activation) named "tokens"; the sweep visits tokens = 1, 2, ..., 4096 (fusion/sweep.h). Prints one line
// per strategy: rows, grouping changes, seconds (best of 3). Exits 1 when the seed sweep takes 1 s or more (a
// benchmark gate to run by hand, not in npm test: timings depend on the machine).
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "fusion/strategy.h"
#include "fusion/sweep.h"
#include "generators.h"

namespace {

fusion::FusionGraph named_transformer() {
  const fusion::FusionGraph numeric = fusion::bench::generate("transformer", 1000, 1);
  std::vector<fusion::FusionOp> ops = numeric.ops();
  for (fusion::FusionOp& op : ops)
    if (!op.shape.empty() && op.shape.front() == 2048) {
      op.dim_names.assign(op.shape.size(), "");
      op.dim_names.front() = "tokens";
    }
  return fusion::FusionGraph::from_ops(std::move(ops), {{"tokens", 2048}});
}

}  // namespace

int main() {
  const fusion::FusionGraph graph = named_transformer();
  const fusion::SweepSpec spec{"tokens", 1, 4096, 1};
  double seed_seconds = 0;
  std::printf("4096-point sweep (tokens = 1..4096) of a %zu-op transformer graph\n", graph.size());
  for (std::string_view strategy : fusion::strategy_names()) {
    double best = 1e30;
    std::size_t rows = 0, changes = 0;
    for (int run = 0; run < 3; ++run) {
      fusion::FusionPlanner planner;
      planner.with_strategy(std::string(strategy));
      const auto start = std::chrono::steady_clock::now();
      const auto result = fusion::sweep(graph, planner, spec);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (!result) {
        std::printf("%s: %s\n", std::string(strategy).c_str(), result.errors().front().message.c_str());
        return 2;
      }
      best = std::min(best, seconds);
      rows = result->rows.size();
      changes = result->changes.size();
    }
    if (strategy == "seed") seed_seconds = best;
    std::printf("%-12s %zu rows, %zu grouping changes, %.3f s\n", std::string(strategy).c_str(), rows, changes, best);
  }
  std::printf("target (issue 14): the seed sweep under 1 s: %s\n", seed_seconds < 1 ? "met" : "MISSED");
  return seed_seconds < 1 ? 0 : 1;
}
