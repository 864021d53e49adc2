// cost.test.cpp — the bytes-moved model: unfused totals, both source models, per-group bytes; recomputed
// copies, the `output` flag, flops and time.
#include <algorithm>
#include <cmath>
#include <limits>

#include "test_graphs.h"

#include "fusion/cost.h"

using namespace fusion;
using namespace fusion::testing;

TEST_CASE("unfused bytes: distinct inputs read once plus the output written once, per op") {
  const FusionGraph g = graph_from(R"({"ops": [
    {"name": "x", "kind": "input", "shape": [10], "dtype": "f32"},
    {"name": "y", "kind": "mul", "inputs": ["x", "x"], "shape": [10], "dtype": "f32"},
    {"name": "h", "kind": "cast", "inputs": ["y"], "shape": [10], "dtype": "f16"}]})");
  CHECK(op_bytes_unfused(g, 0, false) == 40);
  CHECK(op_bytes_unfused(g, 0, true) == 0);
  CHECK(op_bytes_unfused(g, 1, false) == 80);
  CHECK(op_bytes_unfused(g, 2, false) == 40 + 20);
  CHECK(unfused_bytes(g, false) == 40 + 80 + 60);
  CHECK(unfused_bytes(g, true) == 80 + 60);
}

TEST_CASE("a singleton group costs exactly its op's unfused bytes") {
  const FusionGraph g = graph_from(R"({"ops": [
    {"name": "x", "kind": "input", "shape": [8, 8], "dtype": "bf16"},
    {"name": "w", "kind": "input", "shape": [8, 8], "dtype": "bf16"},
    {"name": "m", "kind": "matmul", "inputs": ["x", "w"], "shape": [8, 8], "dtype": "bf16"}]})");
  for (bool resident : {false, true}) {
    const FusionPlan plan = plan_checked(g, FusionPlanner().with_resident_sources(resident));
    for (const FusionGroup& group : plan.groups)
      CHECK(group.bytes_read + group.bytes_written == op_bytes_unfused(g, group.ops.front(), resident));
    CHECK(plan.bytes_fused == plan.bytes_unfused);
    CHECK(plan.speedup_estimate == 1.0);
  }
}

TEST_CASE("fused bytes: external inputs once, outputs once, intermediates free") {
  const FusionGraph g = graph_from(R"({"ops": [
    {"name": "x", "kind": "input", "shape": [100], "dtype": "f32"},
    {"name": "a", "kind": "exp", "inputs": ["x"], "shape": [100], "dtype": "f32"},
    {"name": "b", "kind": "add", "inputs": ["a", "x"], "shape": [100], "dtype": "f32"},
    {"name": "c", "kind": "mul", "inputs": ["b", "x"], "shape": [100], "dtype": "f32"}]})");
  const FusionPlan plan = plan_checked(g);
  const FusionGroup& abc = group_of_op(g, plan, "a");
  CHECK(abc.ops.size() == 3);
  CHECK(abc.inputs == std::vector<OpId>{0});
  CHECK(abc.bytes_read == 400);    // x once, although three members read it
  CHECK(abc.bytes_written == 400);  // only c
  CHECK(plan.bytes_unfused == 400 + 800 + 1200 + 1200);
  CHECK(plan.bytes_fused == 400 + 800);
}

TEST_CASE("empty tensors move zero bytes and the speedup is 1.0") {
  const FusionGraph g = graph_from(R"({"ops": [
    {"kind": "input", "shape": [0, 5], "dtype": "f32"},
    {"kind": "relu", "inputs": [0], "shape": [0, 5], "dtype": "f32"}]})");
  const FusionPlan plan = plan_checked(g);
  CHECK(plan.bytes_unfused == 0);
  CHECK(plan.bytes_fused == 0);
  CHECK(plan.speedup_estimate == 1.0);
}

// ---- Recomputation, the `output` flag and the time model, on plans built by hand ----

