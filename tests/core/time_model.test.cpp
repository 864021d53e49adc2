// time_model.test.cpp — flops per op kind, the device profiles, and the roofline kernel time.
#include <cmath>
#include <limits>

#include "test_graphs.h"

#include "fusion/hardware.h"
#include "fusion/time_model.h"

using namespace fusion;
using namespace fusion::testing;

namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

OpId id_of(const FusionGraph& g, const std::string& name) {
  for (std::size_t x = 0; x < g.size(); ++x)
    if (g.op(static_cast<OpId>(x)).name == name) return static_cast<OpId>(x);
  FAIL("no op named " << name);
  return -1;
}

std::uint64_t flops_of(const FusionGraph& g, const std::string& name) { return op_flops(g, id_of(g, name)); }

HardwareProfile profile(std::string_view name) {
  const auto p = hardware_profile(name);
  REQUIRE(p.has_value());
  return *p;
}

doctest::Approx exactly(double value) { return doctest::Approx(value).epsilon(1e-12); }

}  // namespace

// One op of each interesting kind. x is [4, 8]: n = 32 for every op shaped like it.
FusionGraph kinds_graph() {
  return graph_from(R"({"ops": [
    {"name": "x",    "kind": "input", "shape": [4, 8], "dtype": "f32"},
    {"name": "w",    "kind": "input", "shape": [8, 16], "dtype": "f32"},
    {"name": "m",    "kind": "matmul", "inputs": ["x", "w"], "shape": [4, 16], "dtype": "f32"},
    {"name": "relu", "kind": "relu", "inputs": ["x"], "shape": [4, 8], "dtype": "f32"},
    {"name": "add",  "kind": "add", "inputs": ["x", "x"], "shape": [4, 8], "dtype": "f32"},
    {"name": "exp",  "kind": "exp", "inputs": ["x"], "shape": [4, 8], "dtype": "f32"},
    {"name": "div",  "kind": "div", "inputs": ["x", "x"], "shape": [4, 8], "dtype": "f32"},
    {"name": "cast", "kind": "cast", "inputs": ["x"], "shape": [4, 8], "dtype": "f16"},
    {"name": "id",   "kind": "identity", "inputs": ["x"], "shape": [4, 8], "dtype": "f32"},
    {"name": "t",    "kind": "transpose", "inputs": ["x"], "shape": [8, 4], "dtype": "f32"},
    {"name": "rs",   "kind": "reshape", "inputs": ["x"], "shape": [32], "dtype": "f32"},
    {"name": "sum",  "kind": "reduce_sum", "inputs": ["x"], "shape": [4], "dtype": "f32"},
    {"name": "sm",   "kind": "softmax", "inputs": ["x"], "shape": [4, 8], "dtype": "f32"},
    {"name": "ln",   "kind": "layer_norm", "inputs": ["x"], "shape": [4, 8], "dtype": "f32"},
    {"name": "bn",   "kind": "batch_norm", "inputs": ["x"], "shape": [4, 8], "dtype": "f32"},
    {"name": "op",   "kind": "opaque", "inputs": ["x"], "shape": [3], "dtype": "f32"},
    {"name": "sort", "kind": "sort", "inputs": ["x"], "shape": [4, 8], "dtype": "f32"},
    {"name": "img",  "kind": "input", "shape": [1, 3, 10, 10], "dtype": "f32"},
    {"name": "k",    "kind": "input", "shape": [16, 3, 3, 3], "dtype": "f32"},
    {"name": "conv", "kind": "conv", "inputs": ["img", "k"], "shape": [1, 16, 8, 8], "dtype": "f32"},
    {"name": "conv1", "kind": "conv", "inputs": ["img"], "shape": [1, 3, 10, 10], "dtype": "f32"},
    {"name": "pool", "kind": "avg_pool", "inputs": ["img"], "shape": [1, 3, 5, 5], "dtype": "f32"},
    {"name": "mpool", "kind": "max_pool", "inputs": ["img"], "shape": [1, 3, 5, 5], "dtype": "f32"},
    {"name": "s",    "kind": "input", "shape": [], "dtype": "f32"},
    {"name": "ms",   "kind": "matmul", "inputs": ["s", "x"], "shape": [4, 8], "dtype": "f32"},
    {"name": "e",    "kind": "input", "shape": [4, 0], "dtype": "f32"},
    {"name": "me",   "kind": "matmul", "inputs": ["e", "w"], "shape": [4, 16], "dtype": "f32"}]})");
}

