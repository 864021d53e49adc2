// numerics.test.cpp — docs/design.md §18: element formats, the static notes per group, the reference evaluator
// (against hand-computed values and a direct per-op reference), eager parity, options and the verifier.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "numerics/elementwise.h"
#include "numerics/evaluate.h"
#include "random_graphs.h"
#include "test_graphs.h"

using namespace fusion;
using namespace fusion::testing;

namespace {

NumericsSettings on(bool parity = false) {
  NumericsSettings s;
  s.enabled = true;
  s.parity = parity;
  return s;
}

FusionPlan numerics_plan(const FusionGraph& g, bool parity = false, const std::string& strategy = "seed") {
  return plan_checked(g, FusionPlanner().with_strategy(strategy).with_numerics(on(parity)));
}

std::vector<std::string> note_kinds(const FusionPlan& plan) {
  std::vector<std::string> kinds;
  for (const FusionGroup& group : plan.groups)
    for (const NumericsNote& note : group.numerics) kinds.push_back(note.kind);
  return kinds;
}

const NumericsOutput& output_of(const FusionPlan& plan, OpId op) {
  for (const NumericsOutput& o : plan.numerics.outputs)
    if (o.op == op) return o;
  FAIL("op " << op << " is not an evaluated output");
  return plan.numerics.outputs.front();
}

std::string chain(const std::string& dtype, const std::vector<std::string>& kinds, int size = 1024) {
  std::string text = R"({"ops": [{"name": "x", "kind": "input", "shape": [)" + std::to_string(size) +
                     R"(], "dtype": ")" + dtype + R"("})";
  std::string previous = "x";
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const std::string name = "o" + std::to_string(i);
    const bool binary = kinds[i] == "max" || kinds[i] == "add" || kinds[i] == "mul" || kinds[i] == "sub";
    text += R"(, {"name": ")" + name + R"(", "kind": ")" + kinds[i] + R"(", "inputs": [")" + previous + "\"" +
            (binary ? R"(, "x")" : "") + R"(], "shape": [)" + std::to_string(size) + R"(], "dtype": ")" + dtype + "\"}";
    previous = name;
  }
  return text + "]}";
}

}  // namespace

