// labels.cpp — one scan per group collects which patterns are present; the first row of the table wins.
#include "fusion/labels.h"

#include <string_view>

namespace fusion {
namespace {

using K = OpKind;

// What one group holds, as far as the label table asks.
struct Found {
  bool conv = false, matmul = false, add = false, activation = false, batch_norm = false, relu = false;
  bool softmax = false, exp_into_reduce = false, layer_norm = false, reduce_mean = false, rsqrt = false;
  bool silu = false, sigmoid_gate = false, residual_add = false;
};

bool is_activation(OpKind kind) {
  return kind == K::relu || kind == K::gelu || kind == K::silu || kind == K::sigmoid || kind == K::tanh ||
         kind == K::leaky_relu || kind == K::clamp;
}

// Membership of the group being scanned: member_of[x] == stamp.
struct Members {
  const std::vector<std::int32_t>& member_of;
  std::int32_t stamp;
  bool has(OpId x) const { return member_of[static_cast<std::size_t>(x)] == stamp; }
};

// A reduce_sum/reduce member reading an exp member.
bool reads_member_exp(const FusionGraph& g, const FusionOp& op, const Members& in_group) {
  if (op.kind != K::reduce_sum && op.kind != K::reduce) return false;
  for (OpId in : op.inputs)
    if (in_group.has(in) && g.op(in).kind == K::exp) return true;
  return false;
}

// A mul of x and a sigmoid(x) member.
bool is_sigmoid_gate(const FusionGraph& g, const FusionOp& op, const Members& in_group) {
  if (op.kind != K::mul || op.inputs.size() != 2) return false;
  const auto gates = [&](OpId s, OpId x) {
    const FusionOp& sig = g.op(s);
    return in_group.has(s) && sig.kind == K::sigmoid && !sig.inputs.empty() && sig.inputs.front() == x;
  };
  return gates(op.inputs[0], op.inputs[1]) || gates(op.inputs[1], op.inputs[0]);
}

// An add of two distinct same-shape non-source tensors, at least one made outside the group.
bool is_residual_add(const FusionGraph& g, const FusionOp& op, const Members& in_group) {
  if (op.kind != K::add || op.inputs.size() != 2) return false;
  const OpId a = op.inputs[0], b = op.inputs[1];
  if (a == b || g.op(a).is_source() || g.op(b).is_source()) return false;
  return g.op(a).shape == g.op(b).shape && !(in_group.has(a) && in_group.has(b));
}

// Does a member of this kind need its op read (its inputs), beyond its kind?
bool reads_inputs(OpKind k) { return k == K::reduce_sum || k == K::reduce || k == K::mul || k == K::add; }

// Notes member x of kind k; its op is read only for the kinds reads_inputs() names.
void note_member(const FusionGraph& g, OpId x, OpKind k, const Members& in_group, Found& f) {
  f.conv = f.conv || k == K::conv;
  f.matmul = f.matmul || k == K::matmul;
  f.add = f.add || k == K::add;
  f.activation = f.activation || is_activation(k);
  f.batch_norm = f.batch_norm || k == K::batch_norm;
  f.relu = f.relu || k == K::relu;
  f.softmax = f.softmax || k == K::softmax;
  f.layer_norm = f.layer_norm || k == K::layer_norm;
  f.reduce_mean = f.reduce_mean || k == K::reduce_mean;
  f.rsqrt = f.rsqrt || k == K::rsqrt;
  f.silu = f.silu || k == K::silu;
  if (!reads_inputs(k)) return;
  const FusionOp& op = g.op(x);
  f.exp_into_reduce = f.exp_into_reduce || reads_member_exp(g, op, in_group);
  f.sigmoid_gate = f.sigmoid_gate || is_sigmoid_gate(g, op, in_group);
  f.residual_add = f.residual_add || is_residual_add(g, op, in_group);
}

// The label table of docs/strategies.md, first matching row first.
std::string_view label_of(const Found& f) {
  const bool anchor = f.conv || f.matmul;
  if (f.conv && f.batch_norm && f.relu) return "conv+bn+relu";
  if (anchor && f.add && f.activation) return f.conv ? "conv+bias+act" : "matmul+bias+act";
  if (anchor && f.add) return f.conv ? "conv+bias" : "matmul+bias";
  if (f.softmax || f.exp_into_reduce) return "softmax";
  if (f.layer_norm || (f.reduce_mean && f.rsqrt)) return "layernorm";
  if (f.silu || f.sigmoid_gate) return "silu";
  if (f.residual_add) return "residual add";
  return "";
}

}  // namespace

void label_groups(const FusionGraph& g, FusionPlan& plan) {
  std::vector<std::int32_t> member_of(g.size(), -1);
  std::vector<OpKind> kind(g.size());  // read once in order: a plan with recomputed copies visits ops many times
  for (std::size_t x = 0; x < g.size(); ++x) kind[x] = g.op(static_cast<OpId>(x)).kind;
  for (std::size_t k = 0; k < plan.groups.size(); ++k) {
    FusionGroup& group = plan.groups[k];
    const Members in_group{member_of, static_cast<std::int32_t>(k)};
    for (OpId x : group.ops) member_of[static_cast<std::size_t>(x)] = in_group.stamp;
    Found found;
    for (OpId x : group.ops) note_member(g, x, kind[static_cast<std::size_t>(x)], in_group, found);
    group.label = label_of(found);
  }
}

}  // namespace fusion
