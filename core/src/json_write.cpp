// json_write.cpp — plans, errors and violations as JSON text.
//
// Plans are written by hand into one string (a 1,000,000-op plan would be slow as a json DOM); numbers
// are exact integers, and the one floating-point value goes through nlohmann's shortest round-trip
// formatting so native and WASM agree byte for byte.
#include <charconv>
#include <nlohmann/json.hpp>

#include "fusion/json_io.h"
#include "fusion/strategy.h"

namespace fusion {
namespace {

using json = nlohmann::json;

template <typename Integer>
void append_number(std::string& out, Integer value) {
  char buffer[24];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  out.append(buffer, end);
}

template <typename Integer>
void append_list(std::string& out, const std::vector<Integer>& values) {
  out += '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    append_number(out, values[i]);
  }
  out += ']';
}

// ,"key":"text" or ,"key":null (a formula that does not fit, docs/design.md §16).
void append_formula(std::string& out, std::string_view key, const std::optional<std::string>& formula) {
  out += ",\"" + std::string(key) + "\":" + (formula ? json(*formula).dump() : "null");
}

// ,"search":{...}: the certificate of a searched plan (docs/design.md §17).
void append_certificate(std::string& out, const SearchCertificate& c) {
  out += ",\"search\":{\"mode\":\"optimal\",\"status\":" + json(c.status).dump();
  out += ",\"objective\":" + json(c.objective).dump();
  if (c.objective == "time") out += ",\"lower_bound_us\":" + json(c.lower_bound_us).dump();
  else out += ",\"lower_bound\":" + std::to_string(c.lower_bound);
  out += ",\"gap\":" + json(c.gap).dump();
  out += ",\"nodes\":" + std::to_string(c.nodes) + ",\"greedy_bytes_fused\":" + std::to_string(c.greedy_bytes_fused);
  out += ",\"greedy_time_fused_us\":" + json(c.greedy_time_fused_us).dump();
  out += ",\"differences\":[";
  for (const SearchDifference& d : c.differences) {
    if (out.back() != '[') out += ',';
    out += "{\"producer\":" + std::to_string(d.producer) + ",\"consumer\":" + std::to_string(d.consumer);
    out += std::string(",\"greedy\":") + (d.greedy_fused ? "\"fused\",\"optimal\":\"cut\"" : "\"cut\",\"optimal\":\"fused\"");
    out += ",\"why\":" + json(d.why).dump(-1, ' ', false, json::error_handler_t::replace) + '}';
  }
  out += "],\"differences_total\":" + std::to_string(c.differences_total) + '}';
}

void append_dims(std::string& out, const DimValues& dims) {
  out += '{';
  for (const auto& [name, value] : dims) {
    if (out.back() != '{') out += ',';
    out += json(name).dump();
    out += ':';
    append_number(out, value);
  }
  out += '}';
}

void append_warnings(std::string& out, const std::vector<PlanWarning>& warnings) {
  json list = json::array();
  for (const PlanWarning& w : warnings) list.push_back({{"code", w.code}, {"message", w.message}, {"path", w.path}});
  out += ",\"warnings\":" + list.dump(-1, ' ', false, json::error_handler_t::replace);
}

// ,"numerics":[{"kind","ops","message"}]: a group's notes (docs/design.md §18).
void append_notes(std::string& out, const std::vector<NumericsNote>& notes) {
  out += ",\"numerics\":[";
  for (std::size_t i = 0; i < notes.size(); ++i) {
    out += (i ? ",{\"kind\":" : "{\"kind\":") + json(notes[i].kind).dump() + ",\"ops\":";
    append_list(out, notes[i].ops);
    out += ",\"message\":" + json(notes[i].message).dump(-1, ' ', false, json::error_handler_t::replace) + '}';
  }
  out += ']';
}

// ,"numerics":{...}: the reference evaluator's report (docs/design.md §18).
void append_report(std::string& out, const FusionPlan& plan) {
  const NumericsSettings& s = plan.options.numerics;
  out += ",\"numerics\":{\"evaluated\":" + std::string(plan.numerics.evaluated ? "true" : "false");
  out += ",\"seed\":" + std::to_string(s.seed) + ",\"max_elements\":" + std::to_string(s.max_elements);
  out += s.parity ? ",\"parity\":true,\"parity_cost_bytes\":" + std::to_string(plan.numerics.parity_cost_bytes)
                  : std::string(",\"parity\":false");
  out += ",\"outputs\":[";
  for (std::size_t i = 0; i < plan.numerics.outputs.size(); ++i) {
    const NumericsOutput& o = plan.numerics.outputs[i];
    out += (i ? ",{\"op\":" : "{\"op\":") + std::to_string(o.op) + ",\"dtype\":\"" + std::string(to_string(o.type)) + '"';
    out += ",\"elements\":" + std::to_string(o.elements) + ",\"max_abs\":" + json(o.max_abs).dump();
    out += ",\"max_rel\":" + json(o.max_rel).dump() + ",\"max_ulp\":" + json(o.max_ulp).dump();
    out += ",\"mismatched_special\":" + std::to_string(o.mismatched_special) + '}';
  }
  out += "],\"skipped\":[";
  for (std::size_t i = 0; i < plan.numerics.skipped.size(); ++i) {
    const NumericsSkipped& k = plan.numerics.skipped[i];
    out += (i ? ",{\"op\":" : "{\"op\":") + std::to_string(k.op) + ",\"reason\":" +
           json(k.reason).dump(-1, ' ', false, json::error_handler_t::replace) + '}';
  }
  out += "]}";
}

void append_group(std::string& out, const FusionGroup& group, bool has_dims, bool notes) {
  out += "{\"id\":";
  append_number(out, group.id);
  out += ",\"ops\":";
  append_list(out, group.ops);
  out += ",\"inputs\":";
  append_list(out, group.inputs);
  out += ",\"outputs\":";
  append_list(out, group.outputs);
  out += ",\"bytes_read\":";
  append_number(out, group.bytes_read);
  out += ",\"bytes_written\":";
  append_number(out, group.bytes_written);
  if (has_dims) {
    append_formula(out, "bytes_read_formula", group.bytes_read_formula);
    append_formula(out, "bytes_written_formula", group.bytes_written_formula);
  }
  out += ",\"recomputed\":";
  append_list(out, group.recomputed);
  out += ",\"label\":" + json(group.label).dump();
  out += ",\"rule\":" + json(group.rule).dump();
  out += group.kernel ? ",\"kernel\":true" : ",\"kernel\":false";
  out += ",\"flops\":";
  append_number(out, group.flops);
  out += ",\"time_us\":" + json(group.time_us).dump();
  out += ",\"bytes_unfused\":";
  append_number(out, group.bytes_unfused);
  out += ",\"bytes_saved\":";
  append_number(out, group.bytes_saved);
  if (notes) append_notes(out, group.numerics);
  out += '}';
}

// The rules the strategy accepts (docs/strategies.md), in table order.
void append_rules(std::string& out, const StrategyRules& r, std::string_view strategy) {
  auto flag = [](bool on) { return std::string(on ? "true" : "false"); };
  auto value = [&](std::string_view name) -> std::string {
    if (name == "horizontal") return flag(r.horizontal);
    if (name == "horizontal_small_bytes") return std::to_string(r.horizontal_small_bytes);
    if (name == "horizontal_max_ops") return std::to_string(r.horizontal_max_ops);
    if (name == "epilogue") return flag(r.epilogue);
    if (name == "reduction_prologue") return flag(r.reduction_prologue);
    if (name == "reduction_epilogue") return flag(r.reduction_epilogue);
    if (name == "recompute") return "\"" + std::string(to_string(r.recompute)) + "\"";
    if (name == "max_group_ops") return std::to_string(r.max_group_ops);
    if (name == "max_group_operands") return std::to_string(r.max_group_operands);
    if (name == "max_live_values") return std::to_string(r.max_live_values);
    if (name == "refuse_unprofitable") return flag(r.refuse_unprofitable);
    if (name == "max_depth") return std::to_string(r.max_depth);
    if (name == "max_pointwise_cat_inputs") return std::to_string(r.max_pointwise_cat_inputs);
    std::string list = "[";
    if (name == "movement")
      for (OpKind kind : r.movement) list += (list.size() > 1 ? ",\"" : "\"") + std::string(to_string(kind)) + "\"";
    else
      for (std::string_view pass : xla_pass_names())
        if (r.passes & xla_pass_bit(pass)) list += (list.size() > 1 ? ",\"" : "\"") + std::string(pass) + "\"";
    return list + "]";
  };
  out += '{';
  bool first = true;
  for (std::string_view name : strategy_rule_names(strategy)) {
    out += (first ? "\"" : ",\"") + std::string(name) + "\":" + value(name);
    first = false;
  }
  out += '}';
}

void append_edge(std::string& out, const EdgeDecision& edge) {
  out += "{\"producer\":";
  append_number(out, edge.producer);
  out += ",\"consumer\":";
  append_number(out, edge.consumer);
  if (edge.fused) {
    out += ",\"fused\":true}";
  } else {
    out += ",\"fused\":false,\"reason\":\"";
    out += to_string(edge.reason);
    out += "\"}";
  }
}

json error_to_json(const Error& e) {
  json out = {{"code", to_string(e.code)}, {"message", e.message}};
  if (e.op) out["op"] = *e.op;
  if (!e.path.empty()) out["path"] = e.path;
  if (e.line) out["line"] = *e.line;
  if (e.column) out["column"] = *e.column;
  return out;
}

}  // namespace

