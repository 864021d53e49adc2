// labels.test.cpp — pattern labels: each row of the table, which row wins, and groups with no label.
#include <algorithm>

#include "test_graphs.h"

#include "fusion/labels.h"

using namespace fusion;
using namespace fusion::testing;

namespace {

// Labels of hand-made groups given as op names (every other op is left out; label_groups only reads
// each group's members).
std::vector<std::string> labels(const FusionGraph& g, const std::vector<std::vector<std::string>>& groups) {
  FusionPlan plan;
  for (const auto& names : groups) {
    FusionGroup group;
    group.id = static_cast<std::int32_t>(plan.groups.size());
    for (const std::string& name : names)
      for (std::size_t x = 0; x < g.size(); ++x)
        if (g.op(static_cast<OpId>(x)).name == name) group.ops.push_back(static_cast<OpId>(x));
    REQUIRE(group.ops.size() == names.size());
    std::sort(group.ops.begin(), group.ops.end());
    group.label = "stale";  // label_groups overwrites every label
    plan.groups.push_back(group);
  }
  label_groups(g, plan);
  std::vector<std::string> out;
  for (const FusionGroup& group : plan.groups) out.push_back(group.label);
  return out;
}

std::string label(const FusionGraph& g, const std::vector<std::string>& group) { return labels(g, {group}).front(); }

// img -> conv(img, k) -> bn -> add(., bias) -> relu / gelu; x -> matmul(x, w) -> add(., b2) -> tanh.
FusionGraph anchor_graph() {
  return graph_from(R"({"ops": [
    {"name": "img",  "kind": "input", "shape": [1, 3, 8, 8], "dtype": "f32"},
    {"name": "k",    "kind": "input", "shape": [4, 3, 3, 3], "dtype": "f32"},
    {"name": "bias", "kind": "input", "shape": [4, 1, 1], "dtype": "f32"},
    {"name": "conv", "kind": "conv", "inputs": ["img", "k"], "shape": [1, 4, 6, 6], "dtype": "f32"},
    {"name": "bn",   "kind": "batch_norm", "inputs": ["conv"], "shape": [1, 4, 6, 6], "dtype": "f32"},
    {"name": "cadd", "kind": "add", "inputs": ["bn", "bias"], "shape": [1, 4, 6, 6], "dtype": "f32"},
    {"name": "relu", "kind": "relu", "inputs": ["bn"], "shape": [1, 4, 6, 6], "dtype": "f32"},
    {"name": "gelu", "kind": "gelu", "inputs": ["cadd"], "shape": [1, 4, 6, 6], "dtype": "f32"},
    {"name": "neg",  "kind": "neg", "inputs": ["cadd"], "shape": [1, 4, 6, 6], "dtype": "f32"},
    {"name": "x",    "kind": "input", "shape": [2, 8], "dtype": "f32"},
    {"name": "w",    "kind": "input", "shape": [8, 4], "dtype": "f32"},
    {"name": "b2",   "kind": "input", "shape": [4], "dtype": "f32"},
    {"name": "mm",   "kind": "matmul", "inputs": ["x", "w"], "shape": [2, 4], "dtype": "f32"},
    {"name": "madd", "kind": "add", "inputs": ["mm", "b2"], "shape": [2, 4], "dtype": "f32"},
    {"name": "tanh", "kind": "tanh", "inputs": ["madd"], "shape": [2, 4], "dtype": "f32"},
    {"name": "clamp", "kind": "clamp", "inputs": ["madd"], "shape": [2, 4], "dtype": "f32"}]})");
}