namespace {

struct HandGroup {
  std::vector<OpId> ops;
  std::vector<OpId> recomputed = {};
};

// A plan with the given groups (ids 0, 1, ...) and op_group, priced by price_plan alone.
FusionPlan priced(const FusionGraph& g, const std::vector<HandGroup>& groups, std::vector<std::int32_t> op_group,
                  std::string hardware = "a100") {
  FusionPlan plan;
  plan.options.hardware = std::move(hardware);
  for (std::size_t k = 0; k < groups.size(); ++k) {
    FusionGroup group;
    group.id = static_cast<std::int32_t>(k);
    group.ops = groups[k].ops;
    group.recomputed = groups[k].recomputed;
    plan.groups.push_back(group);
  }
  plan.op_group = std::move(op_group);
  price_plan(g, plan);
  return plan;
}

doctest::Approx exactly(double value) { return doctest::Approx(value).epsilon(1e-12); }

// T = 509,750 f32 elements = 2,039,000 bytes: exactly 1 us of a100 bandwidth (2.039e12 B/s).
constexpr std::uint64_t kN = 509'750;
constexpr std::uint64_t kT = 2'039'000;

// x -> a = neg(x); a feeds b = exp(a) and c = mul(a, x); optionally d = relu(a).
FusionGraph fan_out_graph(bool with_d) {
  std::string ops = R"({"ops": [
    {"name": "x", "kind": "input", "shape": [509750], "dtype": "f32"},
    {"name": "a", "kind": "neg", "inputs": ["x"], "shape": [509750], "dtype": "f32"},
    {"name": "b", "kind": "exp", "inputs": ["a"], "shape": [509750], "dtype": "f32"},
    {"name": "c", "kind": "mul", "inputs": ["a", "x"], "shape": [509750], "dtype": "f32"})";
  if (with_d) ops += R"(, {"name": "d", "kind": "relu", "inputs": ["a"], "shape": [509750], "dtype": "f32"})";
  return graph_from(ops + "]}");
}

}  // namespace

TEST_SUITE("recomputation") {
  TEST_CASE("a recomputed producer is not written when every reader holds a copy") {
    const FusionGraph g = fan_out_graph(false);
    //   {x}   {a, b}   {a*, c}     (a* recomputed)
    const FusionPlan plan = priced(g, {{{0}}, {{1, 2}}, {{1, 3}, {1}}}, {0, 1, 1, 2});
    const FusionGroup &gx = plan.groups[0], &gab = plan.groups[1], &gac = plan.groups[2];
    CHECK(gx.outputs == std::vector<OpId>{0});
    CHECK(gx.bytes_written == kT);
    CHECK(gx.flops == 0);
    CHECK(gx.time_us == 0.0);  // sources take no time

    CHECK(gab.inputs == std::vector<OpId>{0});
    CHECK(gab.outputs == std::vector<OpId>{2});  // a is read by b here and by c in a group that holds a copy
    CHECK(gab.bytes_read == kT);
    CHECK(gab.bytes_written == kT);
    CHECK(gab.flops == kN + 4 * kN);  // neg n + exp 4n = 2,548,750
    // 2T bytes = 2 us; 2,548,750 flops / 19.5e12 = 0.13 us; memory bound: 2 + 3.8.
    CHECK(gab.time_us == exactly(5.8));

    CHECK(gac.inputs == std::vector<OpId>{0});  // the copy of a and c both read x: once
    CHECK(gac.outputs == std::vector<OpId>{3});  // the copy is never written
    CHECK(gac.bytes_read == kT);
    CHECK(gac.bytes_written == kT);
    CHECK(gac.flops == kN + kN);  // the copy's neg n + mul n
    CHECK(gac.time_us == exactly(5.8));

    CHECK(plan.bytes_fused == 5 * kT);  // T + 2T + 2T = 10,195,000
    // x writes T; a reads x, writes a: 2T; b 2T; c reads a and x, writes c: 3T. 8T = 16,312,000.
    CHECK(plan.bytes_unfused == 8 * kT);
    CHECK(plan.flops_unfused == kN + 4 * kN + kN);       // each op once: 6n = 3,058,500
    CHECK(plan.flops_fused == (kN + 4 * kN) + (kN + kN));  // the copy's n counted again: 7n = 3,568,250
    // Unfused kernels a (2 us), b (2 us), c (3 us), each + 3.8: 5.8 + 5.8 + 6.8 = 18.4; fused 5.8 + 5.8 = 11.6.
    CHECK(plan.time_unfused_us == exactly(18.4));
    CHECK(plan.time_fused_us == exactly(11.6));
    CHECK(plan.time_speedup == exactly(18.4 / 11.6));
    CHECK(plan.kernels_unfused == 3);
    CHECK(plan.kernels_fused == 2);
  }

  TEST_CASE("the owner still writes a producer that a group without a copy reads") {
    const FusionGraph g = fan_out_graph(true);
    //   {x}   {a, b}   {a*, c}   {d}
    const FusionPlan plan = priced(g, {{{0}}, {{1, 2}}, {{1, 3}, {1}}, {{4}}}, {0, 1, 1, 2, 3});
    CHECK(plan.groups[1].outputs == std::vector<OpId>{1, 2});
    CHECK(plan.groups[1].bytes_written == 2 * kT);
    CHECK(plan.groups[2].outputs == std::vector<OpId>{3});
    CHECK(plan.groups[3].inputs == std::vector<OpId>{1});
    CHECK(plan.bytes_fused == kT + 3 * kT + 2 * kT + 2 * kT);  // {x} T, {a,b} 3T, {a*,c} 2T, {d} 2T
  }

  TEST_CASE("an op that exists only as copies is never written") {
    const FusionGraph g = fan_out_graph(false);
    //   {x}   {a*, b}   {a*, c}     op_group[a] is the first group that recomputes it
    const FusionPlan plan = priced(g, {{{0}}, {{1, 2}, {1}}, {{1, 3}, {1}}}, {0, 1, 1, 2});
    CHECK(plan.groups[1].inputs == std::vector<OpId>{0});
    CHECK(plan.groups[1].outputs == std::vector<OpId>{2});
    CHECK(plan.groups[2].outputs == std::vector<OpId>{3});
    CHECK(plan.bytes_fused == 5 * kT);
    CHECK(plan.flops_fused == 7 * kN);
    CHECK(plan.flops_unfused == 6 * kN);
  }
}

