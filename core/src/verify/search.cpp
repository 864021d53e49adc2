// verify/search.cpp — the certificate of a searched plan (docs/design.md §17), checked for consistency with the
// plan's own figures (objective time: check_time_figures below; objective bytes:) status "optimal" or "bounded"; lower_bound <= bytes_fused; optimal means lower_bound ==
// bytes_fused and gap 0; gap = (bytes_fused - lower_bound) / bytes_fused (0 when bytes_fused is 0, relative
// tolerance 1e-9); bytes_fused <= greedy_bytes_fused (a search never answers worse than greedy). Whether the
// bound is true (no legal plan moves fewer bytes) is beyond a checker; tests/core/search.test.cpp shows it against
// a brute-force enumerator. Plans without a certificate pass.
// The differences against the greedy plan: the one exception to the verifier's independence from the planner,
// since "greedy" is whatever the planner's greedy pass answers. The greedy plan under the same options (search
// off, numerics off) must have greedy_bytes_fused bytes; the edges whose fused flag differs between it and this
// plan, in this plan's edge order, number differences_total, and the listed differences are the first
// min(total, kMaxExplainedDifferences) of them, each with the greedy plan's side and an explanation.
#include <cmath>
#include <map>

#include "fusion/planner.h"
#include "verify/context.h"

namespace fusion::verifier {
namespace {

// Objective time: lower_bound_us <= time_fused_us (relative tolerance 1e-9); optimal means gap 0 and the bound
// within the search's rounding (whole picoseconds per kernel, and a tolerance of 1 ps per op: at most 2 ps per op
// of the graph, fusion/search.h); bounded means gap =
// (time_fused_us - lower_bound_us) / time_fused_us; time_fused_us <= greedy_time_fused_us.
void check_time_figures(Context& c, const SearchCertificate& s) {
  const double time = c.plan.time_fused_us, low = s.lower_bound_us;
  const std::string figures = " (time_fused_us " + std::to_string(time) + ", lower_bound_us " + std::to_string(low) + ")";
  const double slack = 1e-9 * std::max(1.0, time);
  if (!(low <= time + slack)) c.fail("search", "the search's lower bound is above the plan's time" + figures);
  const double rounding = 2e-6 * static_cast<double>(c.g.size() + 1);
  if (s.status == "optimal" && (s.gap != 0.0 || time - low > rounding + slack))
    c.fail("search", "an optimal plan must meet its lower bound with gap 0" + figures);
  const double gap = time <= 0.0 ? 0.0 : std::max(0.0, (time - low) / time);
  if (s.status == "bounded" && std::abs(s.gap - gap) > 1e-9 * std::max(1.0, gap))
    c.fail("search", "search gap " + std::to_string(s.gap) + " is not (time_fused_us - lower_bound_us) / time_fused_us" + figures);
  if (time > s.greedy_time_fused_us + slack)
    c.fail("search", "a searched plan is slower (" + std::to_string(time) + " us) than the greedy plan (" +
                         std::to_string(s.greedy_time_fused_us) + " us)");
}

void check_figures(Context& c, const SearchCertificate& s) {
  if (s.status != "optimal" && s.status != "bounded")
    c.fail("search", "search status '" + s.status + "' is neither optimal nor bounded");
  if (s.objective == "time") return check_time_figures(c, s);
  const std::uint64_t bytes = c.plan.bytes_fused;
  const std::string figures = " (bytes_fused " + std::to_string(bytes) + ", lower_bound " +
                              std::to_string(s.lower_bound) + ")";
  if (s.lower_bound > bytes) c.fail("search", "the search's lower bound is above the plan's bytes" + figures);
  if (s.status == "optimal" && (s.lower_bound != bytes || s.gap != 0.0))
    c.fail("search", "an optimal plan must meet its lower bound with gap 0" + figures);
  const double gap = bytes == 0 || s.lower_bound > bytes
                         ? 0.0
                         : static_cast<double>(bytes - s.lower_bound) / static_cast<double>(bytes);
  if (std::abs(s.gap - gap) > 1e-9 * std::max(1.0, gap))
    c.fail("search", "search gap " + std::to_string(s.gap) + " is not (bytes_fused - lower_bound) / bytes_fused" + figures);
  if (bytes > s.greedy_bytes_fused)
    c.fail("search", "a searched plan moves more bytes (" + std::to_string(bytes) + ") than the greedy plan (" +
                         std::to_string(s.greedy_bytes_fused) + ")");
}

std::string edge_text(const SearchDifference& d) {
  return "the difference " + std::to_string(d.producer) + " -> " + std::to_string(d.consumer);
}

void check_differences(Context& c, const SearchCertificate& s) {
  PlannerOptions greedy_options = c.options;
  greedy_options.search = {};
  greedy_options.numerics = {};
  const Expected<FusionPlan> greedy = FusionPlanner(greedy_options).plan(c.g);
  if (!greedy) return c.fail("search", "the greedy plan to compare with cannot be made: " + greedy.errors().front().message);
  if (s.objective == "time" && std::abs(greedy->time_fused_us - s.greedy_time_fused_us) > 1e-9 * std::max(1.0, greedy->time_fused_us))
    c.fail("search", "greedy_time_fused_us " + std::to_string(s.greedy_time_fused_us) + " is not the greedy plan's " +
                         std::to_string(greedy->time_fused_us));
  if (greedy->bytes_fused != s.greedy_bytes_fused)
    c.fail("search", "greedy_bytes_fused " + std::to_string(s.greedy_bytes_fused) + " is not the greedy plan's " +
                         std::to_string(greedy->bytes_fused));
  std::map<std::pair<OpId, OpId>, bool> greedy_fused;
  for (const EdgeDecision& e : greedy->edges) greedy_fused[{e.producer, e.consumer}] = e.fused;
  std::vector<SearchDifference> expected;
  std::int64_t total = 0;
  for (const EdgeDecision& e : c.plan.edges) {
    const auto it = greedy_fused.find({e.producer, e.consumer});
    if (it == greedy_fused.end() || it->second == e.fused) continue;
    if (++total <= static_cast<std::int64_t>(kMaxExplainedDifferences))
      expected.push_back({e.producer, e.consumer, it->second, {}});
  }
  if (total != s.differences_total)
    c.fail("search", "differences_total " + std::to_string(s.differences_total) + " but " + std::to_string(total) +
                         " edges are decided differently by the greedy plan and this plan");
  for (std::size_t k = 0; k < s.differences.size(); ++k) {
    const SearchDifference& d = s.differences[k];
    if (k >= expected.size() || d.producer != expected[k].producer || d.consumer != expected[k].consumer)
      c.fail("search", edge_text(d) + " (listed " + std::to_string(k) +
                           ") is not the next edge, in edge order, that greedy and this plan decide differently");
    else if (d.greedy_fused != expected[k].greedy_fused)
      c.fail("search", edge_text(d) + " says greedy " + (d.greedy_fused ? "fused" : "cut") + " it, but greedy " +
                           (d.greedy_fused ? "cut" : "fused") + " it");
    if (d.why.empty()) c.fail("search", edge_text(d) + " has no explanation");
  }
  if (s.differences.size() < expected.size())
    c.fail("search", std::to_string(s.differences.size()) + " differences listed, " + std::to_string(expected.size()) +
                         " expected (the first " + std::to_string(kMaxExplainedDifferences) + " in edge order)");
}

}  // namespace

void check_search(Context& c) {
  const SearchCertificate& s = c.plan.search;
  if (!s.present) return;
  check_figures(c, s);
  check_differences(c, s);
}

}  // namespace fusion::verifier