TEST_SUITE("flops per op kind") {

  TEST_CASE("sources, movement kinds, identity and cast cost nothing") {
    const FusionGraph g = kinds_graph();
    CHECK(flops_of(g, "x") == 0);
    CHECK(flops_of(g, "cast") == 0);
    CHECK(flops_of(g, "id") == 0);
    CHECK(flops_of(g, "t") == 0);
    CHECK(flops_of(g, "rs") == 0);
  }

  TEST_CASE("an op without inputs is a source whatever its kind") {
    FusionGraph h;
    h.add_op(OpKind::relu, {}, {10});
    CHECK(op_flops(h, 0) == 0);
  }

  TEST_CASE("cheap elementwise costs n, expensive elementwise 4n") {
    const FusionGraph g = kinds_graph();
    CHECK(flops_of(g, "relu") == 32);
    CHECK(flops_of(g, "add") == 32);
    CHECK(flops_of(g, "exp") == 4 * 32);  // 128
    CHECK(flops_of(g, "div") == 4 * 32);  // div is on the expensive list
  }

  TEST_CASE("matmul costs 2nK with K the last dimension of its first input") {
    const FusionGraph g = kinds_graph();
    CHECK(flops_of(g, "m") == 2 * 64 * 8);  // n = 4 * 16 = 64, K = 8: 1024
    CHECK(flops_of(g, "ms") == 2 * 32 * 1);  // a scalar first input counts as K = 1: 64
    CHECK(flops_of(g, "me") == 0);           // K = 0
  }

  TEST_CASE("conv costs 2n times the weight's elements per output channel") {
    const FusionGraph g = kinds_graph();
    // n = 16 * 8 * 8 = 1024; weight 16 * 3 * 3 * 3 = 432 elements / 16 = 27: 2 * 1024 * 27 = 55,296.
    CHECK(flops_of(g, "conv") == 55'296);
    CHECK(flops_of(g, "conv1") == 2 * 300);  // no weight: 2n, n = 3 * 10 * 10
  }

  TEST_CASE("reductions and pooling cost the elements of their first input") {
    const FusionGraph g = kinds_graph();
    CHECK(flops_of(g, "sum") == 32);     // reads 4 * 8
    CHECK(flops_of(g, "pool") == 300);   // reads 1 * 3 * 10 * 10
    CHECK(flops_of(g, "mpool") == 300);
  }

  TEST_CASE("softmax 5n, layer_norm 8n, batch_norm 2n, anything else n") {
    const FusionGraph g = kinds_graph();
    CHECK(flops_of(g, "sm") == 160);
    CHECK(flops_of(g, "ln") == 256);
    CHECK(flops_of(g, "bn") == 64);
    CHECK(flops_of(g, "op") == 3);
    CHECK(flops_of(g, "sort") == 32);
  }

  TEST_CASE("only matmul and conv run at the matrix peak") {
    CHECK(uses_matrix_peak(OpKind::matmul));
    CHECK(uses_matrix_peak(OpKind::conv));
    for (OpKind kind : all_op_kinds())
      if (kind != OpKind::matmul && kind != OpKind::conv) CHECK_FALSE(uses_matrix_peak(kind));
  }
}

TEST_SUITE("flop counts saturate") {
  TEST_CASE("a legal matmul whose 2nK passes 2^64 saturates instead of wrapping") {
    // f8 [2^24, 2^24] tensors are 2^48 bytes each; the unfused total 5 * 2^48 is below 2^53, so the graph is
    // legal. n = 2^48, K = 2^24: 2 * 2^48 * 2^24 = 2^73 > 2^64.
    FusionGraph g;
    const std::int64_t d = std::int64_t{1} << 24;
    const OpId x = g.add_op(OpKind::input, {}, {d, d}, 1);
    const OpId w = g.add_op(OpKind::input, {}, {d, d}, 1);
    const OpId m = g.add_op(OpKind::matmul, {x, w}, {d, d}, 1);
    CHECK(validate(g).empty());
    CHECK(op_flops(g, m) == kMax);
  }

  TEST_CASE("counts above 2^53 are exact while they fit in 64 bits") {
    // n = 2^40, K = 2^20: 2 * 2^40 * 2^20 = 2^61.
    FusionGraph g;
    const std::int64_t d = std::int64_t{1} << 20;
    const OpId x = g.add_op(OpKind::input, {}, {d, d}, 1);
    const OpId m = g.add_op(OpKind::matmul, {x, x}, {d, d}, 1);
    CHECK(op_flops(g, m) == std::uint64_t{1} << 61);
  }

  TEST_CASE("a zero dimension gives zero elements however large the others") {
    FusionGraph g;
    const std::int64_t huge = std::int64_t{1} << 62;
    const OpId x = g.add_op(OpKind::input, {}, {0, huge, huge});
    CHECK(op_flops(g, g.add_op(OpKind::exp, {x}, {0, huge, huge})) == 0);
    CHECK(op_flops(g, g.add_op(OpKind::reduce_sum, {x}, {huge})) == 0);
  }

  TEST_CASE("a reduction over more than 2^64 elements saturates") {
    FusionGraph g;  // 2^32 * 2^32 * 2 = 2^65 elements (not a legal graph, but op_flops must not wrap)
    const std::int64_t d = std::int64_t{1} << 32;
    const OpId x = g.add_op(OpKind::input, {}, {d, d, 2}, 1);
    CHECK(op_flops(g, g.add_op(OpKind::reduce_sum, {x}, {d})) == kMax);
  }

  TEST_CASE("a saturated count still gives a finite time") {
    // 2^64 / 19.5e12 flop/s is about 9.46e5 s, that is 9.46e11 us.
    const double t = kernel_time_us(0, kMax, 0, profile("a100"));
    CHECK(std::isfinite(t));
    CHECK(t == doctest::Approx(18446744073709551616.0 / 19.5e12 * 1e6 + 3.8));
  }
}

TEST_SUITE("hardware profiles") {
  TEST_CASE("three devices, in order") {
    const auto names = hardware_names();
    REQUIRE(names.size() == 3);
    CHECK(names[0] == "h100");
    CHECK(names[1] == "a100");
    CHECK(names[2] == "rtx4090");
    for (std::string_view name : names) {
      CHECK(profile(name).name == name);
      CHECK_FALSE(profile(name).description.empty());
    }
    CHECK_FALSE(hardware_profile("tpu").has_value());
    CHECK_FALSE(hardware_profile("A100").has_value());  // names are exact
  }

  TEST_CASE("the published peaks of docs/strategies.md") {
    const HardwareProfile h100 = profile("h100"), a100 = profile("a100"), rtx = profile("rtx4090");
    CHECK(h100.bandwidth_bytes_per_s == 3'350'000'000'000.0);     // 3.35 TB/s
    CHECK(h100.vector_flops_per_s == 67'000'000'000'000.0);       // 67 TFLOP/s
    CHECK(h100.matrix_flops_per_s == 989'500'000'000'000.0);      // 1979 sparse / 2
    CHECK(a100.bandwidth_bytes_per_s == 2'039'000'000'000.0);     // 2,039 GB/s
    CHECK(a100.vector_flops_per_s == 19'500'000'000'000.0);
    CHECK(a100.matrix_flops_per_s == 312'000'000'000'000.0);
    CHECK(rtx.bandwidth_bytes_per_s == 1'008'000'000'000.0);      // 1008 GB/s
    CHECK(rtx.vector_flops_per_s == 82'600'000'000'000.0);
    CHECK(rtx.matrix_flops_per_s == 165'200'000'000'000.0);
    for (const HardwareProfile& p : {h100, a100, rtx}) CHECK(p.launch_us == 3.8);
  }
}

TEST_SUITE("kernel time") {
  TEST_CASE("an empty kernel costs exactly its launch") {
    for (std::string_view name : hardware_names()) CHECK(kernel_time_us(0, 0, 0, profile(name)) == 3.8);
  }

  TEST_CASE("a100: the larger of memory and compute time, plus the launch") {
    const HardwareProfile a100 = profile("a100");
    // memory bound: 4,078,000 B / 2.039e12 B/s = 2 us; 19,500,000 / 19.5e12 = 1 us; 2 + 3.8.
    CHECK(kernel_time_us(4'078'000, 19'500'000, 0, a100) == exactly(5.8));
    // compute bound: 2,039,000 B = 1 us; vector 39,000,000 = 2 us plus matrix 312,000,000 = 1 us: 3 + 3.8.
    CHECK(kernel_time_us(2'039'000, 39'000'000, 312'000'000, a100) == exactly(6.8));
  }

  TEST_CASE("h100") {
    const HardwareProfile h100 = profile("h100");
    // 3,350,000 B = 1 us; vector 134,000,000 / 67e12 = 2 us plus matrix 989,500,000 / 989.5e12 = 1 us: 3 + 3.8.
    CHECK(kernel_time_us(3'350'000, 134'000'000, 989'500'000, h100) == exactly(6.8));
    // 10,050,000 B = 3 us against 67,000,000 vector flops = 1 us: 3 + 3.8.
    CHECK(kernel_time_us(10'050'000, 67'000'000, 0, h100) == exactly(6.8));
  }

  TEST_CASE("rtx4090") {
    const HardwareProfile rtx = profile("rtx4090");
    // 1,008,000 B = 1 us against matrix 330,400,000 / 165.2e12 = 2 us: 2 + 3.8.
    CHECK(kernel_time_us(1'008'000, 0, 330'400'000, rtx) == exactly(5.8));
    // 5,040,000 B = 5 us against 82,600,000 / 82.6e12 = 1 us plus 165,200,000 / 165.2e12 = 1 us: 5 + 3.8.
    CHECK(kernel_time_us(5'040'000, 82'600'000, 165'200'000, rtx) == exactly(8.8));
  }

  TEST_CASE("matrix flops are cheaper than the same vector flops") {
    // a100: 312,000,000 flops take 1 us on the tensor cores but 16 us on the vector units.
    const HardwareProfile a100 = profile("a100");
    CHECK(kernel_time_us(0, 0, 312'000'000, a100) == exactly(4.8));
    CHECK(kernel_time_us(0, 312'000'000, 0, a100) == exactly(19.8));
  }
}