TEST_SUITE("element formats") {
  TEST_CASE("f16 rounds to nearest, ties to even, overflows to infinity and keeps subnormals") {
    CHECK(round_to(NumericType::f16, 1.0 + std::ldexp(1.0, -11)) == 1.0);                          // tie: even
    CHECK(round_to(NumericType::f16, 1.0 + 3 * std::ldexp(1.0, -11)) == 1.0 + std::ldexp(1.0, -9));  // tie: even
    CHECK(round_to(NumericType::f16, 65519.0) == 65504.0);
    CHECK(std::isinf(round_to(NumericType::f16, 65520.0)));
    CHECK(round_to(NumericType::f16, std::ldexp(1.0, -25)) == 0.0);
    CHECK(round_to(NumericType::f16, 3 * std::ldexp(1.0, -26)) == std::ldexp(1.0, -24));
    CHECK(f16_bits(1.0) == 0x3c00);
    CHECK(f16_bits(-2.0) == 0xc000);
    CHECK(f16_bits(65504.0) == 0x7bff);
    CHECK(f16_bits(std::ldexp(1.0, -24)) == 0x0001);
    CHECK(f16_bits(0.1) == 0x2e66);
    CHECK(f16_bits(1e6) == 0x7c00);
  }

  TEST_CASE("bf16 rounding is exact to the bit against hand-computed values") {
    CHECK(bf16_bits(1.0) == 0x3f80);
    CHECK(bf16_bits(1.0 + std::ldexp(1.0, -8)) == 0x3f80);      // halfway, to the even 1.0
    CHECK(bf16_bits(1.0 + 3 * std::ldexp(1.0, -8)) == 0x3f82);  // halfway, to the even mantissa 2
    CHECK(bf16_bits(static_cast<float>(3.14159265358979)) == 0x4049);  // f32 0x40490fdb: low half below 0x8000
    CHECK(bf16_bits(static_cast<float>(0.1)) == 0x3dcd);               // f32 0x3dcccccd: low half above 0x8000
    CHECK(round_to(NumericType::bf16, 0.1) == 0.10009765625);
    CHECK(round_to(NumericType::bf16, -3.0e38) == -226 * std::ldexp(1.0, 120));  // step 2^120 in [2^127, 2^128)
  }

  TEST_CASE("the fast f16/bf16 rounding of floats agrees with the general one, bit for bit") {
    std::mt19937_64 rng(5);
    for (int i = 0; i < 200000; ++i) {
      const std::uint32_t bits = static_cast<std::uint32_t>(rng());
      float f = 0.0f;
      std::memcpy(&f, &bits, sizeof f);
      if (std::isnan(f)) continue;
      const double x = f;
      CHECK(f16_bits(round_to(NumericType::f16, x)) == f16_bits(x));
      CHECK(bf16_bits(round_to(NumericType::bf16, x)) == bf16_bits(x));
      CHECK(round_to(NumericType::bf16, round_to(NumericType::bf16, x)) == round_to(NumericType::bf16, x));
    }
  }

  TEST_CASE("f8 is E4M3FN: largest 448, overflow is NaN") {
    CHECK(round_to(NumericType::f8, 448.0) == 448.0);
    CHECK(round_to(NumericType::f8, 460.0) == 448.0);
    CHECK(std::isnan(round_to(NumericType::f8, 480.0)));
    CHECK(round_to(NumericType::f8, 1.0625) == 1.0);   // tie between 1 and 1.125: even
    CHECK(round_to(NumericType::f8, 1.1875) == 1.25);  // tie between 1.125 and 1.25: even
  }

  TEST_CASE("ulp distances count the representable values between") {
    CHECK(ulp_distance(NumericType::f16, 1.0, 1.0 + std::ldexp(1.0, -10)) == 1);
    CHECK(ulp_distance(NumericType::f16, 1.0 - std::ldexp(1.0, -11), 1.0 + std::ldexp(1.0, -10)) == 2);
    CHECK(ulp_distance(NumericType::f16, -std::ldexp(1.0, -24), std::ldexp(1.0, -24)) == 2);
    CHECK(ulp_distance(NumericType::f32, 1.0, 1.0 + std::ldexp(1.0, -23)) == 1);
    CHECK(ulp_distance(NumericType::i32, 3.0, -4.0) == 7);
    CHECK(std::isinf(ulp_distance(NumericType::f16, 1.0, std::nan(""))));
  }

  TEST_CASE("an op's type: its dtype name, or its size") {
    const FusionGraph g = graph_from(R"({"ops": [{"kind": "input", "shape": [1], "dtype": "bfloat16"},
      {"kind": "input", "shape": [1], "dtype_bytes": 2}, {"kind": "input", "shape": [1], "dtype": "i16"}]})");
    CHECK(numeric_type(g.op(0)) == NumericType::bf16);
    CHECK(numeric_type(g.op(1)) == NumericType::f16);
    CHECK(numeric_type(g.op(2)) == NumericType::i16);
  }
}

