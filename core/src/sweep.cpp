// sweep.cpp — plans across one dimension's values, with exact change points (fusion/sweep.h).
#include "fusion/sweep.h"

#include <algorithm>

#include "detail/json_text.h"
#include "fusion/cost.h"
#include "fusion/dims.h"

namespace fusion {
namespace {

using Grouping = std::vector<std::vector<OpId>>;  // every group's ops, in plan order

Error range_error(const std::string& message, const std::string& field) {
  return detail::make_error(ErrorCode::invalid_options, message, "/sweep/" + field);
}

// The plan at one value, with the value named in any error's message. When the first plan proves its grouping
// independent of the values (docs/design.md §16), every other value keeps that grouping and is only bound,
// validated and priced, in place; otherwise each value is planned in full (without formulas, which rows do not
// carry). at() answers a plan that stays valid until the next call.
class PointPlanner {
 public:
  PointPlanner(const FusionGraph& graph, const FusionPlanner& planner, std::string dim)
      : graph_(graph), planner_(planner), dim_(std::move(dim)) {}

  // Plans the first value in full; its grouping is kept for the others when it is proven independent.
  Expected<const FusionPlan*> first(std::int64_t value) {
    Expected<FusionPlan> plan = planner_at(value).plan(graph_);
    if (!plan) return located(value, plan.errors());
    fixed_ = plan->grouping_independent_of_dims;
    last_ = std::move(plan).value();
    return &last_;
  }

  Expected<const FusionPlan*> at(std::int64_t value) {
    if (fixed_) return reprice(value);
    Expected<FusionPlan> plan = planner_at(value).plan_numbers(graph_);
    if (!plan) return located(value, plan.errors());
    last_ = std::move(plan).value();
    return &last_;
  }

  bool grouping_fixed() const { return fixed_; }

 private:
  FusionPlanner planner_at(std::int64_t value) const {
    DimValues dims = planner_.options().dims;
    dims[dim_] = value;
    FusionPlanner planner = planner_;
    return planner.with_dims(std::move(dims));
  }

  Expected<const FusionPlan*> reprice(std::int64_t value) {
    const FusionPlanner planner = planner_at(value);
    Expected<FusionGraph> bound = bind_dims(graph_, planner.options().dims);
    if (!bound) return located(value, bound.errors());
    if (std::vector<Error> errors = validate(*bound); !errors.empty()) return located(value, errors);
    price_plan(*bound, last_);  // the groups stay; every number is priced again
    return &last_;
  }

  std::vector<Error> located(std::int64_t value, std::vector<Error> errors) const {
    for (Error& e : errors) e.message = "at " + dim_ + " = " + std::to_string(value) + ": " + e.message;
    return errors;
  }

  const FusionGraph& graph_;
  const FusionPlanner& planner_;
  std::string dim_;
  bool fixed_ = false;  // the first plan's grouping holds for every value
  FusionPlan last_;
};

Grouping grouping_of(const FusionPlan& plan) {
  Grouping out;
  out.reserve(plan.groups.size());
  for (const FusionGroup& group : plan.groups) out.push_back(group.ops);
  return out;
}

SweepRow row_of(std::int64_t value, const FusionPlan& plan, bool changed) {
  return {value, plan.bytes_unfused, plan.bytes_fused, plan.speedup_estimate, plan.time_unfused_us,
          plan.time_fused_us, plan.time_speedup, plan.kernels_fused, changed, 0};
}

// Bisects (lo, hi] for a value whose grouping differs from the one before it; lo's grouping is `low`.
Expected<SweepChange> find_change(PointPlanner& points, std::int64_t lo, const Grouping& low, std::int64_t lo_kernels,
                                  std::int64_t hi, std::int64_t hi_kernels) {
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    Expected<const FusionPlan*> plan = points.at(mid);
    if (!plan) return plan.errors();
    if (grouping_of(**plan) == low) lo = mid, lo_kernels = (*plan)->kernels_fused;
    else hi = mid, hi_kernels = (*plan)->kernels_fused;
  }
  return SweepChange{hi, lo_kernels, hi_kernels};
}

}  // namespace

Expected<std::vector<std::int64_t>> sweep_values(const SweepSpec& spec) {
  if (!is_dim_name(spec.dim)) return range_error("the swept dimension must be a name such as \"N\"", "dim");
  if (spec.from < 0 || static_cast<std::uint64_t>(spec.from) > kMaxExactBytes)
    return range_error("a sweep starts at a whole number from 0 to 2^53 - 1", "from");
  if (spec.to < spec.from || static_cast<std::uint64_t>(spec.to) > kMaxExactBytes)
    return range_error("a sweep ends at a whole number from its start to 2^53 - 1", "to");
  if (spec.step < 0) return range_error("a sweep's step is a whole number (0: powers of two)", "step");
  std::vector<std::int64_t> values{spec.from};
  auto push = [&](std::int64_t v) {
    if (v > values.back() && v <= spec.to) values.push_back(v);
    return values.size() <= kMaxSweepRows;
  };
  if (spec.step == 0) {
    for (std::int64_t p = 1; p < spec.to && p <= (std::int64_t{1} << 53); p *= 2) push(p);
  } else {
    const std::int64_t count = (spec.to - spec.from) / spec.step;
    if (count >= static_cast<std::int64_t>(kMaxSweepRows))
      return range_error("a sweep has at most " + std::to_string(kMaxSweepRows) + " rows; use a larger step", "step");
    for (std::int64_t k = 1; k <= count; ++k) push(spec.from + k * spec.step);
  }
  push(spec.to);
  return values;
}

Expected<SweepResult> sweep(const FusionGraph& graph, const FusionPlanner& planner, const SweepSpec& spec) {
  Expected<std::vector<std::int64_t>> values = sweep_values(spec);
  if (!values) return values.errors();
  const std::vector<std::string> used = used_dim_names(graph);
  if (!std::binary_search(used.begin(), used.end(), spec.dim))
    return range_error("the graph has no dimension named '" + spec.dim + "' to sweep", "dim");
  PointPlanner points(graph, planner, spec.dim);
  SweepResult result{spec.dim, {}, {}};
  Grouping previous;
  for (std::int64_t value : *values) {
    const bool first = result.rows.empty();
    Expected<const FusionPlan*> plan = first ? points.first(value) : points.at(value);
    if (!plan) return plan.errors();
    const FusionPlan& at = **plan;
    const bool changed = !first && !points.grouping_fixed() && grouping_of(at) != previous;
    if (changed) {
      SweepRow row = row_of(value, at, true);  // taken before the bisection reuses `at`
      Grouping grouping = grouping_of(at);
      const SweepRow& before = result.rows.back();
      Expected<SweepChange> change =
          find_change(points, before.value, previous, before.kernels_fused, value, row.kernels_fused);
      if (!change) return change.errors();
      result.changes.push_back(*change);
      row.change_at = change->at;
      result.rows.push_back(row);
      previous = std::move(grouping);
      continue;
    }
    result.rows.push_back(row_of(value, at, false));
    if (first || !points.grouping_fixed()) previous = grouping_of(at);
  }
  return result;
}

}  // namespace fusion