std::string write_plan_json(const FusionPlan& plan) {
  std::string out;
  out.reserve(64 * (plan.groups.size() + plan.edges.size()) + 16 * plan.op_group.size() + 256);
  out += "{\"ok\":true,\"options\":{\"broadcast\":";
  out += plan.options.broadcast ? "true" : "false";
  out += ",\"resident_sources\":";
  out += plan.options.resident_sources ? "true" : "false";
  out += ",\"strategy\":" + json(plan.options.strategy).dump();
  out += ",\"hardware\":" + json(plan.options.hardware).dump() + ",\"rules\":";
  append_rules(out, plan.options.rules, plan.options.strategy);
  if (!plan.options.dims.empty()) {
    out += ",\"dims\":";
    append_dims(out, plan.options.dims);
  }
  if (const SearchSettings& s = plan.options.search; s.mode == SearchMode::optimal)
    out += ",\"search\":{\"mode\":\"optimal\",\"budget_nodes\":" + std::to_string(s.budget_nodes) +
           (s.budget_ms > 0 ? ",\"budget_ms\":" + std::to_string(s.budget_ms) : std::string()) + '}';
  if (const NumericsSettings& n = plan.options.numerics; n.enabled)
    out += std::string(",\"numerics\":{\"evaluate\":") + (n.evaluate ? "true" : "false") + ",\"parity\":" +
           (n.parity ? "true" : "false") + ",\"seed\":" + std::to_string(n.seed) +
           ",\"max_elements\":" + std::to_string(n.max_elements) + '}';
  out += '}';
  if (plan.search.present) append_certificate(out, plan.search);
  if (plan.has_dims) {
    out += ",\"dims\":";
    append_dims(out, plan.dims);
    out += plan.grouping_independent_of_dims ? ",\"grouping_independent_of_dims\":true"
                                             : ",\"grouping_independent_of_dims\":false";
  }
  out += ",\"groups\":[";
  for (std::size_t i = 0; i < plan.groups.size(); ++i) {
    if (i) out += ',';
    append_group(out, plan.groups[i], plan.has_dims, plan.options.numerics.enabled);
  }
  out += "],\"op_group\":";
  append_list(out, plan.op_group);
  out += ",\"bytes_unfused\":" + std::to_string(plan.bytes_unfused);
  out += ",\"bytes_fused\":" + std::to_string(plan.bytes_fused);
  if (plan.has_dims) {
    append_formula(out, "bytes_unfused_formula", plan.bytes_unfused_formula);
    append_formula(out, "bytes_fused_formula", plan.bytes_fused_formula);
    append_formula(out, "bytes_saved_formula", plan.bytes_saved_formula);
  }
  out += ",\"speedup_estimate\":" + json(plan.speedup_estimate).dump();
  out += ",\"kernels_unfused\":" + std::to_string(plan.kernels_unfused);
  out += ",\"kernels_fused\":" + std::to_string(plan.kernels_fused);
  out += ",\"flops_unfused\":" + std::to_string(plan.flops_unfused);
  out += ",\"flops_fused\":" + std::to_string(plan.flops_fused);
  out += ",\"time_unfused_us\":" + json(plan.time_unfused_us).dump();
  out += ",\"time_fused_us\":" + json(plan.time_fused_us).dump();
  out += ",\"time_speedup\":" + json(plan.time_speedup).dump();
  out += ",\"op_bytes_unfused\":";
  append_list(out, plan.op_bytes_unfused);
  out += ",\"edges\":[";
  for (std::size_t i = 0; i < plan.edges.size(); ++i) {
    if (i) out += ',';
    append_edge(out, plan.edges[i]);
  }
  out += ']';
  if (plan.numerics.present) append_report(out, plan);
  if (plan.has_dims || !plan.warnings.empty()) append_warnings(out, plan.warnings);
  out += '}';
  return out;
}

