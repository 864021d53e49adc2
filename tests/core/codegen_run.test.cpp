// codegen_run.test.cpp — the emitted C (fusion/codegen.h, docs/design.md §19) compiled with `cc -O2 -std=c11 -lm`
// alone and run: the gallery graphs under every preset, small conv/pool/row-op graphs, odd element sizes, a
// bf16/f8 graph, seeded random graphs, and every element type's storage helpers against numerics' round_to. Each program must compile without a diagnostic, exit 0, print one comparison per graph
// output and the timing lines; every output that no §18 `rounding` note reaches must agree exactly between the
// fused and unfused versions (the same operations in the same types; cc_run.h exact_ops), the others differ by
// design and are reported, not bounded. Integer and f64 graphs are checked against the evaluator's arithmetic.
// No timing is asserted. CODEGEN_RUN_GRAPHS=N runs N random graphs instead of 40 (for a long one-off check).
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "cc_run.h"
#include "codegen/storage_c.h"
#include "fusion/codegen.h"
#include "fusion/dims.h"
#include "fusion/numerics.h"
#include "fusion/strategy.h"
#include "numerics/elementwise.h"
#include "random_graphs.h"
#include "test_graphs.h"
#include "test_scale.h"

using namespace fusion;
using namespace fusion::testing;
namespace fs = std::filesystem;