TEST_SUITE("numerics notes") {
  TEST_CASE("exact ops in f32 give 0 ulp and no rounding note") {
    const FusionGraph g = graph_from(chain("f32", {"relu", "neg", "abs", "max"}));
    const FusionPlan plan = numerics_plan(g);
    CHECK(fused_groups(g, plan) == std::vector<std::vector<std::string>>{{"o0", "o1", "o2", "o3"}});
    CHECK(note_kinds(plan) == std::vector<std::string>{"nan"});  // max's NaN choice
    CHECK(output_of(plan, 4).max_ulp == 0);
    CHECK(output_of(plan, 4).elements == 1024);
  }

  TEST_CASE("exact ops on f16 values stay exact: no rounding note, 0 ulp") {
    const FusionGraph g = graph_from(chain("f16", {"relu", "neg", "abs"}));
    const FusionPlan plan = numerics_plan(g);
    CHECK(note_kinds(plan).empty());
    CHECK(output_of(plan, 3).max_abs == 0);
  }

  TEST_CASE("an f16 chain of transcendental ops gets rounding notes and differs") {
    const FusionGraph g = graph_from(chain("f16", {"exp", "tanh", "sigmoid", "gelu"}));
    const FusionPlan plan = numerics_plan(g);
    CHECK(note_kinds(plan) == std::vector<std::string>{"rounding", "rounding", "rounding"});
    const NumericsNote& first = plan.groups[1].numerics[0];
    CHECK(first.ops == std::vector<OpId>{1, 2});
    CHECK(first.message == "op 1 ('o0') is f16: inside this kernel its reader gets its f32 value, where the unfused "
                           "graph rounds it to f16 on the store");
    CHECK(output_of(plan, 4).max_ulp > 0);
    CHECK(output_of(plan, 4).max_abs > 0);
  }

  TEST_CASE("contraction notes only for mul -> add/sub inside one group") {
    SUBCASE("mul -> add in one group") {
      const FusionGraph g = graph_from(chain("f32", {"mul", "add"}));
      const FusionPlan plan = numerics_plan(g);
      REQUIRE(note_kinds(plan) == std::vector<std::string>{"contraction"});
      CHECK(plan.groups[1].numerics[0].ops == std::vector<OpId>{1, 2});
    }
    SUBCASE("mul -> sub in one group") {
      CHECK(note_kinds(numerics_plan(graph_from(chain("f32", {"mul", "sub"})))) ==
            std::vector<std::string>{"contraction"});
    }
    SUBCASE("mul -> exp -> add: the add's input is no mul") {
      CHECK(note_kinds(numerics_plan(graph_from(chain("f32", {"mul", "exp", "add"})))).empty());
    }
    SUBCASE("add -> mul: the wrong way round") {
      CHECK(note_kinds(numerics_plan(graph_from(chain("f32", {"add", "mul"})))).empty());
    }
    SUBCASE("mul and add in different groups") {
      const FusionGraph g = graph_from(R"({"ops": [
        {"name": "x", "kind": "input", "shape": [8], "dtype": "f32"},
        {"name": "m", "kind": "mul", "inputs": ["x", "x"], "shape": [8], "dtype": "f32"},
        {"name": "t", "kind": "transpose", "inputs": ["m"], "shape": [8], "dtype": "f32"},
        {"name": "a", "kind": "add", "inputs": ["t", "m"], "shape": [8], "dtype": "f32"}]})");
      const FusionPlan plan = numerics_plan(g);
      CHECK(edge_decision(g, plan, "m", "a") == "cycle");
      CHECK(note_kinds(plan).empty());
    }
    SUBCASE("integers are never contracted") {
      CHECK(note_kinds(numerics_plan(graph_from(chain("i32", {"mul", "add"})))).empty());
    }
  }

  TEST_CASE("a reduction fused with its prologue gets a reduction_order note; a where on a comparison a nan note") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [64, 512], "dtype": "f32"},
      {"name": "e", "kind": "exp", "inputs": ["x"], "shape": [64, 512], "dtype": "f32"},
      {"name": "s", "kind": "reduce_sum", "inputs": ["e"], "shape": [64], "dtype": "f32"}]})");
    const FusionPlan plan = numerics_plan(g, false, "inductor");
    REQUIRE(fused_groups(g, plan) == std::vector<std::vector<std::string>>{{"e", "s"}});
    CHECK(note_kinds(plan) == std::vector<std::string>{"reduction_order"});
    CHECK(output_of(plan, 2).max_ulp > 0);  // 32 lanes against the running sum of 512 values
    CHECK(output_of(plan, 2).elements == 64);

    const FusionGraph w = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [8], "dtype": "f32"},
      {"name": "y", "kind": "input", "shape": [8], "dtype": "f32"},
      {"name": "n", "kind": "neg", "inputs": ["x"], "shape": [8], "dtype": "f32"},
      {"name": "c", "kind": "less", "inputs": ["n", "y"], "shape": [8], "dtype": "bool"},
      {"name": "p", "kind": "where", "inputs": ["c", "n", "y"], "shape": [8], "dtype": "f32"}]})");
    const FusionPlan wp = numerics_plan(w);
    CHECK(note_kinds(wp) == std::vector<std::string>{"nan"});
    CHECK(wp.groups[2].numerics[0].ops == std::vector<OpId>{4, 3});
  }

  TEST_CASE("a cast pair through a narrower type gets a cast note") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [256], "dtype": "f32"},
      {"name": "e", "kind": "exp", "inputs": ["x"], "shape": [256], "dtype": "f32"},
      {"name": "h", "kind": "cast", "inputs": ["e"], "shape": [256], "dtype": "f16"},
      {"name": "f", "kind": "cast", "inputs": ["h"], "shape": [256], "dtype": "f32"}]})");
    const FusionPlan plan = numerics_plan(g);
    CHECK(note_kinds(plan) == std::vector<std::string>{"rounding", "cast"});
    CHECK(plan.groups[1].numerics[1].message.find("f32 -> f16 -> f32") != std::string::npos);
    CHECK(output_of(plan, 3).max_abs > 0);  // the f16 rounding in the middle is gone when fused
  }

  TEST_CASE("notes are off unless asked for") {
    const FusionGraph g = graph_from(chain("f16", {"exp", "tanh"}));
    const FusionPlan plan = plan_checked(g);
    CHECK(note_kinds(plan).empty());
    CHECK_FALSE(plan.numerics.present);
    CHECK(write_plan_json(plan).find("numerics") == std::string::npos);
  }
}