namespace {

void append_sweep_rows(std::string& out, const SweepResult& result) {
  out += '[';
  for (std::size_t i = 0; i < result.rows.size(); ++i) {
    const SweepRow& r = result.rows[i];
    out += i ? ",{\"value\":" : "{\"value\":";
    append_number(out, r.value);
    out += ",\"bytes_unfused\":" + std::to_string(r.bytes_unfused);
    out += ",\"bytes_fused\":" + std::to_string(r.bytes_fused);
    out += ",\"speedup_estimate\":" + json(r.speedup_estimate).dump();
    out += ",\"time_unfused_us\":" + json(r.time_unfused_us).dump();
    out += ",\"time_fused_us\":" + json(r.time_fused_us).dump();
    out += ",\"time_speedup\":" + json(r.time_speedup).dump();
    out += ",\"kernels_fused\":" + std::to_string(r.kernels_fused);
    out += r.changed ? ",\"changed\":true,\"change_at\":" + std::to_string(r.change_at) + "}" : ",\"changed\":false}";
  }
  out += ']';
}

}  // namespace

std::string write_sweep_rows_json(const SweepResult& result) {
  std::string out;
  append_sweep_rows(out, result);
  return out;
}

std::string write_sweep_json(const SweepResult& result) {
  std::string out = "{\"ok\":true,\"dim\":" + json(result.dim).dump() + ",\"rows\":";
  append_sweep_rows(out, result);
  out += ",\"changes\":[";
  for (std::size_t i = 0; i < result.changes.size(); ++i) {
    const SweepChange& c = result.changes[i];
    out += (i ? ",{\"at\":" : "{\"at\":") + std::to_string(c.at) + ",\"kernels_before\":" +
           std::to_string(c.kernels_before) + ",\"kernels_after\":" + std::to_string(c.kernels_after) + "}";
  }
  return out + "]}";
}

std::string write_rules_json(const StrategyRules& rules, std::string_view strategy) {
  std::string out;
  append_rules(out, rules, strategy);
  return out;
}

std::string write_errors_json(const std::vector<Error>& errors) {
  json list = json::array();
  for (const Error& e : errors) list.push_back(error_to_json(e));
  json out = {{"ok", false}, {"error", list.empty() ? json::object() : list.front()}, {"errors", list}};
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string write_violations_json(const std::vector<Violation>& violations) {
  json list = json::array();
  for (const Violation& v : violations) {
    json item = {{"code", v.code}, {"message", v.message}};
    if (v.group) item["group"] = *v.group;
    if (v.op) item["op"] = *v.op;
    list.push_back(item);
  }
  json out = {{"ok", true}, {"valid", violations.empty()}, {"violations", list}};
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace fusion
