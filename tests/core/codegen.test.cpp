// codegen.test.cpp — generated code (fusion/codegen.h, docs/design.md §19): kernel structure, the index rules,
// byte annotations equal to the plan's bytes for every preset, safe names, and linear emission. Compiling and
// running the C is tests/core/codegen_run.test.cpp.
#include <random>

#include "codegen/emit_c.h"
#include "codegen/emit_triton.h"
#include "codegen/kernel.h"
#include "codegen/semantics.h"
#include "fusion/codegen.h"
#include "fusion/strategy.h"
#include "random_graphs.h"
#include "test_graphs.h"
#include "test_scale.h"

using namespace fusion;
using namespace fusion::testing;

namespace {

const char* kBiasRelu = R"({"ops": [
  {"name": "x", "kind": "input", "shape": [1024, 768], "dtype": "f32"},
  {"name": "bias", "kind": "input", "shape": [768], "dtype": "f32"},
  {"name": "y", "kind": "add", "inputs": ["x", "bias"], "shape": [1024, 768], "dtype": "f32"},
  {"name": "z", "kind": "relu", "inputs": ["y"], "shape": [1024, 768], "dtype": "f32"}]})";

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Every group's kernel, in both dialects, annotates exactly the group's bytes; every op's unfused kernel its
// op_bytes_unfused.
void check_annotations(const FusionGraph& g, const FusionPlan& plan) {
  const codegen::GraphFacts facts(g);
  const std::vector<bool> read = codegen::read_from_memory(facts, plan);
  for (const FusionGroup& group : plan.groups) {
    const codegen::Kernel k = codegen::group_kernel(facts, plan, group.id, read);
    for (const std::string& text : {codegen::emit_c_kernel(facts, k), codegen::emit_triton_kernel(facts, k)}) {
      const AnnotatedBytes sum = annotated_bytes(text);
      CHECK_MESSAGE(sum.loaded == group.bytes_read, text);
      CHECK_MESSAGE(sum.stored == group.bytes_written, text);
    }
  }
  if (plan.options.resident_sources) return;
  for (OpId x = 0; x < static_cast<OpId>(g.size()); ++x) {
    if (g.op(x).inputs.empty()) continue;
    const AnnotatedBytes sum = annotated_bytes(codegen::emit_c_kernel(facts, codegen::op_kernel(facts, x)));
    CHECK(sum.loaded + sum.stored == plan.op_bytes_unfused[static_cast<std::size_t>(x)]);
  }
}

}  // namespace

