// numerics/notes.cpp — the note rules stated in notes.h, and is_rounding_point.
#include "numerics/notes.h"

#include <algorithm>

namespace fusion {
namespace {

bool is_exact_kind(OpKind kind) {
  switch (kind) {
    case OpKind::neg: case OpKind::abs: case OpKind::relu: case OpKind::max: case OpKind::min:
    case OpKind::identity: case OpKind::where: case OpKind::sign: case OpKind::floor: case OpKind::ceil:
    case OpKind::round: case OpKind::clamp:
      return true;
    default:
      return false;
  }
}

bool is_order_sensitive_reduction(OpKind kind) {
  switch (kind) {
    case OpKind::reduce: case OpKind::reduce_sum: case OpKind::reduce_mean: case OpKind::reduce_prod:
    case OpKind::softmax: case OpKind::layer_norm: case OpKind::cumsum:
      return true;
    default:
      return false;
  }
}

bool is_nan_choice(OpKind kind) {
  return kind == OpKind::max || kind == OpKind::min || kind == OpKind::clamp || kind == OpKind::reduce_max ||
         kind == OpKind::reduce_min;
}

bool is_comparison(OpKind kind) { return kind == OpKind::equal || kind == OpKind::less || kind == OpKind::greater; }

bool holds(const FusionGroup& group, OpId x) { return std::binary_search(group.ops.begin(), group.ops.end(), x); }

std::string type_name(const FusionGraph& g, OpId x) { return std::string(to_string(numeric_type(g.op(x)))); }

// Does the narrow cast in the middle of u -> v drop something a fused kernel may skip?
bool narrows(NumericType middle, NumericType end, const FusionGraph& g, OpId u, OpId v) {
  const std::int64_t a = g.op(u).dtype_bytes, b = g.op(v).dtype_bytes;
  return a < b || (a == b && middle != end && is_float(middle) && is_float(end));
}

}  // namespace

bool is_rounding_point(const FusionGraph& graph, OpId x) {
  const FusionOp& op = graph.op(x);
  const NumericType type = numeric_type(op);
  if (op.is_source() || !is_low_precision_float(type)) return false;
  if (!is_exact_kind(op.kind)) return true;
  // where(c, a, b): the condition's type does not matter, only the values it picks.
  for (std::size_t k = op.kind == OpKind::where ? 1 : 0; k < op.inputs.size(); ++k)
    if (numeric_type(graph.op(op.inputs[k])) != type) return true;
  return false;
}

namespace numerics {

OpId contracted_input(const FusionGraph& g, const FusionGroup& group, OpId v) {
  const FusionOp& op = g.op(v);
  if ((op.kind != OpKind::add && op.kind != OpKind::sub) || !is_float(numeric_type(op)) || !holds(group, v)) return -1;
  for (OpId u : op.inputs)
    if (g.op(u).kind == OpKind::mul && holds(group, u) && !g.op(u).is_source() && is_float(numeric_type(g.op(u))))
      return u;
  return -1;
}

std::vector<NumericsNote> group_notes(const FusionGraph& g, const FusionPlan& plan, const FusionGroup& group) {
  std::vector<NumericsNote> notes;
  if (group.ops.size() < 2) return notes;
  const bool parity = plan.options.numerics.parity;
  // Readers of each member inside the group, ascending, without repeats.
  std::vector<std::vector<OpId>> readers(group.ops.size());
  const auto index_of = [&](OpId x) { return std::lower_bound(group.ops.begin(), group.ops.end(), x) - group.ops.begin(); };
  for (OpId v : group.ops)
    for (OpId u : g.op(v).inputs)
      if (holds(group, u)) {
        auto& list = readers[static_cast<std::size_t>(index_of(u))];
        if (list.empty() || list.back() != v) list.push_back(v);
      }
  for (std::size_t i = 0; i < group.ops.size(); ++i) {
    const OpId x = group.ops[i];
    const FusionOp& op = g.op(x);
    const NumericType type = numeric_type(op);
    const std::string who = describe_op(g, x);
    if (!readers[i].empty() && is_rounding_point(g, x)) {
      NumericsNote note{"rounding", {x}, {}};
      note.ops.insert(note.ops.end(), readers[i].begin(), readers[i].end());
      note.message = who + " is " + type_name(g, x) + ": inside this kernel " +
                     (readers[i].size() == 1 ? "its reader gets" : std::to_string(readers[i].size()) + " readers get") +
                     " its f32 value, where the unfused graph rounds it to " + type_name(g, x) + " on the store";
      notes.push_back(std::move(note));
    }
    if (!parity)
      if (const OpId u = numerics::contracted_input(g, group, x); u >= 0)
        notes.push_back({"contraction", {u, x},
                         "the multiply " + describe_op(g, u) + " feeds " + who +
                             " in this kernel: an FMA candidate, one rounding instead of two"});
    if (is_order_sensitive_reduction(op.kind) && is_float(type))
      notes.push_back({"reduction_order", {x},
                       who + " reduces inside a fused kernel: the kernel's loop nest, not the reduction's own kernel, "
                             "decides the order its elements are summed in"});
    if (is_nan_choice(op.kind) && is_float(type))
      notes.push_back({"nan", {x},
                       who + " is a " + std::string(to_string(op.kind)) +
                           ": whether a NaN propagates or is dropped (IEEE maxNum, fast-math) is the fused kernel's choice"});
    if (op.kind == OpKind::where && op.inputs.size() == 3 && holds(group, op.inputs[0]) &&
        is_comparison(g.op(op.inputs[0]).kind))
      notes.push_back({"nan", {x, op.inputs[0]},
                       who + " picks by the comparison " + describe_op(g, op.inputs[0]) +
                           " in this kernel: under fast-math (no NaNs) the comparison may be folded"});
    if (op.kind == OpKind::cast && !op.inputs.empty()) {
      const OpId u = op.inputs[0];
      const NumericType middle = numeric_type(g.op(u)), start = g.op(u).inputs.empty()
                                                                   ? middle
                                                                   : numeric_type(g.op(g.op(u).inputs[0]));
      if (g.op(u).kind == OpKind::cast && holds(group, u) && narrows(middle, type, g, u, x))
        notes.push_back({"cast", {u, x},
                         "the casts " + describe_op(g, u) + " and " + who + " go " + std::string(to_string(start)) +
                             " -> " + type_name(g, u) + " -> " + type_name(g, x) +
                             " in one kernel: a fused kernel may elide the pair (Inductor does unless "
                             "emulate_precision_casts), dropping what " + type_name(g, u) + " cut off"});
    }
  }
  return notes;
}

}  // namespace numerics

std::vector<std::vector<NumericsNote>> fusion_notes(const FusionGraph& graph, const FusionPlan& plan) {
  std::vector<std::vector<NumericsNote>> out;
  out.reserve(plan.groups.size());
  for (const FusionGroup& group : plan.groups) out.push_back(numerics::group_notes(graph, plan, group));
  return out;
}

}  // namespace fusion
