// codegen/codegen.cpp — the public entry points of fusion/codegen.h: pick the dialect, build the kernels, and
// read the byte annotations back.
#include "fusion/codegen.h"

#include <algorithm>

#include "codegen/emit_c.h"
#include "codegen/emit_triton.h"
#include "codegen/kernel.h"
#include "detail/internal_check.h"

namespace fusion {

std::optional<CodeDialect> parse_code_dialect(std::string_view name) {
  if (name == "c") return CodeDialect::c;
  if (name == "triton") return CodeDialect::triton;
  return std::nullopt;
}

std::string emit_program(const FusionGraph& graph, const FusionPlan& plan, const CodegenOptions& options) {
  const codegen::GraphFacts facts(graph);
  FUSION_CHECK(plan.op_group.size() == graph.size(), "a plan is made for the graph it is emitted with");
  return options.dialect == CodeDialect::c ? codegen::emit_c_program(facts, plan, options)
                                           : codegen::emit_triton_program(facts, plan);
}

std::string emit_group_code(const FusionGraph& graph, const FusionPlan& plan, std::int32_t group,
                            CodeDialect dialect) {
  const codegen::GraphFacts facts(graph);
  FUSION_CHECK(group >= 0 && static_cast<std::size_t>(group) < plan.groups.size(), "the group is in the plan");
  const codegen::Kernel kernel = codegen::group_kernel(facts, plan, group, codegen::read_from_memory(facts, plan));
  return dialect == CodeDialect::c ? codegen::emit_c_kernel(facts, kernel) : codegen::emit_triton_kernel(facts, kernel);
}

namespace {

// The next annotation at or after `at`: "load N B" or "store N B" starting a word; npos when none.
struct Annotation {
  std::size_t at = std::string_view::npos;  // where its word starts
  std::size_t end = 0;                      // just after " B"
  bool store = false;
  std::uint64_t bytes = 0;
};

Annotation next_annotation(std::string_view code, std::size_t at) {
  while (at < code.size()) {
    const std::size_t load = code.find("load ", at), store = code.find("store ", at);
    const std::size_t hit = std::min(load, store);
    if (hit == std::string_view::npos) break;
    Annotation a;
    a.store = hit == store;
    const std::size_t first = hit + (a.store ? 6 : 5);
    std::size_t p = first;
    while (p < code.size() && code[p] >= '0' && code[p] <= '9' && p - first < 18)
      a.bytes = a.bytes * 10 + static_cast<std::uint64_t>(code[p++] - '0');
    const bool word = hit == 0 || code[hit - 1] == ' ';
    if (word && p > first && code.substr(p, 2) == " B") {
      a.at = hit;
      a.end = p + 2;
      return a;
    }
    at = p > first ? p : first;
  }
  return {};
}

}  // namespace

AnnotatedBytes annotated_bytes(std::string_view code) {
  AnnotatedBytes sum;
  for (Annotation a = next_annotation(code, 0); a.at != std::string_view::npos; a = next_annotation(code, a.end))
    (a.store ? sum.stored : sum.loaded) += a.bytes;
  return sum;
}

std::vector<AnnotatedLine> annotated_lines(std::string_view code) {
  std::vector<AnnotatedLine> out;
  std::int64_t number = 0;
  for (std::size_t start = 0; start < code.size();) {
    const std::size_t end = std::min(code.find('\n', start), code.size());
    const std::string_view line = code.substr(start, end - start);
    ++number;
    if (const Annotation a = next_annotation(line, 0); a.at != std::string_view::npos) {
      AnnotatedLine entry{number, a.store, -1, a.bytes};
      if (line.substr(a.end, 5) == ": op ") {
        std::size_t p = a.end + 5;
        std::int64_t op = 0;
        while (p < line.size() && line[p] >= '0' && line[p] <= '9' && op < (std::int64_t{1} << 31))
          op = op * 10 + (line[p++] - '0');
        if (p > a.end + 5 && op < (std::int64_t{1} << 31)) entry.op = static_cast<OpId>(op);
      }
      out.push_back(entry);
    }
    start = end + 1;
  }
  return out;
}

}  // namespace fusion
