// codegen_run_batch.test.cpp — the emitted C of thousands of seeded random graphs (docs/design.md §19), compiled
// and run: every elementwise kind, broadcasts, reductions and barriers, every element type numerics knows (one
// type for a whole graph, or one per op), the strategy test graphs, every preset's plans. Many programs go into
// one translation unit (CodegenOptions::prefix `g17_`: each graph's names apart, the shared helpers once), so a
// few `cc -O0` runs (two at a time) compile them all; a `main` here calls each graph's driver. Per graph: every output line is
// there, an output no §18 `rounding` note reaches agrees exactly between the fused and unfused versions
// (cc_run.h exact_ops), and the byte comments of the whole program sum to the plan's bytes_fused plus its
// bytes_unfused. CODEGEN_BATCH_GRAPHS=N runs N graphs instead of 2,000 (divided by FUSION_TEST_SCALE).
#include <algorithm>
#include <random>
#include <sstream>

#include "cc_run.h"
#include "codegen/semantics.h"
#include "fusion/codegen.h"
#include "fusion/numerics.h"
#include "fusion/strategy.h"
#include "numerics/elementwise.h"
#include "random_graphs.h"
#include "test_graphs.h"
#include "test_scale.h"

using namespace fusion;
using namespace fusion::testing;

namespace {

constexpr const char* kTypes[] = {"f64", "f32", "f16", "bf16", "f8", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "bool"};

std::vector<OpKind> kinds_of(OpCategory wanted) {
  std::vector<OpKind> out;
  for (OpKind k : all_op_kinds())
    if (category(k) == wanted) out.push_back(k);
  return out;
}

// A graph of `ops` ops: elementwise kinds taken in turn from `next_kind` (so a run of graphs holds every kind),
// with inputs of broadcastable (sometimes clashing) shapes, reductions to a smaller shape, other barriers; one
// element type for the graph when `type` names one, else one per op.
FusionGraph mixed_graph(std::mt19937_64& rng, int ops, const char* type, std::size_t& next_kind) {
  static const std::vector<Shape> kShapes = {Shape{}, Shape{3}, Shape{1, 3}, Shape{4, 3}, Shape{4, 1},
                                             Shape{2, 4, 3}, Shape{2, 1, 3}, Shape{4}, Shape{3, 4}};
  static const std::vector<OpKind> kElementwise = kinds_of(OpCategory::elementwise);
  static const std::vector<OpKind> kBarriers = kinds_of(OpCategory::barrier);
  auto below = [&rng](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  FusionGraph g;
  for (int i = 0; i < ops; ++i) {
    FusionOp op;
    op.dtype = type ? type : kTypes[below(std::size(kTypes))];
    op.dtype_bytes = codegen::type_bytes(numeric_type(op));
    if (i < 2 || below(100) < 12) {
      op.kind = below(2) ? OpKind::input : OpKind::constant;
      op.shape = kShapes[below(kShapes.size())];
      g.add_op(std::move(op));
      continue;
    }
    std::size_t inputs = 1 + below(2);
    if (below(100) < 75) {
      op.kind = kElementwise[next_kind++ % kElementwise.size()];
      const numerics::Arity arity = *numerics::elementwise_arity(op.kind);
      inputs = arity.least + below(arity.most - arity.least + 1);
    } else {
      op.kind = kBarriers[below(kBarriers.size())];
      if (op.kind == OpKind::matmul || op.kind == OpKind::conv) inputs = 2 + below(2);
    }
    for (std::size_t k = 0; k < inputs; ++k)
      op.inputs.push_back(static_cast<OpId>(below(10) < 7 ? std::max(0, i - 1 - static_cast<int>(below(4))) : below(static_cast<std::size_t>(i))));
    const Shape& first = g.op(op.inputs.front()).shape;
    if (is_reduction_kind(op.kind) && !first.empty()) op.shape = below(2) ? Shape(first.begin(), first.end() - 1) : first;
    if (is_reduction_kind(op.kind) && !op.shape.empty() && op.shape.size() == first.size()) op.shape.back() = 1;
    if (!is_reduction_kind(op.kind) || first.empty()) op.shape = below(10) < 6 ? first : kShapes[below(kShapes.size())];
    op.output = below(15) == 0;
    g.add_op(std::move(op));
  }
  return g;
}

struct Case {
  FusionGraph graph;
  FusionPlan plan;
  std::string strategy;
};

Case make_case(std::mt19937_64& rng, int index, std::size_t& next_kind) {
  const auto names = strategy_names();
  const int ops = 3 + static_cast<int>(rng() % 22);
  FusionGraph g;
  switch (index % 4) {
    case 0: g = mixed_graph(rng, ops, kTypes[(index / 4) % std::size(kTypes)], next_kind); break;
    case 1: g = mixed_graph(rng, ops, nullptr, next_kind); break;
    case 2: g = random_graph(rng, ops); break;
    default: g = random_strategy_graph(rng, ops); break;
  }
  Case c{std::move(g), {}, std::string(names[static_cast<std::size_t>(index) % names.size()])};
  const FusionPlanner planner = FusionPlanner().with_strategy(c.strategy).with_resident_sources(index % 5 == 0);
  c.plan = plan_checked(c.graph, planner);
  return c;
}

std::string prefix(int index) { return "g" + std::to_string(index) + "_"; }

// One batch's translation unit: each graph's program under its prefix, then a main calling each driver. Checks
// the byte comments of each program: its fused kernels sum to bytes_fused, its unfused ones to bytes_unfused less
// the sources' writes (the driver fills the sources once, for both versions).
std::string batch_code(const std::vector<Case>& cases, int first) {
  std::string code;
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const Case& c = cases[k];
    const int index = first + static_cast<int>(k);
    const std::string program = emit_program(c.graph, c.plan, {CodeDialect::c, 7, 1, prefix(index)});
    std::uint64_t source_writes = 0;
    if (!c.plan.options.resident_sources)
      for (const FusionOp& op : c.graph.ops())
        if (op.inputs.empty()) source_writes += tensor_bytes(op.shape, op.dtype_bytes).value_or(0);
    const AnnotatedBytes bytes = annotated_bytes(program);
    INFO("graph " << index << " under " << c.strategy);
    CHECK(bytes.loaded + bytes.stored + source_writes == c.plan.bytes_fused + c.plan.bytes_unfused);
    code += program;
  }
  code += "\nint main(void) {\n";
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const int index = first + static_cast<int>(k);
    code += "  printf(\"graph " + std::to_string(index) + "\\n\");\n  " + prefix(index) + "main();\n";
  }
  return code + "  return 0;\n}\n";
}

