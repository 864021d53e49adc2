// numerics/program.cpp — make_program: the form of each op and its projections, or the reason it is fresh.
#include "numerics/program.h"

#include <algorithm>

#include "numerics/elementwise.h"

namespace fusion::numerics {
namespace {

std::string shape_text(const Shape& shape) {
  std::string text = "[";
  for (std::size_t d = 0; d < shape.size(); ++d) text += (d ? ", " : "") + std::to_string(shape[d]);
  return text + "]";
}

Program fresh(std::string reason) {
  Program p;
  p.skip_reason = std::move(reason);
  return p;
}

bool is_reduce_kind(OpKind k) {
  return k == OpKind::reduce || k == OpKind::reduce_sum || k == OpKind::reduce_mean || k == OpKind::reduce_max ||
         k == OpKind::reduce_min || k == OpKind::reduce_prod;
}

// Input k's projection onto the output: NumPy broadcasting; batch_norm's parameters [C] along dimension 1.
std::optional<Strides> input_projection(const FusionOp& op, std::size_t k, const Shape& in) {
  if (op.kind == OpKind::batch_norm && k > 0 && in.size() == 1 && op.shape.size() >= 2 && in[0] == op.shape[1]) {
    Shape channel(op.shape.size() - 1, 1);
    channel[0] = in[0];
    return broadcast_projection(channel, op.shape);
  }
  return broadcast_projection(in, op.shape);
}

// Does the projection read element i at offset i (a tensor of the output's shape, leading 1s aside)?
bool same_order(const Strides& projection, const Shape& out) {
  const Strides strides = row_major_strides(out);
  for (std::size_t d = 0; d < out.size(); ++d)
    if (out[d] != 1 && projection[d] != strides[d]) return false;
  return true;
}

Program elementwise(const FusionGraph& g, OpId x, std::size_t least, std::size_t most) {
  const FusionOp& op = g.op(x);
  if (op.inputs.size() < least || op.inputs.size() > most)
    return fresh(std::string(to_string(op.kind)) + " reads " + std::to_string(least) +
                 (least == most ? "" : " to " + std::to_string(most)) + " inputs; this one has " +
                 std::to_string(op.inputs.size()));
  Program p;
  p.form = Form::elementwise;
  for (std::size_t k = 0; k < op.inputs.size(); ++k) {
    const Shape& in = g.op(op.inputs[k]).shape;
    std::optional<Strides> s = input_projection(op, k, in);
    if (!s)
      return fresh("input " + std::to_string(k) + " of shape " + shape_text(in) + " does not broadcast to the output " +
                   shape_text(op.shape));
    p.projections.push_back(std::move(*s));
  }
  // The direct case: each input has the output's elements in the same order, or one element.
  std::vector<bool> scalar;
  for (std::size_t k = 0; k < op.inputs.size(); ++k) {
    const std::int64_t count = element_count(g.op(op.inputs[k]).shape);
    if (count == 1) scalar.push_back(true);
    else if (count == element_count(op.shape) && same_order(p.projections[k], op.shape)) scalar.push_back(false);
    else return p;
  }
  p.scalar = std::move(scalar);
  return p;
}

// The reduced dimensions of input 0 and the base projection over the output.
Program reduce(const FusionGraph& g, OpId x, std::int64_t max_elements) {
  const FusionOp& op = g.op(x);
  if (op.inputs.empty()) return fresh("a reduction needs an input");
  const Shape& in = g.op(op.inputs[0]).shape;
  const Shape& out = op.shape;
  const Strides in_strides = row_major_strides(in);
  std::vector<bool> reduced(in.size(), false);
  Strides base(out.size(), 0);
  bool ok = true;
  if (out.size() == in.size()) {
    for (std::size_t d = 0; d < in.size() && ok; ++d) {
      if (out[d] == in[d]) base[d] = in_strides[d];
      else if (out[d] == 1) reduced[d] = true;
      else ok = false;
    }
  } else if (out.size() < in.size()) {
    std::size_t j = 0;
    for (std::size_t d = 0; d < in.size(); ++d) {
      if (j < out.size() && out[j] == in[d]) base[j++] = in_strides[d];
      else reduced[d] = true;
    }
    ok = j == out.size();
  } else {
    ok = false;
  }
  if (!ok) return fresh("the output " + shape_text(out) + " is no reduction of the input " + shape_text(in));
  std::int64_t count = 1;
  for (std::size_t d = 0; d < in.size(); ++d)
    if (reduced[d]) count *= in[d];
  if (count > max_elements)
    return fresh("it reduces " + std::to_string(count) + " elements per output, more than max_elements");
  Program p;
  p.form = Form::reduce;
  p.projections.push_back(std::move(base));
  p.inner.push_back(0);
  for (std::size_t d = 0; d < in.size(); ++d) {  // every combination of the reduced dimensions, row-major
    if (!reduced[d] || in[d] == 1) continue;
    std::vector<std::int64_t> next;
    next.reserve(p.inner.size() * static_cast<std::size_t>(in[d]));
    for (std::int64_t offset : p.inner)
      for (std::int64_t i = 0; i < in[d]; ++i) next.push_back(offset + i * in_strides[d]);
    p.inner = std::move(next);
  }
  std::sort(p.inner.begin(), p.inner.end());
  if (count == 0) p.inner.clear();
  return p;
}

Program rows(const FusionGraph& g, OpId x, std::int64_t max_elements) {
  const FusionOp& op = g.op(x);
  if (op.inputs.empty()) return fresh(std::string(to_string(op.kind)) + " needs an input");
  if (g.op(op.inputs[0]).shape != op.shape)
    return fresh("its output " + shape_text(op.shape) + " differs from its input " + shape_text(g.op(op.inputs[0]).shape));
  Program p;
  p.form = Form::rows;
  p.row = op.shape.empty() ? 1 : op.shape.back();
  if (p.row > max_elements) return fresh("its rows of " + std::to_string(p.row) + " elements exceed max_elements");
  p.projections.push_back(row_major_strides(op.shape));
  const std::size_t params = op.kind == OpKind::layer_norm ? std::min<std::size_t>(op.inputs.size(), 3) : 1;
  for (std::size_t k = 1; k < params; ++k) {
    std::optional<Strides> s = broadcast_projection(g.op(op.inputs[k]).shape, op.shape);
    if (!s) return fresh("input " + std::to_string(k) + " does not broadcast to the output " + shape_text(op.shape));
    p.projections.push_back(std::move(*s));
  }
  return p;
}

Program matmul(const FusionGraph& g, OpId x, std::int64_t max_elements) {
  const FusionOp& op = g.op(x);
  if (op.inputs.size() != 2) return fresh("matmul reads 2 inputs; this one has " + std::to_string(op.inputs.size()));
  Shape a = g.op(op.inputs[0]).shape, b = g.op(op.inputs[1]).shape, out = op.shape;
  const std::string shapes = shape_text(a) + " x " + shape_text(b) + " -> " + shape_text(out);
  if (a.empty() || b.empty()) return fresh("a scalar operand: " + shapes);
  if (a.size() == 1 && b.size() > 1 && out.empty()) return fresh("shapes that do not multiply: " + shapes);
  if (a.size() == 1) a.insert(a.begin(), 1), out.insert(out.end() - (b.size() == 1 ? 0 : 1), 1);
  if (b.size() == 1) b.push_back(1), out.push_back(1);
  if (out.size() < 2 || a.size() < 2 || b.size() < 2) return fresh("shapes that do not multiply: " + shapes);
  const std::int64_t m = a[a.size() - 2], k = a.back();
  // B as [.., K, N], or transposed as [.., N, K] (a linear layer's weight) when only that fits.
  const bool transposed = !(b[b.size() - 2] == k && out.back() == b.back()) && b.back() == k && b.size() >= 2;
  const std::int64_t n = transposed ? b[b.size() - 2] : b.back();
  if ((transposed ? b.back() : b[b.size() - 2]) != k || out[out.size() - 2] != m || out.back() != n)
    return fresh("shapes that do not multiply: " + shapes);
  if (k > max_elements) return fresh("its inner dimension " + std::to_string(k) + " exceeds max_elements");
  const Shape batch(out.begin(), out.end() - 2);
  const auto a_batch = broadcast_projection(Shape(a.begin(), a.end() - 2), batch);
  const auto b_batch = broadcast_projection(Shape(b.begin(), b.end() - 2), batch);
  if (!a_batch || !b_batch) return fresh("batch dimensions that do not broadcast: " + shapes);
  Program p;
  p.form = Form::matmul;
  p.walk = out;
  Strides sa = *a_batch, sb = *b_batch;
  for (auto& s : sa) s *= m * k;
  for (auto& s : sb) s *= k * n;
  sa.push_back(m == 1 ? 0 : k), sa.push_back(0);
  sb.push_back(0), sb.push_back(n == 1 ? 0 : (transposed ? k : 1));
  p.projections = {std::move(sa), std::move(sb)};
  p.row = k;
  p.b_step = transposed ? 1 : n;
  return p;
}

Program permute(const FusionGraph& g, OpId x) {
  const FusionOp& op = g.op(x);
  if (op.inputs.empty()) return fresh("transpose needs an input");
  const Shape& in = g.op(op.inputs[0]).shape;
  if (in.size() != op.shape.size()) return fresh("its output " + shape_text(op.shape) + " permutes no input " + shape_text(in));
  const Strides in_strides = row_major_strides(in);
  std::vector<bool> used(in.size(), false);
  Strides s(op.shape.size(), 0);
  for (std::size_t d = 0; d < op.shape.size(); ++d) {
    std::size_t found = in.size(), candidates = 0;
    for (std::size_t e = 0; e < in.size(); ++e)
      if (!used[e] && in[e] == op.shape[d]) found = candidates++ == 0 ? e : found;
    if (candidates == 0) return fresh("its output " + shape_text(op.shape) + " permutes no input " + shape_text(in));
    if (candidates > 1 && op.shape[d] > 1)
      return fresh("the permutation is not in the graph and the shapes " + shape_text(in) + " -> " +
                   shape_text(op.shape) + " do not decide it");
    used[found] = true;
    s[d] = in_strides[found];
  }
  Program p;
  p.form = Form::permute;
  p.projections.push_back(std::move(s));
  return p;
}

}  // namespace

Program make_program(const FusionGraph& g, OpId x, std::int64_t max_elements) {
  const FusionOp& op = g.op(x);
  Program p = [&]() -> Program {
    if (op.is_source()) return Program{};
    if (const std::optional<Arity> arity = elementwise_arity(op.kind)) return elementwise(g, x, arity->least, arity->most);
    if (is_reduce_kind(op.kind)) return reduce(g, x, max_elements);
    switch (op.kind) {
      case OpKind::softmax: case OpKind::layer_norm: case OpKind::cumsum: return rows(g, x, max_elements);
      case OpKind::matmul: return matmul(g, x, max_elements);
      case OpKind::transpose: return permute(g, x);
      case OpKind::broadcast: return elementwise(g, x, 1, 1);
      case OpKind::reshape:
        if (element_count(g.op(op.inputs[0]).shape) != element_count(op.shape))
          return fresh("a reshape that changes the element count");
        return Program{Form::flat, {}, {row_major_strides(op.shape)}, {}, 1, 0, {}, {}};
      case OpKind::conv: return fresh("conv: its strides, padding and layout are not in the graph");
      default: return fresh(std::string(to_string(op.kind)) + " is not evaluated: what it computes is not in the graph");
    }
  }();
  if (p.walk.empty()) p.walk = op.shape;
  return p;
}

}  // namespace fusion::numerics