TEST_SUITE("generated code") {
  TEST_CASE("a fused elementwise group is one loop that loads each input once and stores only its output") {
    const FusionGraph g = graph_from(kBiasRelu);
    const FusionPlan plan = plan_checked(g);
    const std::string code = emit_group_code(g, plan, 2, CodeDialect::c);
    CHECK(count(code, "for (") == 2);  // rows and columns of one loop
    CHECK(count(code, "// load ") == 2);
    CHECK(count(code, "// store ") == 1);
    CHECK(code.find("ld_f32(t1[j])") != std::string::npos);  // the bias is read by column
    CHECK(code.find("store 3145728 B: op 3 'z'") != std::string::npos);
    CHECK(code.find("t2[") == std::string::npos);  // y stays in a register
    const AnnotatedBytes sum = annotated_bytes(code);
    CHECK(sum.loaded == plan.groups[2].bytes_read);
    CHECK(sum.stored == plan.groups[2].bytes_written);
    const std::string triton = emit_group_code(g, plan, 2, CodeDialect::triton);
    CHECK(triton.find("@triton.jit") != std::string::npos);
    CHECK(triton.find("tl.program_id(0)") != std::string::npos);
    CHECK(triton.find("mask=mask") != std::string::npos);
    CHECK(annotated_bytes(triton).loaded == 3148800);
  }

  TEST_CASE("a source group is the driver's fill; resident sources store 0 bytes") {
    const FusionGraph g = graph_from(kBiasRelu);
    CHECK(annotated_bytes(emit_group_code(g, plan_checked(g), 0, CodeDialect::c)).stored == 3145728);
    const FusionPlan resident = plan_checked(g, FusionPlanner().with_resident_sources(true));
    const std::string code = emit_group_code(g, resident, 0, CodeDialect::c);
    CHECK(code.find("store 0 B: op 0 'x'") != std::string::npos);
    check_annotations(g, resident);
  }

  TEST_CASE("a reduction accumulates in the loop of its fused prologue and its epilogue follows") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [64, 32], "dtype": "f32"},
      {"name": "e", "kind": "exp", "inputs": ["x"], "shape": [64, 32], "dtype": "f32"},
      {"name": "s", "kind": "reduce_sum", "inputs": ["e"], "shape": [64], "dtype": "f32"},
      {"name": "r", "kind": "reciprocal", "inputs": ["s"], "shape": [64], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g, FusionPlanner().with_strategy("inductor"));
    REQUIRE(plan.groups.size() == 2);
    const std::string code = emit_group_code(g, plan, 1, CodeDialect::c);
    INFO(code);
    CHECK(code.find("3 stages") == std::string::npos);
    CHECK(code.find("w2[o] = w2[o] + v1;") != std::string::npos);  // exp's register summed by row
    CHECK(code.find("const float v3 = (1.0f / w2[i]);") != std::string::npos);  // the epilogue
    CHECK(count(code, "// load ") == 1);
    CHECK(count(code, "// store ") == 1);
    check_annotations(g, plan);
  }

  TEST_CASE("a matmul with its epilogue: the naive routine into scratch, then one loop") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [8, 16], "dtype": "f16"},
      {"name": "w", "kind": "input", "shape": [16, 4], "dtype": "f16"},
      {"name": "b", "kind": "input", "shape": [4], "dtype": "f16"},
      {"name": "mm", "kind": "matmul", "inputs": ["x", "w"], "shape": [8, 4], "dtype": "f16"},
      {"name": "y", "kind": "add", "inputs": ["mm", "b"], "shape": [8, 4], "dtype": "f16"},
      {"name": "a", "kind": "gelu", "inputs": ["y"], "shape": [8, 4], "dtype": "f16"}]})");
    const FusionPlan plan = plan_checked(g, FusionPlanner().with_strategy("tvm"));
    const std::int32_t group = plan.op_group[3];
    REQUIRE(plan.groups[static_cast<std::size_t>(group)].ops.size() == 3);
    const std::string code = emit_group_code(g, plan, group, CodeDialect::c);
    INFO(code);
    CHECK(code.find("naive matmul") != std::string::npos);
    CHECK(code.find("row[n] += av * bv;") != std::string::npos);
    CHECK(code.find("w3[i]") != std::string::npos);  // the epilogue reads the product from scratch
    CHECK(code.find("t5[i] = st_f16(v5);") != std::string::npos);
    CHECK(count(code, "// store ") == 1);
    const std::string triton = emit_group_code(g, plan, group, CodeDialect::triton);
    CHECK(triton.find("tl.dot(a, b)") != std::string::npos);
    check_annotations(g, plan);
  }

  TEST_CASE("a recomputed producer is computed again inside each reader's kernel") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [16, 8], "dtype": "f32"},
      {"name": "p", "kind": "neg", "inputs": ["x"], "shape": [16, 8], "dtype": "f32"},
      {"name": "a", "kind": "exp", "inputs": ["p"], "shape": [16, 8], "dtype": "f32"},
      {"name": "s", "kind": "reduce_sum", "inputs": ["p"], "shape": [16], "dtype": "f32"}]})");
    const FusionPlan plan = plan_checked(g, FusionPlanner().with_strategy("inductor"));
    int copies = 0;
    for (const FusionGroup& group : plan.groups) {
      if (group.recomputed.empty()) continue;
      ++copies;
      const std::string code = emit_group_code(g, plan, group.id, CodeDialect::c);
      INFO(code);
      CHECK(code.find("const float v1 = (-x0);") != std::string::npos);
      CHECK(code.find("store 512 B: op 1") == std::string::npos);  // a copy is never written
    }
    CHECK(copies == 2);
    check_annotations(g, plan);
  }

  TEST_CASE("an op's storage is its element type as numerics defines it") {
    using codegen::storage_of;
    const auto op = [](const char* dtype, std::int64_t bytes) {
      FusionOp o;
      o.dtype = dtype;
      o.dtype_bytes = bytes;
      return o;
    };
    struct Case {
      FusionOp op;
      const char* name;
      const char* c_type;
      std::int64_t bytes;
      const char* triton;
    };
    for (const Case& c : std::vector<Case>{{op("", 1), "f8", "uint8_t", 1, "tl.float8e4nv"},
                                           {op("", 2), "f16", "uint16_t", 2, "tl.float16"},
                                           {op("", 4), "f32", "float", 4, "tl.float32"},
                                           {op("", 8), "f64", "double", 8, "tl.float64"},
                                           {op("", 3), "f32", "float", 4, "tl.float32"},  // f32 needs 4 bytes
                                           {op("", 16), "f32_16", "e_f32_16", 16, "tl.float32"},
                                           {op("bf16", 2), "bf16", "uint16_t", 2, "tl.bfloat16"},
                                           {op("bfloat16", 2), "bf16", "uint16_t", 2, "tl.bfloat16"},
                                           {op("half", 2), "f16", "uint16_t", 2, "tl.float16"},
                                           {op("f8", 1), "f8", "uint8_t", 1, "tl.float8e4nv"},
                                           {op("i8", 1), "i8", "int8_t", 1, "tl.int8"},
                                           {op("u16", 2), "u16", "uint16_t", 2, "tl.uint16"},
                                           {op("i32", 4), "i32", "int32_t", 4, "tl.int32"},
                                           {op("int64", 8), "i64", "int64_t", 8, "tl.int64"},
                                           {op("u64", 8), "u64", "uint64_t", 8, "tl.uint64"},
                                           {op("bool", 1), "bool", "uint8_t", 1, "tl.int1"},
                                           {op("f16", 4), "f16_4", "e_f16_4", 4, "tl.float16"}}) {
      const codegen::Storage s = storage_of(c.op);
      INFO(c.op.dtype << " in " << c.op.dtype_bytes << " bytes");
      CHECK(s.type == numeric_type(c.op));
      CHECK(s.name == c.name);
      CHECK(s.c_type == c.c_type);
      CHECK(s.bytes == c.bytes);
      CHECK(codegen::load_fn(c.op) == std::string("ld_") + c.name);
      CHECK(codegen::store_fn(c.op) == std::string("st_") + c.name);
      CHECK(codegen::triton_dtype(c.op) == c.triton);
    }
  }

  TEST_CASE("the index rules: broadcasting by rows and columns, reductions by their shapes") {
    using codegen::broadcast_index;
    using codegen::reduce_index;
    const codegen::Syntax c{CodeDialect::c};
    CHECK(broadcast_index({4, 3}, {4, 3}, "i", c) == "i");
    CHECK(broadcast_index({1, 4, 3}, {4, 3}, "i", c) == "i");
    CHECK(broadcast_index({}, {4, 3}, "i", c) == "0");
    CHECK(broadcast_index({3}, {4, 3}, "i", c) == "(i % 3)");
    CHECK(broadcast_index({3}, {4, 3}, "i", c, 3) == "j");
    CHECK(broadcast_index({4, 1}, {4, 3}, "i", c, 3) == "o");
    CHECK(broadcast_index({4, 1}, {4, 3}, "i", c) == "(i / 3)");
    CHECK(broadcast_index({5, 3}, {4, 3}, "i", c) == "((i % 3) + (i / 3) * 3)");  // not compatible: defined
    CHECK(reduce_index({4, 3}, {4}, "i", c) == "(i / 3)");
    CHECK(reduce_index({4, 3}, {4}, "i", c, 3) == "o");
    CHECK(reduce_index({4, 3}, {4, 1}, "i", c) == "(i / 3)");
    CHECK(reduce_index({4, 3}, {1, 3}, "i", c) == "(i % 3)");
    CHECK(reduce_index({4, 3}, {}, "i", c) == "0");
    CHECK(reduce_index({4, 3}, {5}, "i", c) == "(i % 5)");
    CHECK(reduce_index({2, 4, 3}, {2, 3}, "i", c) == "((i / 12) * 3 + (i % 3))");
  }

  TEST_CASE("op names reach only comments, reduced to safe characters") {
    FusionGraph g;
    const OpId x = g.add_op(OpKind::input, {}, {4}, 4, "x\n#include <stdlib.h>\nint evil = system(\"rm\"); \\");
    g.add_op(OpKind::relu, {x}, {4}, 4, "*/ }); exit(1); /* \xe2\x80\x94");
    const FusionPlan plan = plan_checked(g);
    for (CodeDialect d : {CodeDialect::c, CodeDialect::triton}) {
      const std::string code = emit_program(g, plan, {d, 1, 1});
      CHECK(code.find("system(") == std::string::npos);
      CHECK(code.find("exit(1)") == std::string::npos);
      CHECK(code.find("\\\n") == std::string::npos);  // no comment continued onto the next line
      CHECK(code.find("'x??include??stdlib.h??int?evil?") != std::string::npos);
      CHECK(count(code, "#include <stdlib.h>") == (d == CodeDialect::c ? 1u : 0u));
    }
    CHECK(codegen::safe_text(std::string(50, 'a')) == std::string(40, 'a') + "...");
  }

  TEST_CASE("annotations are read only in their own form") {
    CHECK(annotated_bytes("  x = 1;  // load 12 B: op 0\n  // store 30 B: op 1\n").loaded == 12);
    CHECK(annotated_bytes("// store 30 B: op 1\n").stored == 30);
    CHECK(annotated_bytes("// reload 5 B; load 7 bytes; load B; unload 9 B\n").loaded == 0);
  }

  TEST_CASE("the verifier reports a group whose bytes disagree with its generated code") {
    const FusionGraph g = graph_from(kBiasRelu);
    FusionPlan plan = plan_checked(g);
    plan.groups[2].bytes_read += 4;
    bool code = false;
    for (const Violation& v : verify_plan(g, plan.options, plan)) code = code || v.code == "code";
    CHECK(code);
  }

  TEST_CASE("every preset's groups on random graphs: annotations equal the plan's bytes, in both dialects") {
    std::mt19937_64 rng(18);
    for (int i = 0; i < scaled(300); ++i) {
      const FusionGraph g = i % 2 ? random_graph(rng, 4 + static_cast<int>(rng() % 20))
                                  : random_strategy_graph(rng, 4 + static_cast<int>(rng() % 20));
      for (std::string_view strategy : strategy_names()) {
        FusionPlanner planner = FusionPlanner().with_strategy(std::string(strategy)).with_resident_sources(i % 5 == 0);
        INFO("graph " << i << " strategy " << strategy);
        check_annotations(g, plan_checked(g, planner));
      }
    }
  }

  TEST_CASE("registers in the compute type: f64 in double, integers in double rounded to their type") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [4, 3], "dtype": "i32"},
      {"name": "y", "kind": "input", "shape": [3], "dtype": "f64"},
      {"name": "a", "kind": "mul", "inputs": ["x", "x"], "shape": [4, 3], "dtype": "i32"},
      {"name": "b", "kind": "add", "inputs": ["a", "y"], "shape": [4, 3], "dtype": "f64"},
      {"name": "c", "kind": "exp", "inputs": ["b"], "shape": [4, 3], "dtype": "f32"},
      {"name": "s", "kind": "reduce_sum", "inputs": ["a"], "shape": [4], "dtype": "i64"},
      {"name": "e", "kind": "softmax", "inputs": ["c"], "shape": [4, 3], "dtype": "f64"}]})");
    const FusionPlan plan = plan_checked(g, FusionPlanner().with_strategy("inductor"));
    const std::string code = emit_group_code(g, plan, plan.op_group[2], CodeDialect::c);
    for (const char* text : {"const int32_t x0 = ld_i32(t0[i]);", "const int32_t v2 = cv_i32(((double)x0 * (double)x0));",
                             "const double v3 = ((double)v2 + x1);", "const float v4 = expf((float)v3);",
                             "w5[o] = w5[o] + (double)v2;", "w5[j] = cv_i64(w5[j]);", "t5[j] = st_i64(cv_i64(w5[j]));",
                             "row[l] = exp(row[l] - top);"})
      CHECK_MESSAGE(code.find(text) != std::string::npos, text << "\n" << code);
    CHECK(code.find("double *restrict w5 = (double *)(ws + ") != std::string::npos);
  }

  TEST_CASE("a prefix names every file-scope symbol of a program; the shared helpers are guarded") {
    const FusionGraph g = graph_from(kBiasRelu);
    const FusionPlan plan = plan_checked(g);
    const std::string plain = emit_program(g, plan, {CodeDialect::c, 1, 1});
    const std::string named = emit_program(g, plan, {CodeDialect::c, 1, 1, "g17_"});
    CHECK(plain.find("\nint main(void) {") != std::string::npos);
    CHECK(named.find("\nint main(") == std::string::npos);
    for (const char* text : {"\nint g17_main(void) {", "static void g17_group_", "static void g17_op_", "g17_seed + ",
                             "static float *g17_ws;", "g17_fused_entry();", "#ifndef FUSION_RUNTIME", "#ifndef FUSION_f32"})
      CHECK_MESSAGE(named.find(text) != std::string::npos, std::string(text));
    CHECK(annotated_bytes(named).loaded == annotated_bytes(plain).loaded);
    CHECK(emit_program(g, plan, {CodeDialect::c, 1, 1, "3 x;"}).find("int _3_x_main(void)") != std::string::npos);
  }

  TEST_CASE("a 200,000-op chain emits in one pass, its text linear in the ops" * doctest::skip(reduced_run())) {
    FusionGraph g;
    OpId prev = g.add_op(OpKind::input, {}, {64}, 4, "x");
    for (int i = 0; i < 200000; ++i) prev = g.add_op(i % 2 ? OpKind::exp : OpKind::neg, {prev}, {64}, 4);
    const FusionPlan plan = *FusionPlanner().plan(g);
    const std::string c = emit_program(g, plan, {CodeDialect::c, 1, 1});
    CHECK(c.size() < 2000u * g.size());
    CHECK(count(c, "static void op_") == 200000);
    CHECK(annotated_bytes(emit_group_code(g, plan, 1, CodeDialect::c)).stored == plan.groups[1].bytes_written);
  }
}