TEST_SUITE("reference evaluator") {
  TEST_CASE("a chain of f16 adds: fused differs from unfused by what the dropped roundings make") {
    // a = x + y, b = a + y, c = b + y, all f16: unfused rounds a and b to f16, fused keeps them in f32.
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [4096], "dtype": "f16"},
      {"name": "y", "kind": "input", "shape": [4096], "dtype": "f16"},
      {"name": "a", "kind": "add", "inputs": ["x", "y"], "shape": [4096], "dtype": "f16"},
      {"name": "b", "kind": "add", "inputs": ["a", "y"], "shape": [4096], "dtype": "f16"},
      {"name": "c", "kind": "add", "inputs": ["b", "y"], "shape": [4096], "dtype": "f16"}]})");
    const FusionPlan plan = numerics_plan(g);
    CHECK(note_kinds(plan) == std::vector<std::string>{"rounding", "rounding"});
    const auto x = numerics::fresh_values(NumericType::f16, 4096, 0, 0);
    const auto y = numerics::fresh_values(NumericType::f16, 4096, 0, 1);
    const auto f32 = [](double v) { return round_to(NumericType::f32, v); };
    const auto f16 = [](double v) { return round_to(NumericType::f16, v); };
    double max_abs = 0, max_ulp = 0;
    for (std::size_t i = 0; i < 4096; ++i) {
      const double u = (*x)[i], v = (*y)[i];
      const double unfused = f16(f32(f16(f32(f16(f32(u + v)) + v)) + v));
      const double fused = f16(f32(f32(f32(u + v) + v) + v));
      max_abs = std::max(max_abs, std::fabs(fused - unfused));
      max_ulp = std::max(max_ulp, ulp_distance(NumericType::f16, fused, unfused));
    }
    CHECK(max_abs > 0);
    CHECK(output_of(plan, 4).max_abs == max_abs);
    CHECK(output_of(plan, 4).max_ulp == max_ulp);
  }

  TEST_CASE("a contracted multiply-add rounds once") {
    const FusionGraph g = graph_from(chain("f32", {"mul", "add"}, 4096));  // o1 = x*x + x
    const FusionPlan plan = numerics_plan(g);
    const auto x = numerics::fresh_values(NumericType::f32, 4096, 0, 0);
    double max_ulp = 0;
    for (double v : *x) {
      const float f = static_cast<float>(v);
      const double unfused = static_cast<float>(static_cast<float>(f * f) + f);
      max_ulp = std::max(max_ulp, ulp_distance(NumericType::f32, std::fmaf(f, f, f), unfused));
    }
    CHECK(max_ulp > 0);
    CHECK(output_of(plan, 2).max_ulp == max_ulp);
    // Eager parity contracts nothing: the same plan's figures are then 0 (f32 has no rounding points).
    CHECK(output_of(numerics_plan(g, true), 2).max_ulp == 0);
  }

  TEST_CASE("deterministic: the same report twice; another seed gives other inputs") {
    const FusionGraph g = graph_from(chain("bf16", {"exp", "mul", "add", "tanh"}, 3000));
    const FusionPlan a = numerics_plan(g), b = numerics_plan(g);
    CHECK(a.numerics == b.numerics);
    CHECK(write_plan_json(a) == write_plan_json(b));
    NumericsSettings other = on();
    other.seed = 7;
    const FusionPlan c = plan_checked(g, FusionPlanner().with_numerics(other));
    CHECK(c.numerics.outputs.size() == a.numerics.outputs.size());  // (its maxima may coincide: bf16 is coarse)
    CHECK(*numerics::fresh_values(NumericType::bf16, 8, 7, 0) != *numerics::fresh_values(NumericType::bf16, 8, 0, 0));
  }

  TEST_CASE("ops it cannot evaluate are listed and feed fresh data downstream") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [1, 3, 8, 8], "dtype": "f16"},
      {"name": "w", "kind": "input", "shape": [4, 3, 3, 3], "dtype": "f16"},
      {"name": "c", "kind": "conv", "inputs": ["x", "w"], "shape": [1, 4, 8, 8], "dtype": "f16"},
      {"name": "o", "kind": "opaque", "inputs": ["c"], "shape": [1, 4, 8, 8], "dtype": "f16", "label": "Foo"},
      {"name": "e", "kind": "exp", "inputs": ["o"], "shape": [1, 4, 8, 8], "dtype": "f16"},
      {"name": "t", "kind": "tanh", "inputs": ["e"], "shape": [1, 4, 8, 8], "dtype": "f16"}]})");
    const FusionPlan plan = numerics_plan(g);
    REQUIRE(plan.numerics.skipped.size() == 2);
    CHECK(plan.numerics.skipped[0].op == 2);
    CHECK(plan.numerics.skipped[0].reason == "conv: its strides, padding and layout are not in the graph");
    CHECK(plan.numerics.skipped[1].op == 3);
    CHECK(output_of(plan, 5).elements == 256);
    CHECK(output_of(plan, 5).max_ulp > 0);  // e's rounding is dropped inside {e, t}
  }

  TEST_CASE("a cap on elements per tensor, the same prefix for every reader") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [512, 256], "dtype": "f16"},
      {"name": "b", "kind": "input", "shape": [256], "dtype": "f16"},
      {"name": "y", "kind": "add", "inputs": ["x", "b"], "shape": [512, 256], "dtype": "f16"},
      {"name": "z", "kind": "exp", "inputs": ["y"], "shape": [512, 256], "dtype": "f16"},
      {"name": "s", "kind": "reduce_sum", "inputs": ["z"], "shape": [512], "dtype": "f32"},
      {"name": "m", "kind": "matmul", "inputs": ["z", "x"], "shape": [512, 512], "dtype": "f16"}]})");
    NumericsSettings s = on();
    s.max_elements = 1000;
    const FusionPlan plan = plan_checked(g, FusionPlanner().with_numerics(s));
    CHECK(output_of(plan, 4).elements == 3);  // rows of 256 within z's first 1000 elements
    // m = z x^T (x as a linear layer's [N, K] weight): z's rows 0-2 are there, and x's first 16 x 1000 elements
    // (a source's cap), rows 0-61: m's first 62 elements.
    CHECK(plan.numerics.skipped.empty());
    CHECK(output_of(plan, 5).elements == 62);
  }

  TEST_CASE("softmax, layer_norm, matmul and transpose evaluate") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [16, 32], "dtype": "f16"},
      {"name": "w", "kind": "input", "shape": [32, 8], "dtype": "f16"},
      {"name": "g", "kind": "input", "shape": [32], "dtype": "f16"},
      {"name": "n", "kind": "layer_norm", "inputs": ["x", "g", "g"], "shape": [16, 32], "dtype": "f16"},
      {"name": "m", "kind": "matmul", "inputs": ["n", "w"], "shape": [16, 8], "dtype": "f16"},
      {"name": "t", "kind": "transpose", "inputs": ["m"], "shape": [8, 16], "dtype": "f16"},
      {"name": "s", "kind": "softmax", "inputs": ["t"], "shape": [8, 16], "dtype": "f16"}]})");
    const FusionPlan plan = numerics_plan(g);
    CHECK(plan.numerics.skipped.empty());
    CHECK(output_of(plan, 6).elements == 128);
    CHECK(output_of(plan, 6).max_abs == 0);  // every op alone under seed: both runs are the same kernels
  }

  TEST_CASE("the evaluator agrees with a direct per-op reference on random elementwise graphs") {
    std::mt19937_64 rng(18);
    const std::array<const char*, 3> types = {"f32", "f16", "bf16"};
    const std::array<OpKind, 8> kinds = {OpKind::add, OpKind::mul, OpKind::sub, OpKind::exp,
                                         OpKind::tanh, OpKind::relu, OpKind::max, OpKind::sigmoid};
    for (int trial = 0; trial < 200; ++trial) {
      FusionGraph g;
      const int n = 2 + static_cast<int>(rng() % 12);
      for (int i = 0; i < n; ++i) {
        FusionOp op;
        op.dtype = types[rng() % 3];
        op.dtype_bytes = op.dtype == "f32" ? 4 : 2;
        op.shape = {64};
        if (i < 2) op.kind = OpKind::input;
        else {
          op.kind = kinds[rng() % kinds.size()];
          const std::size_t arity = numerics::elementwise_arity(op.kind)->least;
          for (std::size_t k = 0; k < arity; ++k) op.inputs.push_back(static_cast<OpId>(rng() % static_cast<std::uint64_t>(i)));
          if (rng() % 4 == 0) op.output = true;
        }
        g.add_op(std::move(op));
      }
      const FusionPlan plan = numerics_plan(g);
      // The reference, every op in id order. Unfused: read stored values, round to the op's type. Fused: read a
      // member of the op's group as f32, anything else as the fused run stored it; an add/sub reading a mul of its
      // group (the first in input order) rounds once.
      std::vector<std::vector<double>> unfused(g.size()), fused_stored(g.size()), fused_reg(g.size());
      for (std::size_t x = 0; x < g.size(); ++x) {
        const FusionOp& op = g.op(static_cast<OpId>(x));
        const NumericType type = numeric_type(op);
        if (op.is_source()) {
          unfused[x] = fused_stored[x] = fused_reg[x] = *numerics::fresh_values(type, 64, 0, static_cast<OpId>(x));
          continue;
        }
        const auto same = [&](OpId u) { return plan.op_group[u] == plan.op_group[x]; };
        const auto fused_value = [&](OpId u, std::size_t i) { return same(u) ? fused_reg[u][i] : fused_stored[u][i]; };
        OpId mul = -1;
        if (op.kind == OpKind::add || op.kind == OpKind::sub)
          for (OpId u : op.inputs)
            if (mul < 0 && same(u) && g.op(u).kind == OpKind::mul) mul = u;
        unfused[x].resize(64), fused_stored[x].resize(64), fused_reg[x].resize(64);
        for (std::size_t i = 0; i < 64; ++i) {
          double plain[3], fused[3];
          for (std::size_t k = 0; k < op.inputs.size(); ++k)
            plain[k] = unfused[op.inputs[k]][i], fused[k] = fused_value(op.inputs[k], i);
          const std::size_t count = op.inputs.size();
          unfused[x][i] = round_to(type, round_to(NumericType::f32, numerics::apply_elementwise(op.kind, plain, count)));
          double r = round_to(NumericType::f32, numerics::apply_elementwise(op.kind, fused, count));
          if (mul >= 0) {
            const bool first = op.inputs[0] == mul;
            float a = static_cast<float>(fused_value(g.op(mul).inputs[0], i));
            const float b = static_cast<float>(fused_value(g.op(mul).inputs[1], i));
            float c = static_cast<float>(fused[first ? 1 : 0]);
            if (op.kind == OpKind::sub) (first ? c = -c : a = -a);
            r = std::fmaf(a, b, c);
          }
          fused_reg[x][i] = r;
          fused_stored[x][i] = round_to(type, r);
        }
        for (const NumericsOutput& o : plan.numerics.outputs)
          if (o.op == static_cast<OpId>(x)) {
            double max_ulp = 0, max_abs = 0;
            for (std::size_t i = 0; i < 64; ++i) {
              const double a = fused_stored[x][i], b = unfused[x][i];
              if (!std::isfinite(a) || !std::isfinite(b)) continue;
              max_ulp = std::max(max_ulp, ulp_distance(type, a, b));
              max_abs = std::max(max_abs, std::fabs(a - b));
            }
            CHECK_MESSAGE(o.max_ulp == max_ulp, "trial " << trial << " op " << x);
            CHECK_MESSAGE(o.max_abs == max_abs, "trial " << trial << " op " << x);
            CHECK(o.elements == 64);
          }
      }
    }
  }
}

