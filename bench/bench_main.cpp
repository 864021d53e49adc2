// bench_main.cpp — `fusion-bench`: times each phase of the native planner on every generator and size.
//
// Usage: fusion-bench [--full] [--sizes 1000,10000] [--generators chain,random] [--repeat N] [--strategy S] [--json]
// --strategy plans under a preset of docs/strategies.md (default seed); bench/strategies.mjs compares them.
// Phases: JSON parse (text -> graph), validate, plan (validate + order + group + price), cost alone,
// verify, JSON write; the baseline, which touches every op and edge once (unfused bytes); and api, the
// whole text -> plan text call that the WASM module makes (bench/bench.mjs compares the two).
// Each phase reports the best of N runs (default 3; 1 at 1M ops). Prints one table, or JSON lines.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>
#include <sstream>
#include <string>

#include "fusion/api.h"
#include "fusion/cost.h"
#include "fusion/json_io.h"
#include "fusion/planner.h"
#include "fusion/verify.h"
#include "generators.h"

namespace {

using Clock = std::chrono::steady_clock;

double best_ms(int repeat, const std::function<void()>& body) {
  double best = 1e300;
  for (int i = 0; i < repeat; ++i) {
    const auto start = Clock::now();
    body();
    best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  return best;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

long peak_rss_kb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> generators = fusion::bench::generator_names();
  std::vector<std::int64_t> sizes = {1'000, 10'000, 100'000};
  int repeat = 0;
  bool json = false;
  std::string strategy = "seed";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--full") sizes = {1'000, 10'000, 100'000, 1'000'000};
    else if (a == "--sizes" && i + 1 < argc) {
      sizes.clear();
      for (const auto& s : split(argv[++i])) sizes.push_back(std::stoll(s));
    } else if (a == "--generators" && i + 1 < argc) generators = split(argv[++i]);
    else if (a == "--repeat" && i + 1 < argc) repeat = std::stoi(argv[++i]);
    else if (a == "--json") json = true;
    else if (a == "--strategy" && i + 1 < argc) strategy = argv[++i];
    else {
      std::fprintf(stderr, "usage: fusion-bench [--full] [--sizes A,B] [--generators X,Y] [--repeat N] [--strategy S] [--json]\n");
      return 2;
    }
  }
  if (!json)
    std::printf("%-15s %9s %9s %9s %9s %9s %9s %9s %9s %7s %8s\n", "generator", "ops", "parse_ms", "valid_ms",
                "plan_ms", "cost_ms", "verify_ms", "write_ms", "base_ms", "plan/b", "ns/op");
  for (const std::string& name : generators)
    for (std::int64_t size : sizes) {
      const fusion::FusionGraph graph = fusion::bench::generate(name, size, 1);
      if (graph.size() == 0) {
        std::fprintf(stderr, "fusion-bench: unknown generator '%s'\n", name.c_str());
        return 2;
      }
      const int runs = repeat > 0 ? repeat : (size >= 1'000'000 ? 1 : 3);
      const std::string text = fusion::bench::graph_to_json(graph);
      const fusion::FusionPlanner planner = fusion::FusionPlanner().with_strategy(strategy);
      const auto first = planner.plan(graph);
      if (!first) {
        std::fprintf(stderr, "fusion-bench: %s\n", first.errors().front().message.c_str());
        return 2;
      }
      fusion::FusionPlan plan = *first;
      const std::string options = "{\"strategy\":\"" + strategy + "\"}";
      std::string written;
      std::uint64_t sink = 0;
      const double parse = best_ms(runs, [&] { sink += fusion::read_graph_json(text)->size(); });
      const double valid = best_ms(runs, [&] { sink += fusion::validate(graph).size(); });
      // Planning alone: the result is moved into place inside the timing and freed outside it.
      double planned = 1e300;
      for (int i = 0; i < runs; ++i) {
        std::optional<fusion::Expected<fusion::FusionPlan>> result;
        const auto start = Clock::now();
        result.emplace(planner.plan(graph));
        planned = std::min(planned, std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      }
      const double cost = best_ms(runs, [&] { fusion::price_plan(graph, plan); });
      const double verify = best_ms(runs, [&] { sink += fusion::verify_plan(graph, planner.options(), plan).size(); });
      const double write = best_ms(runs, [&] { written = fusion::write_plan_json(plan); });
      const double base = best_ms(runs, [&] { sink += *fusion::unfused_bytes(graph, false); });
      const double api = best_ms(runs, [&] { sink += fusion::api::plan(text, options).size(); });
      const double ns_per_op = planned * 1e6 / static_cast<double>(graph.size());
      if (json)
        std::printf("{\"generator\":\"%s\",\"ops\":%zu,\"parse_ms\":%.3f,\"validate_ms\":%.3f,\"plan_ms\":%.3f,"
                    "\"cost_ms\":%.3f,\"verify_ms\":%.3f,\"write_ms\":%.3f,\"baseline_ms\":%.3f,\"api_ms\":%.3f,"
                    "\"groups\":%zu,\"kernels_fused\":%lld,\"strategy\":\"%s\",\"json_bytes\":%zu,\"peak_rss_kb\":%ld,"
                    "\"sink\":%llu}\n",
                    name.c_str(), graph.size(), parse, valid, planned, cost, verify, write, base, api, plan.groups.size(),
                    static_cast<long long>(plan.kernels_fused), strategy.c_str(),
                    text.size(),
                    peak_rss_kb(), static_cast<unsigned long long>(sink % 10));
      else
        std::printf("%-15s %9zu %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.3f %7.1f %8.0f\n", name.c_str(), graph.size(),
                    parse, valid, planned, cost, verify, write, base, planned / base, ns_per_op);
      std::fflush(stdout);
    }
  if (!json) std::printf("peak resident memory: %ld MiB\n", peak_rss_kb() / 1024);
  return 0;
}