#include "fusion/api.h"

TEST_SUITE("generated code through the facade") {
  TEST_CASE("api::code answers a group's kernel with its annotated lines, or an error value") {
    const std::string answer = api::code(kBiasRelu, "", R"({"dialect": "c", "group": 2})");
    CHECK(answer.find(R"("ok":true)") != std::string::npos);
    CHECK(answer.find(R"("dialect":"c")") != std::string::npos);
    CHECK(answer.find(R"("bytes_read":3148800,"bytes_written":3145728)") != std::string::npos);
    CHECK(answer.find(R"({"bytes":3072,"kind":"load","line":)") != std::string::npos);
    CHECK(answer.find(R"("kind":"store","line":)") != std::string::npos);
    CHECK(api::code(kBiasRelu, "", R"({"dialect": "triton"})").find("@triton.jit") != std::string::npos);
    CHECK(api::code(kBiasRelu, "", R"({"dialect": "cuda"})").find(R"("path":"/dialect")") != std::string::npos);
    CHECK(api::code(kBiasRelu, "", R"({"group": 9})").find("group 9 is not in the plan, which has 3 groups") !=
          std::string::npos);
    CHECK(api::code(kBiasRelu, "", R"({"groups": 1})").find(R"("path":"/groups")") != std::string::npos);
    CHECK(api::code("{", "", "").find("json_syntax") != std::string::npos);
  }

  TEST_CASE("annotated lines name their op") {
    const auto lines = annotated_lines("a;  // load 12 B: op 3 'x'\nb;\n  t[i] = v;  // store 8 B: op 4 'y'\n");
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].line == 1);
    CHECK(!lines[0].store);
    CHECK(lines[0].op == 3);
    CHECK(lines[0].bytes == 12);
    CHECK(lines[1].line == 3);
    CHECK(lines[1].store);
    CHECK(lines[1].op == 4);
  }
}
