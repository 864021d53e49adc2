// api.cpp — the never-throwing JSON facade shared by the CLI and the WASM module.
#include "fusion/api.h"

#include <functional>
#include <initializer_list>
#include <new>
#include <optional>

#include <nlohmann/json.hpp>

#include "fusion/codegen.h"
#include "fusion/dims.h"
#include "fusion/hardware.h"
#include "fusion/json_io.h"
#include "fusion/strategy.h"
#include "fusion/planner.h"
#include "fusion/sweep.h"
#include "fusion/verify.h"

namespace fusion::api {
namespace {

std::string failure(ErrorCode code, std::string message) {
  return write_errors_json({Error{code, std::move(message), {}, {}, {}, {}}});
}

// A failure that is not the caller's mistake, shaped like an error document with "internal": true: code is
// one of kFailureCodes; extra fields (the broken invariant) go beside code and message.
std::string system_failure(std::string_view code, std::string message, nlohmann::json extra = nlohmann::json::object()) {
  nlohmann::json error = {{"code", code}, {"message", std::move(message)}, {"internal", true}};
  error.update(extra);
  const nlohmann::json out = {{"ok", false}, {"error", error}, {"errors", nlohmann::json::array({error})}};
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// input_too_large for the first text above the cap, or nullopt.
std::optional<std::string> too_large(std::initializer_list<std::pair<const char*, std::string_view>> texts) {
  for (const auto& [what, text] : texts)
    if (text.size() > kMaxTextBytes)
      return failure(ErrorCode::input_too_large, std::string("the ") + what + " text is " + std::to_string(text.size()) +
                                                     " bytes; the limit is " + std::to_string(kMaxTextBytes) +
                                                     " bytes (256 MiB)");
  return std::nullopt;
}

std::string plan_with(const FusionGraph& graph, const PlannerOptions& options) {
  const Expected<FusionPlan> result = FusionPlanner(options).plan(graph);
  if (!result) return write_errors_json(result.errors());
  return write_plan_json(*result);
}

std::string sweep_with(const FusionGraph& graph, std::string_view options_json, std::string_view sweep_json) {
  const Expected<PlannerOptions> options = read_options_json(options_json);
  if (!options) return write_errors_json(options.errors());
  const Expected<SweepSpec> spec = read_sweep_json(sweep_json);
  if (!spec) return write_errors_json(spec.errors());
  const Expected<SweepResult> result = fusion::sweep(graph, FusionPlanner(*options), *spec);
  if (!result) return write_errors_json(result.errors());
  return write_sweep_json(*result);
}

// The request of code(): a dialect and an optional group, or the error.
struct CodeRequest {
  CodeDialect dialect = CodeDialect::c;
  std::optional<std::int64_t> group;
};

Expected<CodeRequest> read_code_request(std::string_view text) {
  const auto bad = [](std::string message, std::string path) {
    return Expected<CodeRequest>(std::vector<Error>{Error{ErrorCode::invalid_options, std::move(message), {}, std::move(path), {}, {}}});
  };
  const nlohmann::json j = nlohmann::json::parse(text.empty() ? std::string_view("{}") : text, nullptr, false);
  if (!j.is_object()) return bad("the code request must be an object such as {\"dialect\": \"c\", \"group\": 2}", "");
  CodeRequest request;
  for (const auto& [key, value] : j.items()) {
    if (key == "dialect") {
      const auto dialect = value.is_string() ? parse_code_dialect(value.get<std::string>()) : std::nullopt;
      if (!dialect) return bad("dialect must be \"c\" or \"triton\"", "/dialect");
      request.dialect = *dialect;
    } else if (key == "group") {
      if (!value.is_number_integer() || value.get<std::int64_t>() < 0)
        return bad("group must be a group id (a whole number from 0)", "/group");
      request.group = value.get<std::int64_t>();
    } else {
      return bad("unknown field '" + key + "' in the code request; it takes dialect and group", "/" + key);
    }
  }
  return request;
}

std::string code_with(const FusionGraph& graph, std::string_view options_json, std::string_view request_json) {
  const Expected<PlannerOptions> options = read_options_json(options_json);
  if (!options) return write_errors_json(options.errors());
  const Expected<CodeRequest> request = read_code_request(request_json);
  if (!request) return write_errors_json(request.errors());
  const Expected<FusionPlan> plan = FusionPlanner(*options).plan(graph);
  if (!plan) return write_errors_json(plan.errors());
  const Expected<FusionGraph> bound = graph.has_dim_names() ? bind_dims(graph, options->dims) : graph;
  if (!bound) return write_errors_json(bound.errors());
  const std::int64_t groups = static_cast<std::int64_t>(plan->groups.size());
  if (request->group && *request->group >= groups)
    return write_errors_json({Error{ErrorCode::invalid_options,
                                    "group " + std::to_string(*request->group) + " is not in the plan, which has " +
                                        std::to_string(groups) + " groups",
                                    {}, "/group", {}, {}}});
  nlohmann::json list = nlohmann::json::array();
  for (std::int64_t g = request->group.value_or(0); g < (request->group ? *request->group + 1 : groups); ++g) {
    const FusionGroup& group = plan->groups[static_cast<std::size_t>(g)];
    const std::string text = emit_group_code(*bound, *plan, static_cast<std::int32_t>(g), request->dialect);
    nlohmann::json lines = nlohmann::json::array();
    for (const AnnotatedLine& a : annotated_lines(text))
      lines.push_back({{"line", a.line}, {"kind", a.store ? "store" : "load"}, {"op", a.op}, {"bytes", a.bytes}});
    list.push_back({{"id", g}, {"code", text}, {"bytes_read", group.bytes_read}, {"bytes_written", group.bytes_written},
                    {"lines", lines}});
  }
  const nlohmann::json out = {{"ok", true}, {"dialect", request->dialect == CodeDialect::c ? "c" : "triton"}, {"groups", list}};
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string detail::guard(const std::function<std::string()>& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return system_failure("out_of_memory", "the planner ran out of memory; try a smaller graph");
  } catch (const InternalError& e) {
    return system_failure("internal_error", e.what(), {{"invariant", e.invariant()}, {"where", e.where()}});
  } catch (const std::exception& e) {
    return system_failure("internal_error", std::string("internal error (please report it): ") + e.what());
  } catch (...) {
    return system_failure("internal_error", "internal error (please report it)");
  }
}


std::string plan(std::string_view graph_json, std::string_view options_json) {
  return detail::guard([&] {
    if (auto refused = too_large({{"graph", graph_json}, {"options", options_json}})) return *refused;
    const Expected<PlannerOptions> options = read_options_json(options_json);
    if (!options) return write_errors_json(options.errors());
    const Expected<FusionGraph> graph = read_graph_json(graph_json);
    if (!graph) return write_errors_json(graph.errors());
    return plan_with(*graph, *options);
  });
}

std::string plan_parsed(const FusionGraph& graph, std::string_view options_json) {
  return detail::guard([&] {
    if (auto refused = too_large({{"options", options_json}})) return *refused;
    const Expected<PlannerOptions> options = read_options_json(options_json);
    if (!options) return write_errors_json(options.errors());
    return plan_with(graph, *options);
  });
}

std::string code(std::string_view graph_json, std::string_view options_json, std::string_view request_json) {
  return detail::guard([&] {
    if (auto refused = too_large({{"graph", graph_json}, {"options", options_json}, {"request", request_json}}))
      return *refused;
    const Expected<FusionGraph> graph = read_graph_json(graph_json);
    if (!graph) return write_errors_json(graph.errors());
    return code_with(*graph, options_json, request_json);
  });
}

std::string code_parsed(const FusionGraph& graph, std::string_view options_json, std::string_view request_json) {
  return detail::guard([&] {
    if (auto refused = too_large({{"options", options_json}, {"request", request_json}})) return *refused;
    return code_with(graph, options_json, request_json);
  });
}

std::string validate(std::string_view graph_json) {
  return detail::guard([&] {
    if (auto refused = too_large({{"graph", graph_json}})) return *refused;
    Expected<FusionGraph> graph = read_graph_json(graph_json);
    if (!graph) return write_errors_json(graph.errors());
    if (graph->has_dim_names()) graph = bind_dims(*graph, {});  // at its defaults (docs/design.md §16)
    if (!graph) return write_errors_json(graph.errors());
    if (std::vector<Error> errors = fusion::validate(*graph); !errors.empty()) return write_errors_json(errors);
    std::size_t edges = 0;
    for (const FusionOp& op : graph->ops()) edges += op.inputs.size();
    return "{\"ok\":true,\"ops\":" + std::to_string(graph->size()) + ",\"edges\":" + std::to_string(edges) + "}";
  });
}

std::string verify(std::string_view graph_json, std::string_view options_json, std::string_view plan_json) {
  return detail::guard([&] {
    if (auto refused = too_large({{"graph", graph_json}, {"options", options_json}, {"plan", plan_json}})) return *refused;
    const Expected<PlannerOptions> options = read_options_json(options_json);
    if (!options) return write_errors_json(options.errors());
    const Expected<FusionGraph> graph = read_graph_json(graph_json);
    if (!graph) return write_errors_json(graph.errors());
    const Expected<FusionGraph> bound = graph->has_dim_names() ? bind_dims(*graph, options->dims) : *graph;
    if (!bound) return write_errors_json(bound.errors());
    if (std::vector<Error> errors = fusion::validate(*bound); !errors.empty()) return write_errors_json(errors);
    const Expected<FusionPlan> plan = read_plan_json(plan_json);
    if (!plan) return write_errors_json(plan.errors());
    return write_violations_json(verify_plan(*graph, *options, *plan));
  });
}

std::string sweep(std::string_view graph_json, std::string_view options_json, std::string_view sweep_json) {
  return detail::guard([&] {
    if (auto refused = too_large({{"graph", graph_json}, {"options", options_json}, {"sweep", sweep_json}})) return *refused;
    const Expected<FusionGraph> graph = read_graph_json(graph_json);
    if (!graph) return write_errors_json(graph.errors());
    return sweep_with(*graph, options_json, sweep_json);
  });
}

std::string sweep_parsed(const FusionGraph& graph, std::string_view options_json, std::string_view sweep_json) {
  return detail::guard([&] {
    if (auto refused = too_large({{"options", options_json}, {"sweep", sweep_json}})) return *refused;
    return sweep_with(graph, options_json, sweep_json);
  });
}

std::string version() { return "0.1.0"; }

std::string catalog() {
  return detail::guard([] {
    nlohmann::json out = {{"ok", true}};
    for (std::string_view name : strategy_names())
      out["strategies"].push_back({{"name", name}, {"rules", nlohmann::json::parse(write_rules_json(*preset_rules(name), name))}});
    for (std::string_view name : hardware_names()) {
      const HardwareProfile h = *hardware_profile(name);
      out["hardware"].push_back({{"name", h.name},
                                 {"description", h.description},
                                 {"bandwidth_bytes_per_s", h.bandwidth_bytes_per_s},
                                 {"vector_flops_per_s", h.vector_flops_per_s},
                                 {"matrix_flops_per_s", h.matrix_flops_per_s},
                                 {"launch_us", h.launch_us}});
    }
    out["rules"] = nlohmann::json::array();
    for (std::string_view name : rule_names()) out["rules"].push_back(name);
    out["reasons"] = nlohmann::json::array();
    for (int r = static_cast<int>(EdgeReason::source); r <= static_cast<int>(EdgeReason::numerics); ++r)
      out["reasons"].push_back(to_string(static_cast<EdgeReason>(r)));  // every reason but none, in order
    for (OpKind kind : all_op_kinds())
      out["kinds"].push_back({{"name", to_string(kind)}, {"category", to_string(category(kind))},
                              {"aliases", kind_aliases(kind)}});
    const PlannerOptions defaults;
    out["defaults"] = {{"broadcast", defaults.broadcast},
                       {"resident_sources", defaults.resident_sources},
                       {"strategy", defaults.strategy},
                       {"hardware", defaults.hardware}};
    for (ErrorCode code : all_error_codes()) out["errors"]["user"].push_back(to_string(code));
    out["errors"]["internal"] = kFailureCodes;
    return out.dump();
  });
}

}  // namespace fusion::api