// Checks each graph's section of a batch's output.
void check_batch(const std::vector<Case>& cases, int first, const std::string& name, const Run& run) {
  INFO("batch " << name << ".c");
  REQUIRE_MESSAGE(run.compile_errors.empty(), run.compile_errors.substr(0, 4000));
  REQUIRE(run.status == 0);
  std::istringstream lines(run.output);
  std::string line;
  int current = -1;
  std::vector<std::vector<std::string>> seen(cases.size());
  while (std::getline(lines, line)) {
    if (line.rfind("graph ", 0) == 0) current = std::atoi(line.c_str() + 6) - first;
    else if (output_line_op(line) >= 0 && current >= 0 && current < static_cast<int>(cases.size()))
      seen[static_cast<std::size_t>(current)].push_back(line);
  }
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const Case& c = cases[k];
    INFO("graph " << first + static_cast<int>(k) << " under " << c.strategy);
    const std::vector<OpId> outputs = graph_outputs(c.graph);
    const std::vector<bool> exact = exact_ops(c.graph, c.plan);
    REQUIRE(seen[k].size() == outputs.size());
    for (std::size_t o = 0; o < outputs.size(); ++o) {
      CHECK(output_line_op(seen[k][o]) == outputs[o]);
      if (exact[static_cast<std::size_t>(outputs[o])]) CHECK_MESSAGE(exact_line(seen[k][o]), seen[k][o]);
    }
  }
}

}  // namespace

TEST_CASE("thousands of random graphs' C, many to a translation unit, agree fused and unfused") {
  int graphs = 2000;
  if (const char* n = std::getenv("CODEGEN_BATCH_GRAPHS")) graphs = std::max(1, std::atoi(n));
  graphs = scaled(graphs);
  const int batch = 250;
  std::mt19937_64 rng(1819);
  std::size_t next_kind = 0;
  std::vector<std::vector<Case>> batches;
  std::vector<std::pair<std::string, std::string>> programs;
  for (int first = 0; first < graphs; first += batch) {
    std::vector<Case> cases;
    for (int i = first; i < std::min(graphs, first + batch); ++i) cases.push_back(make_case(rng, i, next_kind));
    programs.emplace_back("batch-" + std::to_string(first / batch), batch_code(cases, first));
    batches.push_back(std::move(cases));
  }
  // -O0: the C semantics checked here (IEEE operations, no contraction, no reassociation) are the same at every
  // level, and it compiles four times faster than -O1; codegen_run compiles its programs with -O2.
  const std::vector<Run> runs = compile_and_run_all(programs, "-O0", 2);
  for (std::size_t b = 0; b < batches.size(); ++b)
    check_batch(batches[b], static_cast<int>(b) * batch, programs[b].first, runs[b]);
}