TEST_SUITE("the output flag") {
  // x -> y = relu(x) (output: true) -> z = neg(y); w = exp(y).
  FusionGraph flagged_graph() {
    FusionGraph g;
    const OpId x = g.add_op(OpKind::input, {}, {509'750});
    FusionOp y;
    y.kind = OpKind::relu;
    y.inputs = {x};
    y.shape = {509'750};
    y.output = true;
    const OpId yid = g.add_op(y);
    g.add_op(OpKind::neg, {yid}, {509'750});
    g.add_op(OpKind::exp, {yid}, {509'750});
    return g;
  }

  TEST_CASE("a flagged member is written although only its own group reads it") {
    const FusionGraph g = flagged_graph();
    const FusionPlan plan = priced(g, {{{0}}, {{1, 2, 3}}}, {0, 1, 1, 1});
    CHECK(plan.groups[1].outputs == std::vector<OpId>{1, 2, 3});
    CHECK(plan.groups[1].bytes_written == 3 * kT);
    CHECK(plan.bytes_fused == kT + kT + 3 * kT);  // {x} writes T; {y, z, w} reads T, writes 3T
  }

  TEST_CASE("a recomputed copy of a flagged op is not written; its owner writes it once") {
    const FusionGraph g = flagged_graph();
    const FusionPlan plan = priced(g, {{{0}}, {{1, 2}}, {{1, 3}, {1}}}, {0, 1, 1, 2});
    CHECK(plan.groups[1].outputs == std::vector<OpId>{1, 2});
    CHECK(plan.groups[2].outputs == std::vector<OpId>{3});
  }

  TEST_CASE("the seed planner prices the flag too") {
    const FusionGraph g = flagged_graph();
    const Expected<FusionPlan> plan = FusionPlanner().plan(g);
    REQUIRE(plan.ok());
    bool found = false;
    for (const FusionGroup& group : plan->groups)
      if (std::find(group.ops.begin(), group.ops.end(), 1) != group.ops.end()) {
        found = true;
        CHECK(std::find(group.outputs.begin(), group.outputs.end(), 1) != group.outputs.end());
      }
    CHECK(found);
  }
}

TEST_SUITE("time") {
  TEST_CASE("the bias-relu example: one memory-bound kernel instead of two") {
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x",    "kind": "input", "shape": [1024, 768], "dtype": "f32"},
      {"name": "bias", "kind": "input", "shape": [768],       "dtype": "f32"},
      {"name": "y",    "kind": "add",   "inputs": ["x", "bias"], "shape": [1024, 768], "dtype": "f32"},
      {"name": "z",    "kind": "relu",  "inputs": ["y"],         "shape": [1024, 768], "dtype": "f32"}]})");
    const FusionPlan plan = priced(g, {{{0}}, {{1}}, {{2, 3}}}, {0, 1, 2, 2});
    // n = 786,432; X = 3,145,728 B; B = 3,072 B. {y, z}: reads X + B, writes X = 6,294,528 B; flops 2n.
    CHECK(plan.groups[2].flops == 2 * 786'432);
    CHECK(plan.flops_fused == 1'572'864);
    CHECK(plan.flops_unfused == 1'572'864);
    // 6,294,528 B / 2.039e12 = 3.087 us > 1,572,864 / 19.5e12 = 0.08 us.
    CHECK(plan.groups[2].time_us == exactly(6'294'528 / 2.039e12 * 1e6 + 3.8));
    CHECK(plan.time_fused_us == exactly(6'294'528 / 2.039e12 * 1e6 + 3.8));
    // Unfused: y moves X + B + X = 6,294,528 B, z moves 2X = 6,291,456 B; two launches.
    CHECK(plan.time_unfused_us == exactly((6'294'528 + 6'291'456) / 2.039e12 * 1e6 + 2 * 3.8));
    CHECK(plan.bytes_fused == 9'443'328);  // the README's numbers, unchanged
    CHECK(plan.bytes_unfused == 15'734'784);
  }

  TEST_CASE("the hardware option picks the device; an unknown name is priced as a100") {
    // 837,500 f32 = 3,350,000 B: 1 us of h100 bandwidth. relu reads x and writes y: 2 us.
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [837500], "dtype": "f32"},
      {"name": "y", "kind": "relu", "inputs": ["x"], "shape": [837500], "dtype": "f32"}]})");
    CHECK(priced(g, {{{0}}, {{1}}}, {0, 1}, "h100").time_fused_us == exactly(5.8));
    const double a100 = 6'700'000 / 2.039e12 * 1e6 + 3.8;  // 3.2859 + 3.8
    CHECK(priced(g, {{{0}}, {{1}}}, {0, 1}, "a100").time_fused_us == exactly(a100));
    CHECK(priced(g, {{{0}}, {{1}}}, {0, 1}, "no-such-gpu").time_fused_us == exactly(a100));
    // rtx4090: 6,700,000 B / 1.008e12 = 6.6468 us.
    CHECK(priced(g, {{{0}}, {{1}}}, {0, 1}, "rtx4090").time_fused_us == exactly(6'700'000 / 1.008e12 * 1e6 + 3.8));
  }

  TEST_CASE("matmul flops run at the matrix peak, its epilogue at the vector peak") {
    // x [1024, 4096] f16, w [4096, 4096] f16, m = x @ w [1024, 4096], r = relu(m).
    const FusionGraph g = graph_from(R"({"ops": [
      {"name": "x", "kind": "input", "shape": [1024, 4096], "dtype": "f16"},
      {"name": "w", "kind": "input", "shape": [4096, 4096], "dtype": "f16"},
      {"name": "m", "kind": "matmul", "inputs": ["x", "w"], "shape": [1024, 4096], "dtype": "f16"},
      {"name": "r", "kind": "relu", "inputs": ["m"], "shape": [1024, 4096], "dtype": "f16"}]})");
    const FusionPlan plan = priced(g, {{{0}}, {{1}}, {{2, 3}}}, {0, 1, 2, 2});
    // matmul: 2 * 4,194,304 * 4096 = 34,359,738,368 matrix flops; relu 4,194,304 vector flops.
    CHECK(plan.groups[2].flops == 34'359'738'368u + 4'194'304u);
    // bytes: reads x 8,388,608 + w 33,554,432, writes r 8,388,608 = 50,331,648 B -> 24.68 us on a100.
    // compute: 34,359,738,368 / 312e12 = 110.13 us + 4,194,304 / 19.5e12 = 0.215 us: compute bound.
    CHECK(plan.groups[2].time_us == exactly((34'359'738'368 / 312e12 + 4'194'304 / 19.5e12) * 1e6 + 3.8));
  }

  TEST_CASE("flop sums saturate instead of wrapping") {
    // Two matmuls of 2^73 flops each (see time_model.test.cpp), put in one group by hand.
    FusionGraph g;
    const std::int64_t d = std::int64_t{1} << 24;
    const OpId x = g.add_op(OpKind::input, {}, {d, d}, 1);
    g.add_op(OpKind::matmul, {x, x}, {d, d}, 1);
    g.add_op(OpKind::matmul, {x, x}, {d, d}, 1);
    const FusionPlan plan = priced(g, {{{0}}, {{1, 2}}}, {0, 1, 1});
    constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
    CHECK(plan.groups[1].flops == kMax);
    CHECK(plan.flops_fused == kMax);
    CHECK(plan.flops_unfused == kMax);
    CHECK(std::isfinite(plan.time_fused_us));
    CHECK(std::isfinite(plan.time_unfused_us));
  }

  TEST_CASE("a graph of sources only takes no time and the speedup is 1.0") {
    const FusionGraph g = graph_from(R"({"ops": [{"kind": "input", "shape": [4], "dtype": "f32"}]})");
    const FusionPlan plan = priced(g, {{{0}}}, {0});
    CHECK(plan.time_fused_us == 0.0);
    CHECK(plan.time_unfused_us == 0.0);
    CHECK(plan.time_speedup == 1.0);
  }
}