namespace {

// Emits, compiles and runs the plan's program and checks what it prints; returns its comparison lines.
std::vector<std::string> check_program(const std::string& name, const FusionGraph& g, const FusionPlan& plan) {
  INFO("program " << name);
  const Run run = compile_and_run(name, emit_program(g, plan, {CodeDialect::c, 7, 1}));
  REQUIRE_MESSAGE(run.compile_errors.empty(), run.compile_errors);
  REQUIRE(run.status == 0);
  std::istringstream lines(run.output);
  std::string line;
  std::vector<std::string> outputs;
  bool timing = false;
  const std::vector<bool> exact = exact_ops(g, plan);
  while (std::getline(lines, line)) {
    if (line.rfind("speedup measured ", 0) == 0) timing = true;
    const OpId x = output_line_op(line);
    if (x < 0) continue;
    outputs.push_back(line);
    REQUIRE(static_cast<std::size_t>(x) < g.size());
    if (exact[static_cast<std::size_t>(x)]) CHECK_MESSAGE(exact_line(line), line);
  }
  CHECK(outputs.size() == graph_outputs(g).size());
  CHECK(timing);
  return outputs;
}

// The gallery's fixed shapes run for seconds as plain C, unfused and fused (multi-consumer's 2048x1024x1024
// matmul, elementwise-chain's 16M elements): every dimension above 64 becomes 64 when the graph stays valid that way
// (equal dimensions stay equal and broadcasts stay broadcasts; a reshape's element counts would not, so such a graph
// keeps its shapes). Each program then runs in milliseconds and still computes every op.
FusionGraph small_shapes(const FusionGraph& g) {
  std::vector<FusionOp> ops = g.ops();
  for (FusionOp& op : ops) {
    for (std::int64_t& d : op.shape) d = std::min<std::int64_t>(d, 64);
    op.dim_names.clear();  // the names' bound values no longer hold
  }
  FusionGraph small = FusionGraph::from_ops(std::move(ops));
  return validate(small).empty() ? small : g;
}

FusionGraph as_f32(const FusionGraph& g) {
  std::vector<FusionOp> ops = g.ops();
  for (FusionOp& op : ops) {
    op.dtype_bytes = 4;
    op.dtype = "f32";
  }
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

// Every element type numerics knows, as an op naming it.
std::vector<FusionOp> typed_ops() {
  std::vector<FusionOp> ops;
  for (const char* name : {"f64", "f32", "f16", "bf16", "f8", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "bool"}) {
    FusionOp op;
    op.dtype = name;
    op.dtype_bytes = codegen::type_bytes(numeric_type(op));
    ops.push_back(op);
  }
  return ops;
}

// Values to round: specials, each format's edges and ties, and seeded random bit patterns and magnitudes.
std::vector<float> rounding_values() {
  std::vector<float> v = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1.0625f, 1.1875f, 448.0f, 449.0f, 464.0f, 465.0f, 480.0f,
                          -464.0f, 1e6f, -1e6f, 65504.0f, 65519.0f, 65520.0f, 3.4e38f, INFINITY, -INFINITY, NAN,
                          1e-8f, 0x1p-9f, 0x1p-10f, 0x3p-11f, 0x1.8p-7f, 5.9604645e-8f, 2.9802322e-8f, 127.5f, 128.0f,
                          -128.5f, -129.0f, 255.9f, 256.0f, -0.7f, 2147483647.0f, 3e9f, -3e9f, 1e19f, 2e19f, -1e19f,
                          1.00390625f, 1.01171875f, 0x1.0101p0f, 65535.9f, 65536.0f, 32767.9f, -32768.9f};
  std::mt19937 rng(18);
  for (int i = 0; i < 3000; ++i) {
    const std::uint32_t bits = static_cast<std::uint32_t>(rng());
    float f = 0.0f;
    std::memcpy(&f, &bits, sizeof f);
    v.push_back(f);
  }
  std::uniform_real_distribution<float> wide(-600.0f, 600.0f), narrow(-0.05f, 0.05f);
  for (int i = 0; i < 3000; ++i) v.push_back(i % 2 ? wide(rng) : narrow(rng));
  return v;
}

// A C program around the storage helpers: for each type and value, ld(st(value)) as a hex float.
std::string rounding_program(const std::vector<FusionOp>& ops, const std::vector<float>& values) {
  codegen::StorageSet storages;
  for (const FusionOp& op : ops) storages.emplace(codegen::storage_of(op).name, codegen::storage_of(op));
  std::string c = "#include <math.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n";
  c += codegen::storage_helpers_c(storages);
  c += "static const float v[] = {\n";
  for (float f : values) {
    char text[64];
    if (std::isnan(f)) std::snprintf(text, sizeof text, "NAN");
    else if (std::isinf(f)) std::snprintf(text, sizeof text, "%sINFINITY", f < 0 ? "-" : "");
    else std::snprintf(text, sizeof text, "%af", static_cast<double>(f));
    c += std::string("  ") + text + ",\n";
  }
  c += "};\nint main(void) {\n  for (size_t i = 0; i < sizeof v / sizeof v[0]; ++i) {\n";
  for (const FusionOp& op : ops) {
    const std::string n = codegen::storage_of(op).name;
    // A float type's register is the float (or double) value; an integer's or bool's is cv_T of it.
    const std::string reg = is_float(numeric_type(op)) ? "v[i]" : "cv_" + n + "(v[i])";
    c += "    printf(\"%a\\n\", (double)ld_" + n + "(st_" + n + "(" + reg + ")));\n";
  }
  c += "    printf(\"%u %u\\n\", (unsigned)st_f16(v[i]), (unsigned)st_bf16(v[i]));\n  }\n  return 0;\n}\n";
  return c;
}

bool same_value(double a, double b) { return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b)); }

// The driver's seeded data in [-1, 1) (emit_c_program.cpp's rnd), for checking values a program computed.
float driver_rnd(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed * 0x9e3779b97f4a7c15ull + i + 1u;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return static_cast<float>(static_cast<std::int64_t>(z >> 40) - (1 << 23)) / static_cast<float>(1 << 23);
}