TEST_SUITE("eager parity") {
  TEST_CASE("eager parity refuses merges out of a rounding point, and says what it costs") {
    const FusionGraph g = graph_from(chain("f16", {"exp", "relu", "tanh"}));
    const FusionPlan free = numerics_plan(g), parity = numerics_plan(g, true);
    CHECK(fused_groups(g, free) == std::vector<std::vector<std::string>>{{"o0", "o1", "o2"}});
    // exp rounds; relu of an f16 value is exact, so relu -> tanh may still fuse.
    CHECK(fused_groups(g, parity) == std::vector<std::vector<std::string>>{{"o1", "o2"}});
    CHECK(edge_decision(g, parity, "o0", "o1") == "numerics");
    CHECK(note_kinds(parity).empty());
    CHECK(parity.numerics.parity_cost_bytes == static_cast<std::int64_t>(parity.bytes_fused - free.bytes_fused));
    CHECK(parity.numerics.parity_cost_bytes == 2 * 1024 * 2);  // o0 written and read back
    CHECK(output_of(parity, 3).max_ulp == 0);
  }

  TEST_CASE("eager parity plans pass the verifier and never remove a rounding point, on random graphs") {
    std::mt19937_64 rng(1816);
    for (int trial = 0; trial < 1500; ++trial) {
      const FusionGraph g = random_graph(rng, 2 + static_cast<int>(rng() % 30));
      const FusionPlan plan = numerics_plan(g, true);
      for (const EdgeDecision& e : plan.edges) CHECK_FALSE((e.fused && is_rounding_point(g, e.producer)));
      for (const std::string& kind : note_kinds(plan)) CHECK(kind != "rounding");
      // Greedy is not monotone: refusing a merge can let a better one happen, so the cost may be negative.
      const FusionPlan free = numerics_plan(g, false);  // notes and evaluation pass the verifier too
      CHECK(plan.numerics.parity_cost_bytes ==
            static_cast<std::int64_t>(plan.bytes_fused) - static_cast<std::int64_t>(free.bytes_fused));
    }
  }

  TEST_CASE("every strategy's plans carry notes the verifier accepts") {
    std::mt19937_64 rng(77);
    for (int trial = 0; trial < 300; ++trial) {
      const FusionGraph g = random_strategy_graph(rng, 2 + static_cast<int>(rng() % 25));
      for (const char* strategy : {"seed", "xla", "tvm", "inductor", "xla-classic"}) numerics_plan(g, false, strategy);
    }
  }

  TEST_CASE("eager parity is for the greedy seed planner") {
    const FusionGraph g = graph_from(chain("f16", {"exp"}));
    const Expected<FusionPlan> plan = FusionPlanner().with_strategy("xla").with_numerics(on(true)).plan(g);
    REQUIRE_FALSE(plan);
    CHECK(plan.errors().front().code == ErrorCode::invalid_options);
    CHECK(plan.errors().front().path == "/numerics/parity");
  }
}

