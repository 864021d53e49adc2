// fusion/codegen.h — the code a plan stands for: one kernel per group, in C (to compile, run and time) or in a
// Triton-style dialect (to read). docs/design.md §19.
//
// Inputs: a graph whose named dimensions are bound (the graph the plan was made for: `bind_dims` with the plan's
// options, fusion/dims.h) and a plan of it that passes the verifier's other checks (the planner's plans always do).
// Outputs: text. Every line that moves memory carries a comment `load N B: ...` or `store N B: ...`; for each group,
// the loads sum to its `bytes_read` and the stores to its `bytes_written` (a tensor read again in the same kernel is
// annotated `load 0 B`; values kept on chip are annotated as scratch, never as loads or stores). The verifier
// (core/src/verify/code.cpp) re-emits every group and checks those sums, so the annotations cannot drift from the
// byte model.
//
// `emit_program` with the C dialect gives one C11 translation unit that compiles with `cc -O2 -std=c11 -lm` alone:
// fills the graph's sources with seeded random data, runs the unfused version (one function per op) and the fused
// version (one function per group), prints per graph output the largest absolute and relative difference, and the
// best-of-`runs` time of each version beside the byte model's figures. Values are computed in their op's compute
// type as the numerics evaluator computes them (float for f32/f16/bf16/f8, double for f64, integer and bool ops in
// double rounded to their type after every op) and stored rounded to their element type (§19). Op names appear only in comments, reduced to safe
// characters; identifiers are made from op ids, so no name can inject code. Linear in the graph's size.
// What it does not do: tile, vectorise by hand, or model a GPU; barrier kinds whose semantics the graph does not
// carry (gather, sort, opaque, ...) compute a documented stand-in. Shown by tests/core/codegen.test.cpp and
// tests/core/codegen_run.test.cpp (the C compiled and run).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fusion/graph.h"
#include "fusion/plan.h"

namespace fusion {

enum class CodeDialect { c, triton };

// "c" or "triton"; nullopt for anything else.
std::optional<CodeDialect> parse_code_dialect(std::string_view name);

struct CodegenOptions {
  CodeDialect dialect = CodeDialect::c;
  std::uint64_t seed = 1;  // the driver's random data
  int runs = 5;            // timed runs per version; the driver prints the best
  // C only: put before every file-scope name the program defines for its graph (buffers, kernels, the seed, the
  // driver's functions; `main` becomes PREFIX main), so several programs concatenate into one translation unit
  // (their shared helpers are guarded by macros) and a caller's `main` runs each `PREFIXmain()`. Characters
  // outside [A-Za-z0-9_] become '_' (and a leading digit gets a '_' before it). Empty: a standalone program.
  std::string prefix;
};

// The whole program: for C a translation unit with a driver; for triton every kernel of the plan.
std::string emit_program(const FusionGraph& graph, const FusionPlan& plan, const CodegenOptions& options = {});

// One group's kernel alone (the page's code view). Precondition: 0 <= group < plan.groups.size().
std::string emit_group_code(const FusionGraph& graph, const FusionPlan& plan, std::int32_t group,
                            CodeDialect dialect);

// The bytes annotated in a text: the sums of every `load N B` and `store N B` comment.
struct AnnotatedBytes {
  std::uint64_t loaded = 0;
  std::uint64_t stored = 0;
};
AnnotatedBytes annotated_bytes(std::string_view code);

// Each annotated line: its number (1-based), load or store, the op it names (`op N` after the bytes; -1 when
// none) and its bytes. For the page, which links these lines to the graph.
struct AnnotatedLine {
  std::int64_t line = 0;
  bool store = false;
  OpId op = -1;
  std::uint64_t bytes = 0;
};
std::vector<AnnotatedLine> annotated_lines(std::string_view code);

}  // namespace fusion
