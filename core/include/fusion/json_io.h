// fusion/json_io.h — the JSON formats of docs/design.md (§2 graph, §9 options, §10 plan, §3 errors), read and
// written with nlohmann/json.
//
// Reading never throws: every problem comes back as an Error with a code, a message saying what to
// fix, the op index and a JSON pointer path; syntax errors carry line and column. A graph may list its
// ops in any order and name inputs by index or by name; `dtype` or `dtype_bytes` gives the element
// size. read_graph_json checks the document (types, fields, kinds, dtypes, dimensions, input
// references); the graph-level checks (cycles, duplicate names, byte totals) are validate()'s, which
// FusionPlanner::plan runs, so a graph is validated once on its way to a plan.
// Writing is deterministic: the same plan gives the same bytes on every platform (native and WASM).
// Shown by tests/core/json_io.test.cpp and tests/core/errors.test.cpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fusion/error.h"
#include "fusion/graph.h"
#include "fusion/plan.h"
#include "fusion/sweep.h"
#include "fusion/verify.h"

namespace fusion {

// Op names longer than this are refused (invalid_name): they are labels, not data.
inline constexpr std::size_t kMaxNameBytes = 4096;

Expected<FusionGraph> read_graph_json(std::string_view text);

// {"broadcast": bool, "resident_sources": bool, "strategy": string}; empty text gives the defaults.
Expected<PlannerOptions> read_options_json(std::string_view text);

// A plan in the output format, for the verifier. Checks types and shape of the document, not meaning.
Expected<FusionPlan> read_plan_json(std::string_view text);

// Bytes per element of a dtype name ("f32" -> 4), or nullopt.
std::optional<std::int64_t> dtype_size(std::string_view dtype);

// {"dim": "N", "from": 1, "to": 4096, "step": 0} (docs/design.md §16); errors are invalid_options at /sweep/...
Expected<SweepSpec> read_sweep_json(std::string_view text);

std::string write_plan_json(const FusionPlan& plan);
// {"ok":true,"dim":"N","rows":[{"value",...,"changed","change_at"?}],"changes":[{"at","kernels_before","kernels_after"}]}
std::string write_sweep_json(const SweepResult& result);
// Just the rows, as a JSON list (the CLI's --sweep output); a changed row carries its change_at.
std::string write_sweep_rows_json(const SweepResult& result);
// A rule table as JSON, as it appears under "options"/"rules" in a plan: the rules the strategy accepts
// (docs/strategies.md).
std::string write_rules_json(const StrategyRules& rules, std::string_view strategy);
std::string write_errors_json(const std::vector<Error>& errors);
std::string write_violations_json(const std::vector<Violation>& violations);

}  // namespace fusion