TEST_SUITE("numerics options and checks") {
  TEST_CASE("options: true, false or an object; bad values are invalid_options with their path") {
    CHECK(read_options_json(R"({"numerics": true})")->numerics.enabled);
    CHECK_FALSE(read_options_json(R"({"numerics": false})")->numerics.enabled);
    const auto full = read_options_json(R"({"numerics": {"evaluate": false, "parity": true, "seed": 9, "max_elements": 10}})");
    REQUIRE(full);
    CHECK(full->numerics == NumericsSettings{true, false, true, 9, 10});
    const std::vector<std::pair<std::string, std::string>> bad = {
        {R"({"numerics": "yes"})", "/numerics"},
        {R"({"numerics": {"parity": 1}})", "/numerics/parity"},
        {R"({"numerics": {"seed": -1}})", "/numerics/seed"},
        {R"({"numerics": {"max_elements": 0}})", "/numerics/max_elements"},
        {R"({"numerics": {"max_elements": 16777217}})", "/numerics/max_elements"},
        {R"({"numerics": {"sed": 1}})", "/numerics/sed"}};
    for (const auto& [text, path] : bad) {
      const auto options = read_options_json(text);
      REQUIRE_FALSE(options);
      CHECK(options.errors().front().code == ErrorCode::invalid_options);
      CHECK(options.errors().front().path == path);
    }
  }

  TEST_CASE("the plan JSON carries the notes and the report") {
    const FusionGraph g = graph_from(chain("f16", {"mul", "add"}, 8));
    const std::string text = write_plan_json(numerics_plan(g));
    CHECK(text.find(R"("numerics":{"evaluate":true,"parity":false,"seed":0,"max_elements":65536})") != std::string::npos);
    CHECK(text.find(R"("numerics":[{"kind":"rounding","ops":[1,2],"message":)") != std::string::npos);
    CHECK(text.find(R"({"kind":"contraction","ops":[1,2],)") != std::string::npos);
    CHECK(text.find(R"("numerics":{"evaluated":true,"seed":0,"max_elements":65536,"parity":false,"outputs":[{"op":2,"dtype":"f16","elements":8,)") !=
          std::string::npos);
  }

  TEST_CASE("a plan with numerics reads back and verifies, through the API as through C++") {
    const FusionGraph g = graph_from(chain("f16", {"exp", "mul", "add"}, 64));
    const FusionPlan plan = numerics_plan(g);
    const Expected<FusionPlan> back = read_plan_json(write_plan_json(plan));
    REQUIRE(back);
    CHECK(back->groups[1].numerics == plan.groups[1].numerics);
    CHECK(back->numerics.outputs.size() == plan.numerics.outputs.size());
    CHECK(back->numerics.outputs[0].max_ulp == plan.numerics.outputs[0].max_ulp);
    CHECK(verify_plan(g, plan.options, *back).empty());
  }

  TEST_CASE("the verifier catches notes that do not fit and fused rounding points under parity") {
    const FusionGraph g = graph_from(chain("f16", {"exp", "tanh"}));
    FusionPlan plan = numerics_plan(g);
    const PlannerOptions options = FusionPlanner().with_numerics(on()).options();
    plan.groups[1].numerics.pop_back();
    std::vector<Violation> found = verify_plan(g, options, plan);
    REQUIRE(found.size() == 1);
    CHECK(found[0].code == "numerics");
    plan = numerics_plan(g);
    const PlannerOptions parity = FusionPlanner().with_numerics(on(true)).options();
    found = verify_plan(g, parity, plan);  // the plan fuses exp -> tanh, which parity forbids
    bool parity_violation = false;
    for (const Violation& v : found) parity_violation |= v.message.find("eager parity") != std::string::npos;
    CHECK(parity_violation);
  }
}
