// plan_table.cpp — fixed-width text rendering of a plan.
#include "plan_table.h"

#include <algorithm>
#include <cstdio>

#include "text_format.h"

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

// Members, with recomputed copies marked "name*".
std::string members(const FusionGraph& g, const FusionGroup& group) {
  std::string out;
  for (OpId id : group.ops) {
    const bool copy = is_recomputed(group, id);
    out += (out.empty() ? "" : " ") + label(g, id) + (copy ? "*" : "");
  }
  return out;
}

// The values of named dimensions and the bytes as formulas in them (docs/design.md §16).
std::string dims_lines(const FusionPlan& plan) {
  std::string values;
  for (const auto& [name, value] : plan.dims) values += (values.empty() ? "" : ", ") + name + " = " + std::to_string(value);
  const auto text = [](const std::optional<std::string>& formula) { return formula.value_or("(does not fit)"); };
  return "dims " + values + "; the grouping " +
         (plan.grouping_independent_of_dims ? "is the same for every value" : "may change with the values") +
         "\nbytes as formulas: unfused " + text(plan.bytes_unfused_formula) + ", fused " + text(plan.bytes_fused_formula) +
         ", saved " + text(plan.bytes_saved_formula) + "\n";
}

// The search certificate (docs/design.md §17): "search: optimal, proven: 1,234 nodes (greedy 2,048 bytes)" or
// "search: bounded: within 0.8 % after 100,000 nodes (lower bound 1,000 bytes; greedy 2,048 bytes)"; under the
// time objective the figures are estimated times: "(lower bound 12.500 us; estimated time; greedy 14.000 us)".
std::string search_line(const SearchCertificate& s) {
  const bool time = s.objective == "time";
  const std::string greedy = time ? "estimated time; greedy " + fixed(s.greedy_time_fused_us, "%.3f") + " us"
                                  : "greedy " + grouped(s.greedy_bytes_fused) + " bytes";
  if (s.status == "optimal")
    return "search: optimal, proven: " + grouped(static_cast<std::uint64_t>(s.nodes)) + " nodes (" + greedy + ")\n";
  const std::string bound = time ? fixed(s.lower_bound_us, "%.3f") + " us" : grouped(s.lower_bound) + " bytes";
  return "search: bounded: within " + fixed(s.gap * 100.0, "%.1f") + " % after " +
         grouped(static_cast<std::uint64_t>(s.nodes)) + " nodes (lower bound " + bound + "; " + greedy + ")\n";
}

// Where greedy went wrong: "  e1 -> c: greedy fused, optimal cut: greedy fused e1 → c (its 1st merge), ..." per
// listed difference, and "  and N more" when the certificate counts more than it lists.
std::string difference_lines(const FusionGraph& g, const SearchCertificate& s) {
  if (s.differences_total == 0) return "";
  std::string out = "\nwhere greedy went wrong (" + std::to_string(s.differences_total) + " edges decided differently):\n";
  for (const SearchDifference& d : s.differences)
    out += "  " + label(g, d.producer) + " -> " + label(g, d.consumer) + ": greedy " +
           (d.greedy_fused ? "fused, optimal cut: " : "cut, optimal fused: ") + d.why + "\n";
  const auto more = s.differences_total - static_cast<std::int64_t>(s.differences.size());
  if (more > 0) out += "  and " + std::to_string(more) + " more\n";
  return out;
}

