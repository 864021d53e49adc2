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

void append_group(std::string& out, const FusionGroup& group) {
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
  out += ",\"recomputed\":";
  append_list(out, group.recomputed);
  out += ",\"label\":" + json(group.label).dump();
  out += group.kernel ? ",\"kernel\":true" : ",\"kernel\":false";
  out += ",\"flops\":";
  append_number(out, group.flops);
  out += ",\"time_us\":" + json(group.time_us).dump();
  out += ",\"bytes_unfused\":";
  append_number(out, group.bytes_unfused);
  out += ",\"bytes_saved\":";
  append_number(out, group.bytes_saved);
  out += '}';
}

void append_rules(std::string& out, const StrategyRules& r) {
  auto flag = [](bool on) { return on ? "true" : "false"; };
  out += "{\"horizontal\":";
  out += flag(r.horizontal);
  out += ",\"horizontal_small_bytes\":" + std::to_string(r.horizontal_small_bytes);
  out += ",\"horizontal_max_ops\":" + std::to_string(r.horizontal_max_ops);
  out += ",\"epilogue\":";
  out += flag(r.epilogue);
  out += ",\"reduction_prologue\":";
  out += flag(r.reduction_prologue);
  out += ",\"reduction_epilogue\":";
  out += flag(r.reduction_epilogue);
  out += ",\"recompute\":\"" + std::string(to_string(r.recompute)) + "\",\"movement\":[";
  for (std::size_t i = 0; i < r.movement.size(); ++i)
    out += (i ? ",\"" : "\"") + std::string(to_string(r.movement[i])) + "\"";
  out += "],\"max_group_ops\":" + std::to_string(r.max_group_ops);
  out += ",\"max_group_operands\":" + std::to_string(r.max_group_operands);
  out += ",\"max_live_values\":" + std::to_string(r.max_live_values);
  out += ",\"refuse_unprofitable\":";
  out += flag(r.refuse_unprofitable);
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
  append_rules(out, plan.options.rules);
  out += "},\"groups\":[";
  for (std::size_t i = 0; i < plan.groups.size(); ++i) {
    if (i) out += ',';
    append_group(out, plan.groups[i]);
  }
  out += "],\"op_group\":";
  append_list(out, plan.op_group);
  out += ",\"bytes_unfused\":" + std::to_string(plan.bytes_unfused);
  out += ",\"bytes_fused\":" + std::to_string(plan.bytes_fused);
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
  out += "]}";
  return out;
}

std::string write_rules_json(const StrategyRules& rules) {
  std::string out;
  append_rules(out, rules);
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