// x -> exp -> reduce_sum; x -> reduce_sum; reduce_mean, rsqrt, layer_norm, softmax, silu, sigmoid gates.
FusionGraph norm_graph() {
  return graph_from(R"({"ops": [
    {"name": "x",     "kind": "input", "shape": [4, 8], "dtype": "f32"},
    {"name": "h",     "kind": "relu", "inputs": ["x"], "shape": [4, 8], "dtype": "f32"},
    {"name": "exp",   "kind": "exp", "inputs": ["x"], "shape": [4, 8], "dtype": "f32"},
    {"name": "esum",  "kind": "reduce_sum", "inputs": ["exp"], "shape": [4, 1], "dtype": "f32"},
    {"name": "ered",  "kind": "reduce", "inputs": ["exp"], "shape": [4, 1], "dtype": "f32"},
    {"name": "xsum",  "kind": "reduce_sum", "inputs": ["x"], "shape": [4, 1], "dtype": "f32"},
    {"name": "sm",    "kind": "softmax", "inputs": ["x"], "shape": [4, 8], "dtype": "f32"},
    {"name": "mean",  "kind": "reduce_mean", "inputs": ["x"], "shape": [4, 1], "dtype": "f32"},
    {"name": "rsqrt", "kind": "rsqrt", "inputs": ["mean"], "shape": [4, 1], "dtype": "f32"},
    {"name": "ln",    "kind": "layer_norm", "inputs": ["x"], "shape": [4, 8], "dtype": "f32"},
    {"name": "silu",  "kind": "silu", "inputs": ["h"], "shape": [4, 8], "dtype": "f32"},
    {"name": "sig",   "kind": "sigmoid", "inputs": ["h"], "shape": [4, 8], "dtype": "f32"},
    {"name": "gate",  "kind": "mul", "inputs": ["h", "sig"], "shape": [4, 8], "dtype": "f32"},
    {"name": "gate2", "kind": "mul", "inputs": ["sig", "h"], "shape": [4, 8], "dtype": "f32"},
    {"name": "other", "kind": "mul", "inputs": ["x", "sig"], "shape": [4, 8], "dtype": "f32"}]})");
}

// Residual adds: h and k are made in other groups, r = h + k; s = h + bias (a source); d = h + h;
// v = h + row (broadcast, different shapes); inner = h + n where n = neg(h) is made in the same group.
FusionGraph residual_graph() {
  return graph_from(R"({"ops": [
    {"name": "x",     "kind": "input", "shape": [4, 8], "dtype": "f32"},
    {"name": "bias",  "kind": "input", "shape": [4, 8], "dtype": "f32"},
    {"name": "h",     "kind": "relu", "inputs": ["x"], "shape": [4, 8], "dtype": "f32"},
    {"name": "k",     "kind": "neg", "inputs": ["x"], "shape": [4, 8], "dtype": "f32"},
    {"name": "row",   "kind": "reduce_sum", "inputs": ["x"], "shape": [8], "dtype": "f32"},
    {"name": "r",     "kind": "add", "inputs": ["h", "k"], "shape": [4, 8], "dtype": "f32"},
    {"name": "s",     "kind": "add", "inputs": ["h", "bias"], "shape": [4, 8], "dtype": "f32"},
    {"name": "d",     "kind": "add", "inputs": ["h", "h"], "shape": [4, 8], "dtype": "f32"},
    {"name": "v",     "kind": "add", "inputs": ["h", "row"], "shape": [4, 8], "dtype": "f32"},
    {"name": "n",     "kind": "neg", "inputs": ["h"], "shape": [4, 8], "dtype": "f32"},
    {"name": "inner", "kind": "add", "inputs": ["h", "n"], "shape": [4, 8], "dtype": "f32"},
    {"name": "sig",   "kind": "sigmoid", "inputs": ["h"], "shape": [4, 8], "dtype": "f32"},
    {"name": "gate",  "kind": "mul", "inputs": ["h", "sig"], "shape": [4, 8], "dtype": "f32"}]})");
}

}  // namespace

TEST_SUITE("anchor labels") {
  TEST_CASE("conv, batch_norm and relu make conv+bn+relu") {
    CHECK(label(anchor_graph(), {"conv", "bn", "relu"}) == "conv+bn+relu");
  }

  TEST_CASE("an anchor, an add and an activation make <anchor>+bias+act") {
    const FusionGraph g = anchor_graph();
    CHECK(label(g, {"conv", "cadd", "gelu"}) == "conv+bias+act");
    CHECK(label(g, {"mm", "madd", "tanh"}) == "matmul+bias+act");
    CHECK(label(g, {"mm", "madd", "clamp"}) == "matmul+bias+act");
  }

  TEST_CASE("an anchor and an add make <anchor>+bias") {
    const FusionGraph g = anchor_graph();
    CHECK(label(g, {"conv", "cadd"}) == "conv+bias");
    CHECK(label(g, {"mm", "madd"}) == "matmul+bias");
    CHECK(label(g, {"conv", "cadd", "neg"}) == "conv+bias");  // neg is no activation
  }

  TEST_CASE("an anchor without an add has no anchor label") {
    const FusionGraph g = anchor_graph();
    CHECK(label(g, {"conv", "relu"}).empty());
    CHECK(label(g, {"mm"}).empty());
    CHECK(label(g, {"conv", "bn"}).empty());
  }

  TEST_CASE("the first matching row wins") {
    const FusionGraph g = anchor_graph();
    // conv + bn + relu + add + gelu matches rows 1-3: row 1 wins.
    CHECK(label(g, {"conv", "bn", "cadd", "relu", "gelu"}) == "conv+bn+relu");
    // bias+act (row 2) before bias (row 3).
    CHECK(label(g, {"conv", "bn", "cadd", "gelu"}) == "conv+bias+act");
    // a group holding both anchors is named for the conv.
    CHECK(label(g, {"conv", "mm", "madd"}) == "conv+bias");
  }
}

