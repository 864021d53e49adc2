// bindings.cpp — the embind surface of the planner: JSON-text functions, nothing else.
//
// Contract: plan(graphJson, optionsJson), validate(graphJson), verify(graphJson, optionsJson, planJson),
// sweep(graphJson, optionsJson, sweepJson), code(graphJson, optionsJson, requestJson) (generated code, docs/design.md
// §19), version() and catalog() return exactly what fusion::api returns, so
// WASM and the native CLI agree byte for byte. Loaded graphs (docs/design.md §13) let a caller re-plan one graph
// with new options (e.g. new dimension values, §16) without reading its text again: loadGraph(graphJson) reads
// it once and answers {"ok":true,"handle":N,"ops":M} or the reader's error object; planLoaded(handle, options)
// sweepLoaded(handle, options, sweep) and codeLoaded(handle, options, request) answer like plan, sweep and code; unloadGraph(handle) frees it. An unknown
// handle answers an invalid_options error. The handles are plain numbers held here, the binding layer (the core
// keeps no state).
// fusion::api never throws (every failure, out of memory included, is {"ok": false, "error": ...}); what
// can still fail outside it, such as embind copying a huge argument string into an exhausted heap, reaches
// JavaScript as an exception, which wasm/fusion-loader.mjs turns into an error value. Only value types
// cross: no class handles for JavaScript to .delete(). Not here: parsing, typed errors, the builder API
// (wasm/fusion.mjs). Shown by tests/wasm/*.test.mjs.
// Two modules are linked from this file (wasm/CMakeLists.txt): fusion_core, with every function above, for the
// page, the CLI's tests and Node; and fusion_plan, compiled with FUSION_WASM_PLAN_ONLY, for the
// <fusion-playground> element and other views that only plan. It binds plan, loadGraph, planLoaded,
// unloadGraph, version and catalog, and nothing else, so the linker leaves out what only validate, verify and
// sweep reach (the verifier, the sweep driver). wasm/fusion-loader.mjs answers a call to a function a module
// lacks with an error value (code "not_in_module"). Shown by tests/wasm/plan-module.test.mjs.
#include <emscripten/bind.h>

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "fusion/api.h"
#include "fusion/json_io.h"

