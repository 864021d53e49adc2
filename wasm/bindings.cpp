// bindings.cpp — the embind surface of the planner: five JSON-text functions, nothing else.
//
// Contract: plan(graphJson, optionsJson), validate(graphJson), verify(graphJson, optionsJson, planJson),
// version() and catalog() return exactly what fusion::api returns, so WASM and the native CLI agree byte for byte.
// fusion::api never throws (every failure, out of memory included, is {"ok": false, "error": ...}); what
// can still fail outside it, such as embind copying a huge argument string into an exhausted heap, reaches
// JavaScript as an exception, which wasm/fusion-loader.mjs turns into an error value. Only value types
// cross: no class handles for JavaScript to .delete(). Not here: parsing, typed errors, the builder API
// (wasm/fusion.mjs). Shown by tests/wasm/*.test.mjs.
#include <emscripten/bind.h>

#include <string>

#include "fusion/api.h"

namespace {

// embind passes std::string; fusion::api takes std::string_view.
std::string plan(const std::string& graph, const std::string& options) {
  return fusion::api::plan(graph, options);
}

std::string validate(const std::string& graph) { return fusion::api::validate(graph); }

std::string verify(const std::string& graph, const std::string& options, const std::string& plan_json) {
  return fusion::api::verify(graph, options, plan_json);
}

}  // namespace

EMSCRIPTEN_BINDINGS(fusion) {
  emscripten::function("plan", &plan);
  emscripten::function("validate", &validate);
  emscripten::function("verify", &verify);
  emscripten::function("version", &fusion::api::version);
  emscripten::function("catalog", &fusion::api::catalog);
}
