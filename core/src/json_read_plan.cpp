// json_read_plan.cpp — options and plan documents into C++ values, with located errors.
#include <algorithm>
#include <climits>

#include <nlohmann/json.hpp>

#include "detail/json_text.h"
#include "fusion/json_io.h"

namespace fusion {
namespace {

using json = nlohmann::json;
using detail::make_error;

// Reads typed fields of a plan document, remembering the first problem with its path.
class PlanFields {
 public:
  std::optional<Error> error;

  const json* field(const json& object, const char* key, const std::string& path) {
    if (error) return nullptr;
    if (!object.is_object()) return fail(path, "must be an object");
    const auto it = object.find(key);
    if (it == object.end()) return fail(path + "/" + key, "is missing");
    return &*it;
  }
  const json* list(const json& object, const char* key, const std::string& path) {
    const json* v = field(object, key, path);
    if (v && !v->is_array()) return fail(path + "/" + key, "must be a list");
    return v;
  }
  std::uint64_t count(const json& object, const char* key, const std::string& path) {
    const json* v = field(object, key, path);
    if (!v) return 0;
    if (!v->is_number_unsigned() && !(v->is_number_integer() && v->get<std::int64_t>() >= 0)) {
      fail(path + "/" + key, "must be a non-negative integer");
      return 0;
    }
    return v->get<std::uint64_t>();
  }
  double number(const json& object, const char* key, const std::string& path) {
    const json* v = field(object, key, path);
    if (v && !v->is_number()) fail(path + "/" + key, "must be a number");
    return v && v->is_number() ? v->get<double>() : 0.0;
  }
  std::string text(const json& object, const char* key, const std::string& path) {
    const json* v = field(object, key, path);
    if (v && !v->is_string()) fail(path + "/" + key, "must be a string");
    return v && v->is_string() ? v->get<std::string>() : std::string();
  }
  bool flag(const json& object, const char* key, const std::string& path) {
    const json* v = field(object, key, path);
    if (v && !v->is_boolean()) fail(path + "/" + key, "must be true or false");
    return v && v->is_boolean() && v->get<bool>();
  }
  // A formula (docs/design.md §16): a string, or null when it did not fit; absent is nullopt too.
  std::optional<std::string> formula(const json& object, const char* key, const std::string& path) {
    if (!object.is_object() || !object.contains(key)) return std::nullopt;
    const json& v = object[key];
    if (v.is_null()) return std::nullopt;
    if (!v.is_string()) fail(path + "/" + key, "must be a formula text or null");
    return v.is_string() ? std::optional(v.get<std::string>()) : std::nullopt;
  }
  DimValues dims(const json& object, const char* key, const std::string& path) {
    DimValues out;
    const json* v = field(object, key, path);
    if (!v) return out;
    if (!v->is_object()) return fail(path + "/" + key, "must be an object of dimension values"), out;
    for (const auto& [name, value] : v->items()) {
      if (!value.is_number_integer() || value.get<std::int64_t>() < 0)
        return fail(path + "/" + key + "/" + name, "must be a non-negative integer"), out;
      out[name] = value.get<std::int64_t>();
    }
    return out;
  }
  std::vector<std::int32_t> ids(const json& object, const char* key, const std::string& path) {
    std::vector<std::int32_t> out;
    const json* v = field(object, key, path);
    if (!v) return out;
    if (!v->is_array()) {
      fail(path + "/" + key, "must be a list of integers");
      return out;
    }
    for (const json& item : *v) {
      if (!item.is_number_integer() || item.get<std::int64_t>() < INT32_MIN || item.get<std::int64_t>() > INT32_MAX) {
        fail(path + "/" + key, "must be a list of integers");
        return {};
      }
      out.push_back(static_cast<std::int32_t>(item.get<std::int64_t>()));
    }
    return out;
  }