namespace {

// The loaded graphs, by handle; handles are never reused.
std::map<int, fusion::FusionGraph>& loaded_graphs() {
  static std::map<int, fusion::FusionGraph> graphs;
  return graphs;
}
int next_handle = 1;

std::string unknown_handle(int handle) {
  return fusion::write_errors_json({fusion::Error{fusion::ErrorCode::invalid_options,
                                                  "no loaded graph has handle " + std::to_string(handle) +
                                                      "; load it with loadGraph first",
                                                  {}, "", {}, {}}});
}

std::string load_graph(const std::string& graph) {
  return fusion::api::detail::guard([&] {
    fusion::Expected<fusion::FusionGraph> read = fusion::read_graph_json(graph);
    if (!read) return fusion::write_errors_json(read.errors());
    const int handle = next_handle++;
    const std::size_t ops = read->size();
    loaded_graphs().emplace(handle, std::move(read).value());
    return "{\"ok\":true,\"handle\":" + std::to_string(handle) + ",\"ops\":" + std::to_string(ops) + "}";
  });
}

#ifdef FUSION_WASM_PLAN_ONLY
// The JavaScript layer's code for a function a module lacks (docs/design.md §3), in the facade's error shape.
std::string not_in_module(const std::string& message, const std::string& path) {
  const nlohmann::json error = {{"code", "not_in_module"}, {"message", message}, {"path", path}};
  return nlohmann::json{{"ok", false}, {"error", error}, {"errors", nlohmann::json::array({error})}}.dump();
}

// The plan-only module has no reference evaluator (plan_only_numerics.cpp): options that ask for one (numerics
// true, or an object without "evaluate": false, docs/design.md §18) get not_in_module at /numerics. Options that
// do not parse are left to the planner's own error.
std::string evaluator_refusal(const std::string& options) {
  const nlohmann::json parsed = nlohmann::json::parse(options, nullptr, false);
  if (!parsed.is_object() || !parsed.contains("numerics")) return {};
  const nlohmann::json& numerics = parsed["numerics"];
  bool evaluates = numerics.is_boolean() && numerics.get<bool>();
  if (numerics.is_object()) {  // a non-boolean "evaluate" is left to the planner's invalid_options
    const auto evaluate = numerics.find("evaluate");
    evaluates = evaluate == numerics.end() || (evaluate->is_boolean() && evaluate->get<bool>());
  }
  if (!evaluates) return {};
  return not_in_module("the reference evaluator (numerics) is not in the WASM module fusion_plan, which only plans; "
                       "load wasm/fusion.mjs (fusion_core) for it, or pass numerics {\"evaluate\": false} for the "
                       "notes alone",
                       "/numerics");
}

// Nor plan search (plan_only_search.cpp): options whose search mode is optimal get not_in_module at /search.
std::string search_refusal(const std::string& options) {
  const nlohmann::json parsed = nlohmann::json::parse(options, nullptr, false);
  if (!parsed.is_object() || !parsed.contains("search")) return {};
  const nlohmann::json& search = parsed["search"];
  const bool optimal = search == "optimal" || (search.is_object() && search.contains("mode") && search["mode"] == "optimal");
  if (!optimal) return {};
  return not_in_module("plan search is not in the WASM module fusion_plan, which only plans greedily; load "
                       "wasm/fusion.mjs (fusion_core) for it",
                       "/search");
}
std::string plan_only_refusal(const std::string& options) {
  if (std::string refusal = evaluator_refusal(options); !refusal.empty()) return refusal;
  return search_refusal(options);
}
#else
std::string plan_only_refusal(const std::string&) { return {}; }
#endif

std::string plan_loaded(int handle, const std::string& options) {
  if (std::string refusal = plan_only_refusal(options); !refusal.empty()) return refusal;
  const auto it = loaded_graphs().find(handle);
  return it == loaded_graphs().end() ? unknown_handle(handle) : fusion::api::plan_parsed(it->second, options);
}

#ifndef FUSION_WASM_PLAN_ONLY
std::string sweep_loaded(int handle, const std::string& options, const std::string& spec) {
  const auto it = loaded_graphs().find(handle);
  return it == loaded_graphs().end() ? unknown_handle(handle) : fusion::api::sweep_parsed(it->second, options, spec);
}

std::string code_loaded(int handle, const std::string& options, const std::string& request) {
  const auto it = loaded_graphs().find(handle);
  return it == loaded_graphs().end() ? unknown_handle(handle) : fusion::api::code_parsed(it->second, options, request);
}

std::string code(const std::string& graph, const std::string& options, const std::string& request) {
  return fusion::api::code(graph, options, request);
}

std::string sweep(const std::string& graph, const std::string& options, const std::string& spec) {
  return fusion::api::sweep(graph, options, spec);
}

std::string validate(const std::string& graph) { return fusion::api::validate(graph); }

std::string verify(const std::string& graph, const std::string& options, const std::string& plan_json) {
  return fusion::api::verify(graph, options, plan_json);
}
#endif

void unload_graph(int handle) { loaded_graphs().erase(handle); }


// embind passes std::string; fusion::api takes std::string_view.
std::string plan(const std::string& graph, const std::string& options) {
  if (std::string refusal = plan_only_refusal(options); !refusal.empty()) return refusal;
  return fusion::api::plan(graph, options);
}

}  // namespace

EMSCRIPTEN_BINDINGS(fusion) {
  emscripten::function("plan", &plan);
  emscripten::function("loadGraph", &load_graph);
  emscripten::function("planLoaded", &plan_loaded);
  emscripten::function("unloadGraph", &unload_graph);
#ifndef FUSION_WASM_PLAN_ONLY
  emscripten::function("validate", &validate);
  emscripten::function("verify", &verify);
  emscripten::function("sweep", &sweep);
  emscripten::function("sweepLoaded", &sweep_loaded);
  emscripten::function("code", &code);
  emscripten::function("codeLoaded", &code_loaded);
#endif
  emscripten::function("version", &fusion::api::version);
  emscripten::function("catalog", &fusion::api::catalog);
}