// Runs the plan's program (seed 7, prefix `v_`), whose outputs must all agree exactly, then prints elements
// 0..n-1 of the named buffers (`s0` a source, `u6` unfused, `f6` fused: docs/design.md §19), each with the printf
// conversion given; returns the rows as numbers.
std::vector<std::vector<double>> buffer_rows(const std::string& name, const FusionGraph& g, const FusionPlan& plan,
                                             const std::vector<std::string>& buffers, const std::string& conversion,
                                             int n) {
  std::string code = emit_program(g, plan, {CodeDialect::c, 7, 1, "v_"});
  code += "int main(void) {\n  v_main();\n  for (int i = 0; i < " + std::to_string(n) + "; ++i)\n    printf(\"rows";
  for (std::size_t k = 0; k < buffers.size(); ++k) code += " " + conversion;
  code += "\\n\"";
  for (const std::string& b : buffers) code += conversion == "%lld" ? ", (long long)v_" + b + "[i]" : ", (double)v_" + b + "[i]";
  code += ");\n  return 0;\n}\n";
  const Run run = compile_and_run(name, code);
  REQUIRE_MESSAGE(run.compile_errors.empty(), run.compile_errors);
  REQUIRE(run.status == 0);
  std::istringstream lines(run.output);
  std::string line, word;
  std::vector<std::vector<double>> rows;
  while (std::getline(lines, line)) {
    if (output_line_op(line) >= 0) CHECK_MESSAGE(exact_line(line), line);
    if (line.rfind("rows ", 0) != 0) continue;
    std::istringstream in(line.substr(5));
    rows.emplace_back();
    while (in >> word) rows.back().push_back(std::strtod(word.c_str(), nullptr));
    REQUIRE(rows.back().size() == buffers.size());
  }
  return rows;
}

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
      const FusionGraph g = small_shapes(*bind_dims(read, dims));
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

  TEST_CASE("every element type's C storage rounds as the numerics module does") {
    const std::vector<FusionOp> ops = typed_ops();
    const std::vector<float> values = rounding_values();
    const Run run = compile_and_run("rounding", rounding_program(ops, values));
    REQUIRE_MESSAGE(run.compile_errors.empty(), run.compile_errors);
    REQUIRE(run.status == 0);
    std::istringstream lines(run.output);
    std::string line;
    std::size_t checked = 0;
    for (float x : values) {
      for (const FusionOp& op : ops) {
        REQUIRE(std::getline(lines, line));
        const double c = std::strtod(line.c_str(), nullptr);
        // A float type reads back as its register (f32, or f64 holding an f32 value); an integer as itself, printed
        // as a double (a saturated i64 or u64 as the nearest one, as round_to gives it); integers have one zero.
        const bool is_f = is_float(numeric_type(op));
        const double rounded = round_to(numeric_type(op), static_cast<double>(x));
        const double expected = is_f ? static_cast<double>(static_cast<float>(rounded)) : rounded;
        INFO(op.dtype << " of " << static_cast<double>(x) << " (" << std::hexfloat << static_cast<double>(x) << "): C "
                      << line);
        if (is_f) CHECK(same_value(c, expected));
        else CHECK(c == expected);
        ++checked;
      }
      REQUIRE(std::getline(lines, line));
      if (!std::isnan(x)) {
        unsigned f16 = 0, bf16 = 0;
        REQUIRE(std::sscanf(line.c_str(), "%u %u", &f16, &bf16) == 2);
        CHECK(f16 == f16_bits(static_cast<double>(x)));
        CHECK(bf16 == bf16_bits(static_cast<double>(x)));
      }
    }
    CHECK(checked == values.size() * 14);
  }

  TEST_CASE("bf16 and f8 ops round on every store unfused and once fused; exact ops agree exactly") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [64, 64], "dtype": "bf16"},
      {"name": "y", "kind": "input", "shape": [64], "dtype": "bf16"},
      {"name": "p", "kind": "mul", "inputs": ["x", "y"], "shape": [64, 64], "dtype": "bf16"},
      {"name": "s", "kind": "add", "inputs": ["p", "x"], "shape": [64, 64], "dtype": "bf16"},
      {"name": "q", "kind": "input", "shape": [64, 64], "dtype_bytes": 1},
      {"name": "e", "kind": "exp", "inputs": ["q"], "shape": [64, 64], "dtype_bytes": 1},
      {"name": "t", "kind": "mul", "inputs": ["e", "q"], "shape": [64, 64], "dtype_bytes": 1},
      {"name": "n", "kind": "neg", "inputs": ["q"], "shape": [64, 64], "dtype": "f8"},
      {"name": "r", "kind": "relu", "inputs": ["n"], "shape": [64, 64], "dtype": "f8"},
      {"name": "a", "kind": "abs", "inputs": ["x"], "shape": [64, 64], "dtype": "bf16"},
      {"name": "m", "kind": "max", "inputs": ["a", "y"], "shape": [64, 64], "dtype": "bf16"}]})");
    const FusionPlan plan = plan_checked(g, FusionPlanner().with_strategy("inductor"));
    for (OpId x : {3, 6, 8, 10}) CHECK(plan.op_group[static_cast<std::size_t>(x)] == plan.op_group[static_cast<std::size_t>(x - 1)]);
    const std::vector<std::string> lines = check_program("bf16-f8", g, plan);
    REQUIRE(lines.size() == 4);
    CHECK(lines[0].find("'s' add [64, 64] bf16:") != std::string::npos);
    CHECK(lines[1].find("'t' mul [64, 64] f8:") != std::string::npos);
    CHECK_MESSAGE(!exact_line(lines[0]), lines[0]);  // the product's bf16 rounding is skipped when fused
    CHECK_MESSAGE(!exact_line(lines[1]), lines[1]);  // so is exp's f8 rounding
    CHECK_MESSAGE(exact_line(lines[2]), lines[2]);   // neg and relu of f8 values are f8 values
    CHECK_MESSAGE(exact_line(lines[3]), lines[3]);   // abs and max of bf16 values are bf16 values
    const std::string code = emit_program(g, plan, {CodeDialect::c, 7, 1});
    for (const char* helper : {"st_bf16(", "ld_bf16(", "st_f8(", "ld_f8(", "fill_f8(", "fill_bf16("})
      CHECK_MESSAGE(code.find(helper) != std::string::npos, helper);
    CHECK(code.find("st_f16(") == std::string::npos);
  }

  TEST_CASE("integer ops compute in their type: an int32 graph past 2^24 agrees exactly with the evaluator's values") {
    // x^8 * y + x reaches 7 * 2^24 + 7: odd values above 2^24, which no f32 register holds. Each op computes in
    // double and rounds to i32 (the evaluator's apply_elementwise and round_to), fused in one kernel or not.
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [256], "dtype": "i32"},
      {"name": "y", "kind": "input", "shape": [256], "dtype": "i32"},
      {"name": "p", "kind": "mul", "inputs": ["x", "x"], "shape": [256], "dtype": "i32"},
      {"name": "q", "kind": "mul", "inputs": ["p", "p"], "shape": [256], "dtype": "i32"},
      {"name": "r", "kind": "mul", "inputs": ["q", "q"], "shape": [256], "dtype": "i32"},
      {"name": "s", "kind": "mul", "inputs": ["r", "y"], "shape": [256], "dtype": "i32"},
      {"name": "t", "kind": "add", "inputs": ["s", "x"], "shape": [256], "dtype": "i32", "output": true},
      {"name": "d", "kind": "sub", "inputs": ["t", "s"], "shape": [256], "dtype": "i32"},
      {"name": "h", "kind": "div", "inputs": ["t", "y"], "shape": [256], "dtype": "i32"}]})");
    const FusionPlan plan = plan_checked(g, FusionPlanner().with_strategy("inductor"));
    for (std::size_t x = 3; x < g.size(); ++x) REQUIRE(plan.op_group[x] == plan.op_group[2]);  // one kernel
    const auto rows = buffer_rows("int32-exact", g, plan, {"s0", "s1", "u6", "f6", "u7", "f7", "u8", "f8"}, "%lld", 256);
    const auto eval = [](OpKind kind, double a, double b) {
      const double args[2] = {a, b};
      return round_to(NumericType::i32, numerics::apply_elementwise(kind, args, 2));
    };
    int past_f32 = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const std::vector<double>& v = rows[i];
      // The driver's sources: floor(rnd(seed + op, i) * 8), rnd as the emitted C computes it.
      const double x = std::floor(driver_rnd(7 + 0, i) * 8.0f), y = std::floor(driver_rnd(7 + 1, i) * 8.0f);
      CHECK(v[0] == x);
      CHECK(v[1] == y);
      const double p = eval(OpKind::mul, x, x), q = eval(OpKind::mul, p, p), r = eval(OpKind::mul, q, q);
      const double s = eval(OpKind::mul, r, y), t = eval(OpKind::add, s, x);
      const double expected[3] = {t, eval(OpKind::sub, t, s), eval(OpKind::div, t, y)};
      for (std::size_t k = 0; k < 3; ++k) {
        INFO("element " << i << ", op " << 6 + k);
        CHECK(v[2 + 2 * k] == expected[k]);  // unfused
        CHECK(v[3 + 2 * k] == expected[k]);  // fused
      }
      past_f32 += std::fabs(t) > 16777216.0 && static_cast<double>(static_cast<float>(t)) != t;
    }
    CHECK(rows.size() == 256);
    CHECK(past_f32 > 0);  // some values are beyond what an f32 register could have held
  }

  TEST_CASE("an f64 graph keeps f64 precision, fused and unfused alike") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [64], "dtype": "f64"},
      {"name": "y", "kind": "input", "shape": [64], "dtype": "f64"},
      {"name": "a", "kind": "div", "inputs": ["x", "y"], "shape": [64], "dtype": "f64"},
      {"name": "b", "kind": "mul", "inputs": ["a", "x"], "shape": [64], "dtype": "f64"},
      {"name": "c", "kind": "add", "inputs": ["b", "y"], "shape": [64], "dtype": "f64"}]})");
    const FusionPlan plan = plan_checked(g, FusionPlanner().with_strategy("inductor"));
    const auto rows = buffer_rows("f64-precision", g, plan, {"s0", "s1", "u4", "f4"}, "%a", 64);
    int beyond_f32 = 0;
    for (const std::vector<double>& v : rows) {
      const double expected = v[0] / v[1] * v[0] + v[1];  // double arithmetic, the evaluator's for f64
      CHECK(v[2] == expected);
      CHECK(v[3] == expected);
      beyond_f32 += static_cast<double>(static_cast<float>(expected)) != expected;
    }
    CHECK(rows.size() == 64);
    CHECK(beyond_f32 > 0);
  }

  TEST_CASE("relu, max, min and clamp keep a NaN as the evaluator does, fused and unfused") {
    // log of the driver's data in [-1, 1) is NaN for about half the elements; C's fmaxf/fminf would drop it.
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [128], "dtype": "f32"},
      {"name": "y", "kind": "input", "shape": [128], "dtype": "f32"},
      {"name": "lx", "kind": "log", "inputs": ["x"], "shape": [128], "dtype": "f32", "output": true},
      {"name": "r", "kind": "relu", "inputs": ["lx"], "shape": [128], "dtype": "f32"},
      {"name": "m", "kind": "max", "inputs": ["lx", "y"], "shape": [128], "dtype": "f32"},
      {"name": "n", "kind": "min", "inputs": ["y", "lx"], "shape": [128], "dtype": "f32"},
      {"name": "c", "kind": "clamp", "inputs": ["lx", "y"], "shape": [128], "dtype": "f32"},
      {"name": "b", "kind": "clamp", "inputs": ["lx"], "shape": [128], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g, FusionPlanner().with_strategy("inductor"));
    for (std::size_t x = 3; x < g.size(); ++x) REQUIRE(plan.op_group[x] == plan.op_group[2]);  // one kernel
    const auto rows = buffer_rows("nan-kinds", g, plan,
                                  {"s1", "u2", "u3", "f3", "u4", "f4", "u5", "f5", "u6", "f6", "u7", "f7"}, "%a", 128);
    const auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
    const auto eval = [](OpKind kind, std::vector<double> args) {
      return numerics::apply_elementwise(kind, args.data(), args.size());
    };
    int nan_inputs = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const std::vector<double>& v = rows[i];
      const double y = v[0], lx = v[1];
      nan_inputs += std::isnan(lx);
      const double expected[5] = {eval(OpKind::relu, {lx}), eval(OpKind::max, {lx, y}), eval(OpKind::min, {y, lx}),
                                  eval(OpKind::clamp, {lx, y}), eval(OpKind::clamp, {lx})};
      for (std::size_t k = 0; k < 5; ++k) {
        INFO("element " << i << ", op " << 3 + k << ": log " << lx << ", y " << y);
        CHECK(same(v[2 + 2 * k], expected[k]));  // unfused
        CHECK(same(v[3 + 2 * k], expected[k]));  // fused
      }
    }
    CHECK(rows.size() == 128);
    CHECK(nan_inputs > 10);
  }

  TEST_CASE("seeded random graphs under random presets") {
    int graphs = scaled(40);
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