 private:
  std::nullptr_t fail(const std::string& path, const std::string& what) {
    if (!error)
      error = make_error(ErrorCode::invalid_plan, (path.empty() ? std::string("the plan") : "the plan field " + path) + " " + what, path);
    return nullptr;
  }
};

FusionGroup read_group(const json& v, const std::string& path, PlanFields& f) {
  FusionGroup group;
  group.id = static_cast<std::int32_t>(f.count(v, "id", path));
  group.ops = f.ids(v, "ops", path);
  group.inputs = f.ids(v, "inputs", path);
  group.outputs = f.ids(v, "outputs", path);
  group.bytes_read = f.count(v, "bytes_read", path);
  group.bytes_written = f.count(v, "bytes_written", path);
  if (v.is_object() && v.contains("recomputed")) group.recomputed = f.ids(v, "recomputed", path);
  if (v.is_object() && v.contains("label")) group.label = f.text(v, "label", path);
  if (v.is_object() && v.contains("rule")) group.rule = f.text(v, "rule", path);
  if (v.is_object() && v.contains("kernel")) group.kernel = f.flag(v, "kernel", path);
  if (v.is_object() && v.contains("flops")) group.flops = f.count(v, "flops", path);
  if (v.is_object() && v.contains("time_us")) group.time_us = f.number(v, "time_us", path);
  if (v.is_object() && v.contains("bytes_unfused")) group.bytes_unfused = f.count(v, "bytes_unfused", path);
  if (v.is_object() && v.contains("bytes_saved")) group.bytes_saved = static_cast<std::int64_t>(f.number(v, "bytes_saved", path));
  group.bytes_read_formula = f.formula(v, "bytes_read_formula", path);
  group.bytes_written_formula = f.formula(v, "bytes_written_formula", path);
  if (const json* notes = v.is_object() && v.contains("numerics") ? f.list(v, "numerics", path) : nullptr)
    for (std::size_t k = 0; k < notes->size(); ++k) {  // docs/design.md §18
      const std::string at = path + "/numerics/" + std::to_string(k);
      group.numerics.push_back({f.text((*notes)[k], "kind", at), f.ids((*notes)[k], "ops", at), f.text((*notes)[k], "message", at)});
    }
  return group;
}

// The evaluator's report (docs/design.md §18): its lists, which the verifier checks; the figures as numbers.
NumericsReport read_report(const json& v, PlanFields& f) {
  NumericsReport r;
  r.present = true;
  r.evaluated = f.flag(v, "evaluated", "/numerics");
  if (v.is_object() && v.contains("parity_cost_bytes")) r.parity_cost_bytes = static_cast<std::int64_t>(f.number(v, "parity_cost_bytes", "/numerics"));
  if (const json* outputs = f.list(v, "outputs", "/numerics"))
    for (std::size_t k = 0; k < outputs->size(); ++k) {
      const std::string at = "/numerics/outputs/" + std::to_string(k);
      const json& o = (*outputs)[k];
      NumericsOutput out;
      out.op = static_cast<OpId>(f.count(o, "op", at));
      out.elements = static_cast<std::int64_t>(f.count(o, "elements", at));
      out.max_abs = f.number(o, "max_abs", at);
      out.max_rel = f.number(o, "max_rel", at);
      out.max_ulp = f.number(o, "max_ulp", at);
      r.outputs.push_back(out);
    }
  if (const json* skipped = f.list(v, "skipped", "/numerics"))
    for (std::size_t k = 0; k < skipped->size(); ++k) {
      const std::string at = "/numerics/skipped/" + std::to_string(k);
      r.skipped.push_back({static_cast<OpId>(f.count((*skipped)[k], "op", at)), f.text((*skipped)[k], "reason", at)});
    }
  return r;
}

EdgeDecision read_edge(const json& v, const std::string& path, PlanFields& f) {
  EdgeDecision edge{static_cast<OpId>(f.count(v, "producer", path)), static_cast<OpId>(f.count(v, "consumer", path)),
                    false, EdgeReason::none};
  const json* fused = f.field(v, "fused", path);
  if (!fused) return edge;
  if (!fused->is_boolean()) {
    f.error = make_error(ErrorCode::invalid_plan, "the plan field " + path + "/fused must be true or false", path + "/fused");
    return edge;
  }
  edge.fused = fused->get<bool>();
  if (edge.fused) return edge;
  const json* reason = f.field(v, "reason", path);
  const auto parsed = reason && reason->is_string() ? parse_edge_reason(reason->get<std::string>()) : std::nullopt;
  if (!parsed && !f.error)
    f.error = make_error(ErrorCode::invalid_plan,
                         "the plan field " + path + "/reason must be an edge reason (source, barrier_producer, "
                                                    "barrier_consumer, shape, cycle, anchor, layout, multi_pass, "
                                                    "limit, unprofitable or region)",
                         path + "/reason");
  edge.reason = parsed.value_or(EdgeReason::none);
  return edge;
}

// The "search" certificate (docs/design.md §17): status "optimal" or "bounded"; objective "bytes" (when absent)
// or "time", with lower_bound or lower_bound_us to match; greedy_time_fused_us optional (0 when absent).
SearchCertificate read_certificate(const json& v, PlanFields& f) {
  SearchCertificate c;
  c.present = true;
  c.status = f.text(v, "status", "/search");
  if (!f.error && c.status != "optimal" && c.status != "bounded")
    f.error = make_error(ErrorCode::invalid_plan, "the plan field /search/status must be \"optimal\" or \"bounded\"",
                         "/search/status");
  c.objective = v.is_object() && v.contains("objective") ? f.text(v, "objective", "/search") : "bytes";
  if (!f.error && c.objective != "bytes" && c.objective != "time")
    f.error = make_error(ErrorCode::invalid_plan, "the plan field /search/objective must be \"bytes\" or \"time\"",
                         "/search/objective");
  if (c.objective == "time") c.lower_bound_us = f.number(v, "lower_bound_us", "/search");
  else c.lower_bound = f.count(v, "lower_bound", "/search");
  c.gap = f.number(v, "gap", "/search");
  c.nodes = static_cast<std::int64_t>(f.count(v, "nodes", "/search"));
  c.greedy_bytes_fused = f.count(v, "greedy_bytes_fused", "/search");
  if (v.is_object() && v.contains("greedy_time_fused_us"))
    c.greedy_time_fused_us = f.number(v, "greedy_time_fused_us", "/search");
  if (const json* list = f.list(v, "differences", "/search")) {
    for (std::size_t k = 0; k < list->size() && !f.error; ++k) {
      const json& item = (*list)[k];
      const std::string at = "/search/differences/" + std::to_string(k);
      SearchDifference d;
      d.producer = static_cast<std::int32_t>(std::min<std::uint64_t>(f.count(item, "producer", at), INT32_MAX));
      d.consumer = static_cast<std::int32_t>(std::min<std::uint64_t>(f.count(item, "consumer", at), INT32_MAX));
      const std::string greedy = f.text(item, "greedy", at), optimal = f.text(item, "optimal", at);
      d.why = f.text(item, "why", at);
      if (!f.error && !((greedy == "fused" && optimal == "cut") || (greedy == "cut" && optimal == "fused")))
        f.error = make_error(ErrorCode::invalid_plan, "the plan field " + at +
                                 " must have greedy and optimal \"fused\" and \"cut\" (one each)", at + "/greedy");
      d.greedy_fused = greedy == "fused";
      c.differences.push_back(std::move(d));
    }
  }
  c.differences_total = static_cast<std::int64_t>(f.count(v, "differences_total", "/search"));
  return c;
}

}  // namespace

Expected<FusionPlan> read_plan_json(std::string_view text) {
  Expected<json> doc = detail::parse_text(text);
  if (!doc) return doc.errors();
  PlanFields f;
  FusionPlan plan;
  const json& root = *doc;
  if (root.is_object() && root.contains("options")) {  // optional: the options the plan was made with
    const Expected<PlannerOptions> options = read_options_json(root["options"].dump());
    if (!options)
      return make_error(ErrorCode::invalid_plan, "the plan field /options: " + options.errors().front().message,
                        "/options" + options.errors().front().path);
    plan.options = *options;
  }
  if (const json* groups = f.list(root, "groups", ""))
    for (std::size_t i = 0; i < groups->size(); ++i)
      plan.groups.push_back(read_group((*groups)[i], "/groups/" + std::to_string(i), f));
  plan.op_group = f.ids(root, "op_group", "");
  if (const json* edges = f.list(root, "edges", ""))
    for (std::size_t i = 0; i < edges->size(); ++i)
      plan.edges.push_back(read_edge((*edges)[i], "/edges/" + std::to_string(i), f));
  plan.bytes_unfused = f.count(root, "bytes_unfused", "");
  if (const json* counts = f.list(root, "op_bytes_unfused", ""))
    for (std::size_t i = 0; i < counts->size() && !f.error; ++i) {
      const json& c = (*counts)[i];
      if (c.is_number_unsigned() || (c.is_number_integer() && c.get<std::int64_t>() >= 0))
        plan.op_bytes_unfused.push_back(c.get<std::uint64_t>());
      else
        f.error = make_error(ErrorCode::invalid_plan, "the plan field /op_bytes_unfused/" + std::to_string(i) +
                                                          " must be a non-negative integer",
                             "/op_bytes_unfused/" + std::to_string(i));
    }
  plan.bytes_fused = f.count(root, "bytes_fused", "");
  plan.kernels_unfused = static_cast<std::int64_t>(f.count(root, "kernels_unfused", ""));
  plan.kernels_fused = static_cast<std::int64_t>(f.count(root, "kernels_fused", ""));
  if (const json* speedup = f.field(root, "speedup_estimate", ""); speedup) {
    if (speedup->is_number()) plan.speedup_estimate = speedup->get<double>();
    else f.error = make_error(ErrorCode::invalid_plan, "the plan field /speedup_estimate must be a number", "/speedup_estimate");
  }
  // The time model's fields are optional (plans written before it existed).
  if (root.is_object() && root.contains("flops_unfused")) plan.flops_unfused = f.count(root, "flops_unfused", "");
  if (root.is_object() && root.contains("flops_fused")) plan.flops_fused = f.count(root, "flops_fused", "");
  if (root.is_object() && root.contains("time_unfused_us")) plan.time_unfused_us = f.number(root, "time_unfused_us", "");
  if (root.is_object() && root.contains("time_fused_us")) plan.time_fused_us = f.number(root, "time_fused_us", "");
  if (root.is_object() && root.contains("time_speedup")) plan.time_speedup = f.number(root, "time_speedup", "");
  // Named dimensions (docs/design.md §16): present for graphs that use names.
  if (root.is_object() && root.contains("dims")) {
    plan.has_dims = true;
    plan.dims = f.dims(root, "dims", "");
    if (root.contains("grouping_independent_of_dims"))
      plan.grouping_independent_of_dims = f.flag(root, "grouping_independent_of_dims", "");
    plan.bytes_unfused_formula = f.formula(root, "bytes_unfused_formula", "");
    plan.bytes_fused_formula = f.formula(root, "bytes_fused_formula", "");
    plan.bytes_saved_formula = f.formula(root, "bytes_saved_formula", "");
  }
  // Plan search (docs/design.md §17): present for searched plans.
  if (root.is_object() && root.contains("search")) plan.search = read_certificate(root["search"], f);
  if (root.is_object() && root.contains("numerics")) plan.numerics = read_report(root["numerics"], f);
  if (f.error) return *f.error;
  return plan;
}

}  // namespace fusion
