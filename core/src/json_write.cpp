// json_write.cpp — plans, errors and violations as JSON text.
//
// Plans are written by hand into one string (a 1,000,000-op plan would be slow as a json DOM); numbers
// are exact integers, and the one floating-point value goes through nlohmann's shortest round-trip
// formatting so native and WASM agree byte for byte.
#include <nlohmann/json.hpp>

#include "fusion/json_io.h"

namespace fusion {
namespace {

using json = nlohmann::json;

void append_ids(std::string& out, const std::vector<std::int32_t>& ids) {
  out += '[';
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(ids[i]);
  }
  out += ']';
}

void append_counts(std::string& out, const std::vector<std::uint64_t>& counts) {
  out += '[';
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(counts[i]);
  }
  out += ']';
}

void append_group(std::string& out, const FusionGroup& group) {
  out += "{\"id\":" + std::to_string(group.id) + ",\"ops\":";
  append_ids(out, group.ops);
  out += ",\"inputs\":";
  append_ids(out, group.inputs);
  out += ",\"outputs\":";
  append_ids(out, group.outputs);
  out += ",\"bytes_read\":" + std::to_string(group.bytes_read) +
         ",\"bytes_written\":" + std::to_string(group.bytes_written) + '}';
}

void append_edge(std::string& out, const EdgeDecision& edge) {
  out += "{\"producer\":" + std::to_string(edge.producer) + ",\"consumer\":" + std::to_string(edge.consumer);
  out += edge.fused ? ",\"fused\":true}" : std::string(",\"fused\":false,\"reason\":\"") + to_string(edge.reason) + "\"}";
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
  out += ",\"strategy\":" + json(plan.options.strategy).dump() + "},\"groups\":[";
  for (std::size_t i = 0; i < plan.groups.size(); ++i) {
    if (i) out += ',';
    append_group(out, plan.groups[i]);
  }
  out += "],\"op_group\":";
  append_ids(out, plan.op_group);
  out += ",\"bytes_unfused\":" + std::to_string(plan.bytes_unfused);
  out += ",\"bytes_fused\":" + std::to_string(plan.bytes_fused);
  out += ",\"speedup_estimate\":" + json(plan.speedup_estimate).dump();
  out += ",\"kernels_unfused\":" + std::to_string(plan.kernels_unfused);
  out += ",\"kernels_fused\":" + std::to_string(plan.kernels_fused);
  out += ",\"op_bytes_unfused\":";
  append_counts(out, plan.op_bytes_unfused);
  out += ",\"edges\":[";
  for (std::size_t i = 0; i < plan.edges.size(); ++i) {
    if (i) out += ',';
    append_edge(out, plan.edges[i]);
  }
  out += "]}";
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
