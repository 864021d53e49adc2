// codegen_run.test.cpp — the emitted C (fusion/codegen.h, docs/design.md §19) compiled with `cc -O2 -std=c11 -lm`
// alone and run: the gallery graphs under every preset, small conv/pool/row-op graphs, odd element sizes and
// seeded random graphs. Each program must compile without a diagnostic, exit 0, print one comparison per graph
// output and the timing lines; when every op is f32 or f64 the fused and unfused results must agree exactly (the
// same f32 operations in the same order; narrower dtypes differ by design and are reported, not bounded).
// No timing is asserted. CODEGEN_RUN_GRAPHS=N runs N random graphs instead of 40 (for a long one-off check).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "fusion/codegen.h"
#include "fusion/dims.h"
#include "fusion/strategy.h"
#include "random_graphs.h"
#include "test_graphs.h"

using namespace fusion;
using namespace fusion::testing;
namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Run {
  std::string compile_errors;
  int status = -1;
  std::string output;
};

Run compile_and_run(const std::string& name, const std::string& code) {
  const fs::path dir = fs::path(CODEGEN_TMP);
  fs::create_directories(dir);
  const fs::path source = dir / (name + ".c"), binary = dir / name, errors = dir / (name + ".err"),
                 output = dir / (name + ".out");
  std::ofstream(source, std::ios::binary) << code;
  Run run;
  const std::string cc = "cc -O2 -std=c11 '" + source.string() + "' -o '" + binary.string() + "' -lm 2> '" +
                         errors.string() + "'";
  if (std::system(cc.c_str()) != 0) {
    run.compile_errors = "cc failed: " + read_text(errors);
    return run;
  }
  run.compile_errors = read_text(errors);
  run.status = std::system(("'" + binary.string() + "' > '" + output.string() + "'").c_str());
  run.output = read_text(output);
  return run;
}

std::size_t graph_outputs(const FusionGraph& g) {
  std::vector<bool> read(g.size(), false);
  for (const FusionOp& op : g.ops())
    for (OpId in : op.inputs) read[static_cast<std::size_t>(in)] = true;
  std::size_t n = 0;
  for (std::size_t x = 0; x < g.size(); ++x)
    if (!g.ops()[x].inputs.empty() && (g.ops()[x].output || !read[x])) ++n;
  return n;
}

bool wide_only(const FusionGraph& g) {
  for (const FusionOp& op : g.ops())
    if (op.dtype_bytes != 4 && op.dtype_bytes != 8) return false;
  return true;
}

// Emits, compiles and runs the plan's program and checks what it prints.
void check_program(const std::string& name, const FusionGraph& g, const FusionPlan& plan) {
  INFO("program " << name);
  const Run run = compile_and_run(name, emit_program(g, plan, {CodeDialect::c, 7, 1}));
  REQUIRE_MESSAGE(run.compile_errors.empty(), run.compile_errors);
  REQUIRE(run.status == 0);
  std::istringstream lines(run.output);
  std::string line;
  std::size_t outputs = 0;
  bool timing = false;
  while (std::getline(lines, line)) {
    if (line.rfind("speedup measured ", 0) == 0) timing = true;
    if (line.rfind("output ", 0) != 0) continue;
    ++outputs;
    if (wide_only(g)) CHECK_MESSAGE(line.find(": max_abs 0 max_rel 0 rms_rel 0 nan_mismatch 0") != std::string::npos, line);
  }
  CHECK(outputs == graph_outputs(g));
  CHECK(timing);
}

FusionGraph as_f32(const FusionGraph& g) {
  std::vector<FusionOp> ops = g.ops();
  for (FusionOp& op : ops) op.dtype_bytes = 4;
  return FusionGraph::from_ops(std::move(ops));
}

const char* kConvBlock = R"({"ops": [
  {"name": "x", "kind": "input", "shape": [2, 4, 8, 8], "dtype": "f32"},
  {"name": "w", "kind": "input", "shape": [6, 4, 3, 3], "dtype": "f32"},
  {"name": "dw", "kind": "input", "shape": [6, 1, 3, 3], "dtype": "f32"},
  {"name": "s", "kind": "input", "shape": [6, 1, 1], "dtype": "f32"},
  {"name": "c1", "kind": "conv", "inputs": ["x", "w"], "shape": [2, 6, 8, 8], "dtype": "f32"},
  {"name": "bn", "kind": "batch_norm", "inputs": ["c1", "s", "s"], "shape": [2, 6, 8, 8], "dtype": "f32"},
  {"name": "r", "kind": "relu", "inputs": ["bn"], "shape": [2, 6, 8, 8], "dtype": "f32"},
  {"name": "c2", "kind": "conv", "inputs": ["r", "dw"], "shape": [2, 6, 4, 4], "dtype": "f32"},
  {"name": "mp", "kind": "max_pool", "inputs": ["r"], "shape": [2, 6, 4, 4], "dtype": "f32"},
  {"name": "sum", "kind": "add", "inputs": ["c2", "mp"], "shape": [2, 6, 4, 4], "dtype": "f32"},
  {"name": "ap", "kind": "avg_pool", "inputs": ["sum"], "shape": [2, 6, 1, 1], "dtype": "f32"},
  {"name": "flat", "kind": "reshape", "inputs": ["ap"], "shape": [2, 6], "dtype": "f32"},
  {"name": "sm", "kind": "softmax", "inputs": ["flat"], "shape": [2, 6], "dtype": "f32"},
  {"name": "ln", "kind": "layer_norm", "inputs": ["flat", "s"], "shape": [2, 6], "dtype": "f32"},
  {"name": "t", "kind": "transpose", "inputs": ["ln"], "shape": [6, 2], "dtype": "f32"},
  {"name": "cs", "kind": "cumsum", "inputs": ["t"], "shape": [6, 2], "dtype": "f32"},
  {"name": "cat", "kind": "concat", "inputs": ["sm", "sm"], "shape": [4, 6], "dtype": "f32"},
  {"name": "mx", "kind": "reduce_max", "inputs": ["cat"], "shape": [4, 1], "dtype": "f32"},
  {"name": "mn", "kind": "reduce_mean", "inputs": ["cat"], "shape": [6], "dtype": "f32"},
  {"name": "g", "kind": "gather", "inputs": ["cat", "mx"], "shape": [3], "dtype": "f32"}]})";