// Numerics (docs/design.md §18): each group's notes in words, the evaluator's figures per output, what it skipped
// and what eager parity costs.
std::string numerics_lines(const FusionGraph& g, const FusionPlan& plan) {
  std::string out = "\nnumerics: what fusion changes in the results\n";
  bool any = false;
  for (const FusionGroup& group : plan.groups)
    for (const NumericsNote& note : group.numerics) {
      out += "  group " + std::to_string(group.id) + " [" + note.kind + "] " + note.message + "\n";
      any = true;
    }
  if (!any) out += "  no group changes rounding, contraction, reduction order, NaN handling or casts\n";
  const NumericsReport& r = plan.numerics;
  if (plan.options.numerics.parity)
    out += "eager parity: every rounding point kept; it costs " + std::string(r.parity_cost_bytes < 0 ? "-" : "+") +
           grouped(static_cast<std::uint64_t>(r.parity_cost_bytes < 0 ? -r.parity_cost_bytes : r.parity_cost_bytes)) +
           " bytes against the plan without it\n";
  if (!r.evaluated) return out;
  out += "reference evaluator (seed " + std::to_string(plan.options.numerics.seed) + ", at most " +
         grouped(static_cast<std::uint64_t>(plan.options.numerics.max_elements)) +
         " elements per tensor): fused against unfused, per output\n";
  out += "  " + pad("output", 22) + pad("dtype", 7) + pad("elements", 12) + pad("max_abs", 14) + pad("max_rel", 14) +
         "max_ulp\n";
  for (const NumericsOutput& o : r.outputs)
    out += "  " + pad(label(g, o.op), 22) + pad(std::string(to_string(o.type)), 7) +
           pad(grouped(static_cast<std::uint64_t>(o.elements)), 12) + pad(fixed(o.max_abs, "%.6g"), 14) +
           pad(fixed(o.max_rel, "%.3g"), 14) + fixed(o.max_ulp, "%.0f") +
           (o.mismatched_special ? " (" + std::to_string(o.mismatched_special) + " NaN/inf mismatches)" : "") + "\n";
  for (const NumericsSkipped& s : r.skipped)
    out += "  not evaluated (fresh data downstream): " + label(g, s.op) + ": " + s.reason + "\n";
  return out;
}

}  // namespace

std::string format_plan_table(const FusionGraph& g, const FusionPlan& plan) {
  std::string out = pad("group", 7) + pad("ops (* recomputed)", 34) + pad("inputs", 22) + pad("outputs", 22) +
                    pad("bytes read", 16) + pad("bytes written", 16) + pad("time us", 10) + "pattern\n";
  for (const FusionGroup& group : plan.groups)
    out += pad(std::to_string(group.id), 7) + pad(members(g, group), 34) + pad(labels(g, group.inputs), 22) +
           pad(labels(g, group.outputs), 22) + pad(grouped(group.bytes_read), 16) +
           pad(grouped(group.bytes_written), 16) + pad(fixed(group.time_us, "%.2f"), 10) + group.label + "\n";
  out += "\nstrategy " + plan.options.strategy + ", hardware " + plan.options.hardware + "\n";
  out += "bytes unfused " + grouped(plan.bytes_unfused) + ", fused " + grouped(plan.bytes_fused) + ", speedup " +
         fixed(plan.speedup_estimate, "%.3f") + "x; kernels " + std::to_string(plan.kernels_unfused) + " -> " +
         std::to_string(plan.kernels_fused) + "\n";
  out += "time unfused " + fixed(plan.time_unfused_us, "%.2f") + " us, fused " + fixed(plan.time_fused_us, "%.2f") +
         " us, speedup " + fixed(plan.time_speedup, "%.3f") + "x\n";
  if (plan.search.present) out += search_line(plan.search);
  if (plan.has_dims) out += dims_lines(plan);
  for (const PlanWarning& w : plan.warnings) out += "warning[" + w.code + "]: " + w.message + "\n";
  if (plan.numerics.present) out += numerics_lines(g, plan);
  const auto unfused = std::count_if(plan.edges.begin(), plan.edges.end(), [](const EdgeDecision& e) {
    return !e.fused && e.reason != EdgeReason::source;
  });
  bool any_rule = false;
  for (const FusionGroup& group : plan.groups)
    if (!group.rule.empty()) {
      if (!any_rule) out += "\nhow the compiler formed each group:\n";
      any_rule = true;
      out += "  group " + std::to_string(group.id) + ": " + group.rule + "\n";
    }
  if (unfused > 0) {
    out += "\nnot fused (besides reads of sources):\n";
    for (const EdgeDecision& e : plan.edges)
      if (!e.fused && e.reason != EdgeReason::source)
        out += "  " + label(g, e.producer) + " -> " + label(g, e.consumer) + ": " + to_string(e.reason) + "\n";
  }
  if (plan.search.present) out += difference_lines(g, plan.search);
  return out;
}

}  // namespace fusion::cli
