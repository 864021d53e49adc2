// fusion/api.h — the string-in, string-out facade over the planner.
//
// Contract: every function takes JSON text and returns JSON text, and never throws. Success is
// {"ok": true, ...}; failure is {"ok": false, "error": {"code", "message", "op"?, "path"?, "line"?,
// "column"?}, "errors": [...]} where "errors" lists every problem found (the first is "error").
// Error codes are the stable strings of fusion/error.h, plus "out_of_memory" and "internal_error".
//
// This is the surface the CLI and the WASM module share, so their output is identical byte for byte.
// Shown by tests/core/api.test.cpp.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace fusion::api {

// Texts longer than this are refused with input_too_large before any parsing (a 1,000,000-op graph is
// about 60 MiB of JSON).
inline constexpr std::size_t kMaxTextBytes = std::size_t{256} << 20;

// Plans a graph (DESIGN.md section 6 format) under options {"broadcast", "resident_sources",
// "strategy", "hardware", "rules"} (docs/strategies.md); an empty options text means the defaults. Returns the plan JSON.
std::string plan(std::string_view graph_json, std::string_view options_json);

// Validates a graph: {"ok": true, "ops": N, "edges": M} or the error object.
std::string validate(std::string_view graph_json);

// Checks any plan JSON against the graph and options without trusting the planner:
// {"ok": true, "valid": bool, "violations": [{"code", "message", "group"?, "op"?}]}.
// "ok" is false only when the graph, options or plan text cannot be read at all.
std::string verify(std::string_view graph_json, std::string_view options_json, std::string_view plan_json);

// The library version, e.g. "0.1.0".
std::string version();

// What the planner offers, for pickers and docs: {"strategies": [{"name", "rules": {...}}], "hardware":
// [{"name", "description", "bandwidth_bytes_per_s", "vector_flops_per_s", "matrix_flops_per_s",
// "launch_us"}], "rules": [names], "reasons": [edge reasons]}. Fixed for a build.
std::string catalog();

}  // namespace fusion::api
