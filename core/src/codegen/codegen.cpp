// codegen/codegen.cpp — the public entry points of fusion/codegen.h: pick the dialect, build the kernels, and
// read the byte annotations back.
#include "fusion/codegen.h"

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

// Every "load N B" / "store N B" (N decimal digits) in the text, summed.
AnnotatedBytes annotated_bytes(std::string_view code) {
  AnnotatedBytes sum;
  for (std::size_t at = 0; at < code.size();) {
    const std::size_t load = code.find("load ", at), store = code.find("store ", at);
    const std::size_t hit = std::min(load, store);
    if (hit == std::string_view::npos) break;
    const bool is_load = hit == load;
    std::size_t p = hit + (is_load ? 5 : 6), digits = p;
    std::uint64_t value = 0;
    while (digits < code.size() && code[digits] >= '0' && code[digits] <= '9')
      value = value * 10 + static_cast<std::uint64_t>(code[digits++] - '0');
    const bool word_start = hit == 0 || code[hit - 1] == ' ';
    if (word_start && digits > p && code.substr(digits, 2) == " B") (is_load ? sum.loaded : sum.stored) += value;
    at = digits > p ? digits : p;
  }
  return sum;
}

}  // namespace fusion
