// bindings.cpp — the embind surface of the planner: four JSON-text functions, nothing else.
//
// Contract: plan(graphJson, optionsJson), validate(graphJson), verify(graphJson, optionsJson, planJson) and
// version() return exactly what fusion::api returns (so WASM and the native CLI agree byte for byte) and never
// throw into JavaScript: fusion::api already turns every failure into {"ok": false, "error": ...}; the catch here
// only covers what happens outside it (copying the argument and result strings), where a C++ exception would
// reach JavaScript as a bare pointer. Only value types cross: no class handles for JavaScript to .delete().
// Not here: parsing, typed errors and the builder API (wasm/fusion.mjs). Shown by tests/node/*.test.mjs.
#include <emscripten/bind.h>

#include <new>
#include <string>

#include "fusion/api.h"

namespace {

// The error text for a failure outside fusion::api. By the time a catch below runs, unwinding has freed
// whatever the failed call held, so this small copy can be made.
const char* failure_json(bool out_of_memory) {
  return out_of_memory
             ? R"({"ok":false,"error":{"code":"out_of_memory","message":"the planner ran out of memory)"
               R"( (the WASM heap is capped at 1 GiB); try a smaller graph"}})"
             : R"({"ok":false,"error":{"code":"internal_error","message":"internal error in the WASM bindings"}})";
}

// Runs one api call and converts any escaping exception into the error text.
template <typename Call>
std::string guarded(Call call) {
  try {
    return call();
  } catch (const std::bad_alloc&) {
    return failure_json(true);
  } catch (...) {
    return failure_json(false);
  }
}

std::string plan(const std::string& graph, const std::string& options) {
  return guarded([&] { return fusion::api::plan(graph, options); });
}

std::string validate(const std::string& graph) {
  return guarded([&] { return fusion::api::validate(graph); });
}

std::string verify(const std::string& graph, const std::string& options, const std::string& plan_json) {
  return guarded([&] { return fusion::api::verify(graph, options, plan_json); });
}

std::string version() {
  return guarded([] { return fusion::api::version(); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(fusion) {
  emscripten::function("plan", &plan);
  emscripten::function("validate", &validate);
  emscripten::function("verify", &verify);
  emscripten::function("version", &version);
}