TEST_SUITE("normalisation and activation labels") {
  TEST_CASE("softmax: a softmax op, or exp feeding a reduce_sum or reduce in the group") {
    const FusionGraph g = norm_graph();
    CHECK(label(g, {"sm"}) == "softmax");
    CHECK(label(g, {"exp", "esum"}) == "softmax");
    CHECK(label(g, {"exp", "ered"}) == "softmax");
    CHECK(label(g, {"exp", "xsum"}).empty());  // xsum reads x, not exp
    CHECK(label(g, {"esum"}).empty());         // the exp is made in another group
  }

  TEST_CASE("layernorm: a layer_norm op, or reduce_mean with rsqrt") {
    const FusionGraph g = norm_graph();
    CHECK(label(g, {"ln"}) == "layernorm");
    CHECK(label(g, {"mean", "rsqrt"}) == "layernorm");
    CHECK(label(g, {"mean"}).empty());
    CHECK(label(g, {"rsqrt"}).empty());
  }

  TEST_CASE("silu: a silu op, or x times sigmoid(x) in either order") {
    const FusionGraph g = norm_graph();
    CHECK(label(g, {"silu"}) == "silu");
    CHECK(label(g, {"sig", "gate"}) == "silu");
    CHECK(label(g, {"sig", "gate2"}) == "silu");
    CHECK(label(g, {"sig", "other"}).empty());  // x * sigmoid(h): not the same tensor
    CHECK(label(g, {"gate"}).empty());          // the sigmoid is made in another group
  }

  TEST_CASE("softmax before layernorm before silu") {
    const FusionGraph g = norm_graph();
    CHECK(label(g, {"exp", "esum", "mean", "rsqrt", "silu"}) == "softmax");
    CHECK(label(g, {"mean", "rsqrt", "silu"}) == "layernorm");
  }
}

TEST_SUITE("residual add") {
  TEST_CASE("an add of two same-shape tensors made elsewhere is a residual add") {
    const FusionGraph g = residual_graph();
    CHECK(labels(g, {{"h"}, {"k"}, {"r"}}) == std::vector<std::string>{"", "", "residual add"});
    CHECK(label(g, {"h", "r"}) == "residual add");  // k still comes from another group
  }

  TEST_CASE("not a residual add: a source operand, one tensor twice, broadcast shapes, both operands inside") {
    const FusionGraph g = residual_graph();
    CHECK(label(g, {"s"}).empty());
    CHECK(label(g, {"d"}).empty());
    CHECK(label(g, {"v"}).empty());
    CHECK(label(g, {"h", "n", "inner"}).empty());
  }

  TEST_CASE("silu wins over residual add") {
    CHECK(label(residual_graph(), {"sig", "gate", "r"}) == "silu");
  }
}

TEST_CASE("sources and plain elementwise groups have no label") {
  const FusionGraph g = residual_graph();
  CHECK(labels(g, {{"x"}, {"bias"}, {"h", "n"}}) == std::vector<std::string>{"", "", ""});
}

TEST_CASE("a seed plan: the add that reads a transpose made in another kernel is a residual add") {
  //   x -> t = transpose(x) -> a = relu(t) -> r = add(a, t)      seed groups: {x} {t} {a, r}
  const FusionGraph g = graph_from(R"({"ops": [
    {"name": "x", "kind": "input", "shape": [4, 4], "dtype": "f32"},
    {"name": "t", "kind": "transpose", "inputs": ["x"], "shape": [4, 4], "dtype": "f32"},
    {"name": "a", "kind": "relu", "inputs": ["t"], "shape": [4, 4], "dtype": "f32"},
    {"name": "r", "kind": "add", "inputs": ["a", "t"], "shape": [4, 4], "dtype": "f32"}]})");
  FusionPlan plan = plan_checked(g);
  REQUIRE(fused_groups(g, plan) == std::vector<std::vector<std::string>>{{"a", "r"}});
  label_groups(g, plan);
  CHECK(group_of_op(g, plan, "r").label == "residual add");
  CHECK(group_of_op(g, plan, "t").label.empty());
  CHECK(group_of_op(g, plan, "x").label.empty());
}