const char* kOddSizes = R"({"ops": [
  {"name": "x", "kind": "input", "shape": [5, 3], "dtype_bytes": 3},
  {"name": "y", "kind": "input", "shape": [3], "dtype_bytes": 16},
  {"name": "a", "kind": "mul", "inputs": ["x", "y"], "shape": [5, 3], "dtype_bytes": 6},
  {"name": "b", "kind": "tanh", "inputs": ["a"], "shape": [5, 3], "dtype_bytes": 1},
  {"name": "c", "kind": "reduce_prod", "inputs": ["b"], "shape": [5], "dtype_bytes": 2}]})";

}  // namespace

TEST_SUITE("generated C, compiled and run") {
  TEST_CASE("the gallery under every preset") {
    const fs::path examples = fs::path(PROJECT_DIR) / "examples";
    const DimValues small = {{"tokens", 64}, {"batch", 2}, {"seq", 16}};
    for (const char* file : {"attention-scores", "barrier-sandwich", "bias-relu", "broadcast", "diamond",
                             "elementwise-chain", "multi-consumer", "transformer-mlp", "models/mlp-gelu",
                             "models/bert-layer"}) {
      const FusionGraph read = graph_from(read_text(examples / (std::string(file) + ".json")));
      DimValues dims;
      for (const std::string& name : used_dim_names(read)) dims[name] = small.at(name);
      const FusionGraph g = *bind_dims(read, dims);
      for (std::string_view strategy : {"seed", "xla", "tvm", "inductor"}) {
        FusionPlanner planner = FusionPlanner().with_strategy(std::string(strategy));
        std::string name = std::string(file) + "-" + std::string(strategy);
        std::replace(name.begin(), name.end(), '/', '-');
        check_program(name, g, plan_checked(g, planner));
      }
    }
  }

  TEST_CASE("conv, pools, row ops, movement and stand-ins agree exactly in f32") {
    const FusionGraph g = graph_from(kConvBlock);
    for (std::string_view strategy : strategy_names())
      check_program("conv-block-" + std::string(strategy), g, plan_checked(g, FusionPlanner().with_strategy(std::string(strategy))));
  }

  TEST_CASE("every elementwise kind, fused into one kernel and alone, agrees exactly in f32") {
    FusionGraph g;
    const OpId x = g.add_op(OpKind::input, {}, {4, 8}, 4, "x");
    const OpId y = g.add_op(OpKind::input, {}, {8}, 4, "y");
    const OpId z = g.add_op(OpKind::input, {}, {4, 1}, 4, "z");
    std::vector<OpId> all;
    for (OpKind kind : all_op_kinds()) {
      if (!is_fusible(kind)) continue;
      FusionOp op;
      op.kind = kind;
      op.inputs = {x, y, z};
      op.shape = {4, 8};
      op.output = true;
      op.name = std::string(to_string(kind));
      all.push_back(g.add_op(std::move(op)));
    }
    g.add_op(OpKind::add, all, {4, 8}, 4, "sum");
    for (std::string_view strategy : {"seed", "inductor"})
      check_program("every-kind-" + std::string(strategy), g, plan_checked(g, FusionPlanner().with_strategy(std::string(strategy))));
  }

  TEST_CASE("element sizes outside 1, 2, 4, 8 bytes") {
    const FusionGraph g = graph_from(kOddSizes);
    check_program("odd-sizes", g, plan_checked(g, FusionPlanner().with_strategy("inductor")));
  }

  TEST_CASE("seeded random graphs under random presets") {
    int graphs = 40;
    if (const char* n = std::getenv("CODEGEN_RUN_GRAPHS")) graphs = std::max(1, std::atoi(n));
    std::mt19937_64 rng(1818);
    const auto names = strategy_names();
    for (int i = 0; i < graphs; ++i) {
      FusionGraph g = i % 2 ? random_graph(rng, 3 + static_cast<int>(rng() % 24))
                            : random_strategy_graph(rng, 3 + static_cast<int>(rng() % 24));
      if (i % 4 < 2) g = as_f32(g);
      const std::string strategy(names[rng() % names.size()]);
      FusionPlanner planner = FusionPlanner().with_strategy(strategy).with_resident_sources(i % 3 == 0);
      check_program("random-" + std::to_string(i) + "-" + strategy, g, plan_checked(g, planner));
    }
  }
}
