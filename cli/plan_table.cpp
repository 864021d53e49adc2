// plan_table.cpp — fixed-width text rendering of a plan.
#include "plan_table.h"

#include <algorithm>
#include <cstdio>

namespace fusion::cli {
namespace {

std::string label(const FusionGraph& g, OpId id) {
  return g.op(id).name.empty() ? "#" + std::to_string(id) : g.op(id).name;
}

std::string labels(const FusionGraph& g, const std::vector<OpId>& ids) {
  if (ids.empty()) return "-";
  std::string out;
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? " " : "") + label(g, ids[i]);
  return out;
}

// 15734784 -> "15,734,784"
std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string pad(std::string text, std::size_t width) {
  if (text.size() > width) return text.substr(0, width - 1) + "~";
  text.resize(width, ' ');
  return text;
}

}  // namespace

std::string format_plan_table(const FusionGraph& g, const FusionPlan& plan) {
  std::string out = pad("group", 7) + pad("ops", 34) + pad("inputs", 22) + pad("outputs", 22) +
                    pad("bytes read", 18) + "bytes written\n";
  for (const FusionGroup& group : plan.groups)
    out += pad(std::to_string(group.id), 7) + pad(labels(g, group.ops), 34) + pad(labels(g, group.inputs), 22) +
           pad(labels(g, group.outputs), 22) + pad(grouped(group.bytes_read), 18) + grouped(group.bytes_written) + "\n";
  char speedup[32];
  std::snprintf(speedup, sizeof speedup, "%.3f", plan.speedup_estimate);
  out += "\nbytes unfused " + grouped(plan.bytes_unfused) + ", fused " + grouped(plan.bytes_fused) + ", speedup " +
         speedup + "x; kernels " + std::to_string(plan.kernels_unfused) + " -> " +
         std::to_string(plan.kernels_fused) + "\n";
  const auto unfused = std::count_if(plan.edges.begin(), plan.edges.end(), [](const EdgeDecision& e) {
    return !e.fused && e.reason != EdgeReason::source;
  });
  if (unfused > 0) {
    out += "\nnot fused (besides reads of sources):\n";
    for (const EdgeDecision& e : plan.edges)
      if (!e.fused && e.reason != EdgeReason::source)
        out += "  " + label(g, e.producer) + " -> " + label(g, e.consumer) + ": " + to_string(e.reason) + "\n";
  }
  return out;
}

}  // namespace fusion::cli
