// fusion/api.h — the string-in, string-out facade over the planner.
//
// Contract: every function takes JSON text and returns JSON text, and never throws. Success is
// {"ok": true, ...}; failure is {"ok": false, "error": {"code", "message", "op"?, "path"?, "line"?,
// "column"?}, "errors": [...]} where "errors" lists every problem found (the first is "error").
// Two kinds of failure, told apart by code:
//  - user errors: the stable ErrorCode strings of fusion/error.h (the input is wrong; the message says how
//    to fix it);
//  - failures that are not the caller's mistake, kFailureCodes, whose error object also carries
//    "internal": true: "out_of_memory", and "internal_error" (a bug: a broken invariant, reported with
//    "invariant" and "where", e.g. "core/src/planner.cpp:123").
// catalog() lists both sets. The contract: docs/design.md §3 (errors) and §13 (this facade).
//
// This is the surface the CLI and the WASM module share, so their output is identical byte for byte.
// Shown by tests/core/api.test.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "fusion/graph.h"

namespace fusion::api {

// The codes of failures that are not the caller's mistake (never an ErrorCode).
inline constexpr std::array<std::string_view, 2> kFailureCodes = {"out_of_memory", "internal_error"};

// Texts longer than this are refused with input_too_large before any parsing (a 1,000,000-op graph is
// about 60 MiB of JSON).
inline constexpr std::size_t kMaxTextBytes = std::size_t{256} << 20;

// Plans a graph (docs/design.md §2) under options {"broadcast", "resident_sources", "strategy",
// "hardware", "rules"} (docs/design.md §9, docs/strategies.md); an empty options text means the
// defaults. Returns the plan JSON (docs/design.md §10).
std::string plan(std::string_view graph_json, std::string_view options_json);

// Validates a graph: {"ok": true, "ops": N, "edges": M} or the error object.
std::string validate(std::string_view graph_json);

// Checks any plan JSON against the graph and options without trusting the planner:
// {"ok": true, "valid": bool, "violations": [{"code", "message", "group"?, "op"?}]}.
// "ok" is false only when the graph, options or plan text cannot be read at all.
std::string verify(std::string_view graph_json, std::string_view options_json, std::string_view plan_json);

// The plan across one named dimension's values (docs/design.md §16): sweep_json is {"dim": "N", "from": 1,
// "to": 4096, "step": 0} (step optional, 0 = powers of two). Returns {"ok": true, "dim", "rows": [...],
// "changes": [...]} or the error object.
std::string sweep(std::string_view graph_json, std::string_view options_json, std::string_view sweep_json);

// For callers that keep a graph read once (the WASM module's loaded graphs, docs/design.md §13): the same answers
// as plan() and sweep() for the graph read_graph_json gave, without reading its text again.
std::string plan_parsed(const FusionGraph& graph, std::string_view options_json);
std::string sweep_parsed(const FusionGraph& graph, std::string_view options_json, std::string_view sweep_json);

// The plan's generated code (docs/design.md §19): request_json is {"dialect": "c" | "triton", "group": N}
// ("group" optional: every group). Returns {"ok": true, "dialect", "groups": [{"id", "code", "bytes_read",
// "bytes_written", "lines": [{"line", "kind": "load" | "store", "op", "bytes"}]}]} (the annotated lines, for
// linking them to the graph) or the error object; a bad request is invalid_options at /dialect or /group.
std::string code(std::string_view graph_json, std::string_view options_json, std::string_view request_json);
std::string code_parsed(const FusionGraph& graph, std::string_view options_json, std::string_view request_json);

// The library version, e.g. "0.1.0".
std::string version();

// What the planner offers, for pickers, docs and the page's tables: {"strategies": [{"name", "rules":
// {...}}], "hardware": [{"name", "description", "bandwidth_bytes_per_s", "vector_flops_per_s",
// "matrix_flops_per_s", "launch_us"}], "rules": [names], "reasons": [edge reasons], "kinds": [{"name",
// "category", "aliases": [normalized names]}], "defaults": {"broadcast", "resident_sources", "strategy",
// "hardware"} (what an option left out means), "errors": {"user": [ErrorCode names], "internal":
// kFailureCodes}}. Fixed for a build.
std::string catalog();

namespace detail {
// Runs body and turns what escapes it into a failure document: std::bad_alloc -> out_of_memory,
// InternalError -> internal_error with its invariant and where, anything else -> internal_error. Every
// function above runs inside it.
std::string guard(const std::function<std::string()>& body);
}  // namespace detail

}  // namespace fusion::api
