// codegen/semantics.cpp — index arithmetic, elementwise expressions, storage and comment text
// (codegen/semantics.h).
#include "codegen/semantics.h"

#include <algorithm>

namespace fusion::codegen {
namespace {

// Shape without leading 1s.
Shape trimmed(const Shape& s) {
  std::size_t i = 0;
  while (i < s.size() && s[i] == 1) ++i;
  return Shape(s.begin() + static_cast<std::ptrdiff_t>(i), s.end());
}

std::uint64_t product(const Shape& s, std::size_t from, std::size_t to) {
  std::uint64_t p = 1;
  for (std::size_t d = from; d < to; ++d) p *= static_cast<std::uint64_t>(s[d]);
  return p;
}

// Coordinate d of flat index i over shape s: (i / stride) % dim, with the trivial parts left out.
std::string coordinate(const Shape& s, std::size_t d, const std::string& i, Syntax syntax) {
  const std::uint64_t stride = product(s, d + 1, s.size());
  std::string text = stride == 1 ? i : "(" + i + syntax.div() + num(stride) + ")";
  if (d > 0) text = "(" + text + " % " + num(static_cast<std::uint64_t>(s[d])) + ")";
  return text;
}

std::string joined_sum(const std::vector<std::string>& terms) {
  if (terms.empty()) return "0";
  std::string out;
  for (const std::string& t : terms) out += (out.empty() ? "" : " + ") + t;
  return terms.size() == 1 ? out : "(" + out + ")";
}

// x in parentheses unless it is one token (no spaces: a name, a number, a subscript, a parenthesised form).
std::string f(const std::string& x) {
  return x.find(' ') == std::string::npos ? x : "(" + x + ")";
}

}  // namespace

std::string num(std::uint64_t value) { return std::to_string(value); }

std::string ident(char prefix, std::int64_t id) {
  std::string text(1, prefix);
  text += std::to_string(id);
  return text;
}

std::string broadcast_index(const Shape& from, const Shape& loop, const std::string& i, Syntax syntax,
                            std::uint64_t inner) {
  const Shape a = trimmed(from), b = trimmed(loop);
  if (a == b) return i;
  if (a.empty()) return "0";
  if (a.size() <= b.size() && std::equal(a.begin(), a.end(), b.end() - static_cast<std::ptrdiff_t>(a.size()))) {
    const std::uint64_t n = product(a, 0, a.size());
    return n == inner ? "j" : "(" + i + " % " + num(n) + ")";
  }
  // A column: the loop's shape with its last dimension 1.
  if (inner > 0 && !b.empty() && from.size() >= 1 && from.back() == 1 && static_cast<std::uint64_t>(b.back()) == inner) {
    Shape column = b;
    column.back() = 1;
    if (trimmed(column) == a) return "o";
  }
  // General rule: per aligned dimension, the loop's coordinate modulo the input's dimension.
  std::vector<std::string> terms;
  for (std::size_t k = 0; k < from.size(); ++k) {
    const std::size_t from_d = from.size() - 1 - k;
    const auto dim = static_cast<std::uint64_t>(from[from_d]);
    if (dim == 1 || k >= loop.size()) continue;
    const std::size_t loop_d = loop.size() - 1 - k;
    std::string c = coordinate(loop, loop_d, i, syntax);
    if (static_cast<std::uint64_t>(loop[loop_d]) > dim) c = "(" + c + " % " + num(dim) + ")";
    const std::uint64_t stride = product(from, from_d + 1, from.size());
    terms.push_back(stride == 1 ? c : c + " * " + num(stride));
  }
  return joined_sum(terms);
}

std::string reduce_index(const Shape& in, const Shape& out, const std::string& i, Syntax syntax,
                         std::uint64_t inner_hint) {
  const std::uint64_t out_elements = product(out, 0, out.size());
  if (out_elements == 1) return "0";
  // kept[d]: the output dimension input axis d maps to, or -1 when reduced.
  std::vector<std::int64_t> kept(in.size(), -1);
  bool mapped = false;
  if (in.size() == out.size()) {
    mapped = true;
    for (std::size_t d = 0; d < in.size(); ++d) {
      if (out[d] == in[d]) kept[d] = static_cast<std::int64_t>(d);
      else if (out[d] != 1) mapped = false;
    }
  } else if (out.size() < in.size()) {
    std::size_t j = 0;
    for (std::size_t d = 0; d < in.size() && j < out.size(); ++d)
      if (in[d] == out[j]) kept[d] = static_cast<std::int64_t>(j++);
    mapped = j == out.size();
  }
  if (!mapped) return "(" + i + " % " + num(out_elements) + ")";
  // Trailing reduction (kept axes are a prefix): one division.
  std::size_t prefix = 0;
  while (prefix < in.size() && kept[prefix] >= 0) ++prefix;
  bool trailing = true;
  for (std::size_t d = prefix; d < in.size(); ++d) trailing = trailing && kept[d] < 0;
  if (trailing) {
    const std::uint64_t inner = product(in, prefix, in.size());
    if (inner == 1) return i;
    return inner == inner_hint ? "o" : "(" + i + syntax.div() + num(inner) + ")";
  }
  std::vector<std::string> terms;
  for (std::size_t d = 0; d < in.size(); ++d) {
    if (kept[d] < 0 || in[d] == 1) continue;
    const std::uint64_t stride = product(out, static_cast<std::size_t>(kept[d]) + 1, out.size());
    const std::string c = coordinate(in, d, i, syntax);
    terms.push_back(stride == 1 ? c : c + " * " + num(stride));
  }
  return joined_sum(terms);
}

std::string elementwise_expr(OpKind kind, const std::vector<std::string>& ops, Syntax syntax) {
  const bool c = syntax.dialect == CodeDialect::c;
  auto l = [&](const char* text) { return syntax.literal(text); };
  const std::string one = l("1.0"), zero = l("0.0");
  auto at = [&](std::size_t k) { return k < ops.size() ? f(ops[k]) : zero; };
  auto call = [&](const char* cname, const char* tname, const std::string& x) {
    return (c ? syntax.function(cname) : std::string(tname)) + "(" + x + ")";
  };
  auto call2 = [&](const char* cname, const char* tname, const std::string& x, const std::string& y) {
    return (c ? syntax.function(cname) : std::string(tname)) + "(" + x + ", " + y + ")";
  };
  auto pick = [&](const std::string& cond, const std::string& a, const std::string& b) {
    return c ? "(" + cond + " ? " + a + " : " + b + ")" : "tl.where(" + cond + ", " + a + ", " + b + ")";
  };
  auto fold = [&](const char* op_c, const char* fn_t, bool is_fn) {
    std::string acc = at(0);
    for (std::size_t k = 1; k < std::max<std::size_t>(ops.size(), 2); ++k)
      acc = is_fn ? call2(op_c, fn_t, acc, at(k)) : "(" + acc + " " + op_c + " " + at(k) + ")";
    return acc;
  };
  const std::string x = at(0);
  switch (kind) {
    case OpKind::neg: return "(-" + x + ")";
    case OpKind::abs: return call("fabsf", "tl.abs", x);
    case OpKind::exp: return call("expf", "tl.exp", x);
    case OpKind::log: return call("logf", "tl.log", x);
    case OpKind::sqrt: return call("sqrtf", "tl.sqrt", x);
    case OpKind::rsqrt: return "(" + one + " / " + call("sqrtf", "tl.sqrt", x) + ")";
    case OpKind::relu:  // the evaluator's: NaN stays NaN (C's fmaxf would drop it)
      return c ? pick("(" + x + " > " + zero + " || " + x + " != " + x + ")", x, zero) : call2("", "tl.maximum", x, zero);
    case OpKind::gelu:
      return "(" + l("0.5") + " * " + x + " * (" + one + " + " + call("erff", "tl.math.erf", x + " * " +
             (c ? l("0.70710678118654752") : "0.7071067811865476")) + "))";
    case OpKind::sigmoid: return "(" + one + " / (" + one + " + " + call("expf", "tl.exp", "-" + x) + "))";
    case OpKind::tanh: return call("tanhf", "tl.math.tanh", x);
    case OpKind::silu: return "(" + x + " / (" + one + " + " + call("expf", "tl.exp", "-" + x) + "))";
    case OpKind::cast: case OpKind::identity: return x;
    case OpKind::erf: return call("erff", "tl.math.erf", x);
    case OpKind::reciprocal: return "(" + one + " / " + x + ")";
    case OpKind::square: return "(" + x + " * " + x + ")";
    case OpKind::sin: return call("sinf", "tl.sin", x);
    case OpKind::cos: return call("cosf", "tl.cos", x);
    case OpKind::floor: return call("floorf", "tl.floor", x);
    case OpKind::ceil: return call("ceilf", "tl.math.ceil", x);
    case OpKind::round: return call("nearbyintf", "tl.math.nearbyint", x);
    case OpKind::sign:
      return c ? "((" + std::string(syntax.wide ? "double" : "float") + ")((" + x + " > " + zero + ") - (" + x + " < " +
                     zero + ")))"
               : "tl.where(" + x + " > 0.0, 1.0, tl.where(" + x + " < 0.0, -1.0, 0.0))";
    case OpKind::logical_not: return pick(x + " == " + zero, one, zero);
    case OpKind::softplus: return call("log1pf", "tl.math.log1p", call("expf", "tl.exp", x));
    case OpKind::leaky_relu: return pick(x + " > " + zero, x, l("0.01") + " * " + x);
    case OpKind::clamp: {  // as the evaluator: one input [0, 6], two a lower bound only, three both bounds
      if (ops.size() == 2) return call2("nan_maxf", "tl.maximum", x, at(1));
      const std::string lo = ops.size() > 1 ? at(1) : zero, hi = ops.size() > 2 ? at(2) : l("6.0");
      return call2("nan_minf", "tl.minimum", call2("nan_maxf", "tl.maximum", x, lo), hi);
    }
    case OpKind::batch_norm: {  // the evaluator's order: (x - mean) / sqrt(var + eps) * scale + bias; x unless 5
      if (ops.size() != 5) return x;
      return "((" + x + " - " + at(3) + ") / " + call("sqrtf", "tl.sqrt", at(4) + " + " + l("1e-5")) + " * " + at(1) +
             " + " + at(2) + ")";
    }
    case OpKind::add: return fold("+", "", false);
    case OpKind::sub: return fold("-", "", false);
    case OpKind::mul: return fold("*", "", false);
    case OpKind::div: return fold("/", "", false);
    case OpKind::max: return fold("nan_maxf", "tl.maximum", true);  // NaN if either is (runtime helpers)
    case OpKind::min: return fold("nan_minf", "tl.minimum", true);
    case OpKind::pow: return fold("powf", "libdevice.pow", true);
    case OpKind::mod: return fold("fmodf", "libdevice.fmod", true);
    case OpKind::equal: return pick(x + " == " + at(1), one, zero);
    case OpKind::less: return pick(x + " < " + at(1), one, zero);
    case OpKind::greater: return pick(x + " > " + at(1), one, zero);
    case OpKind::logical_and:
      return pick("(" + x + " != " + zero + ")" + (c ? " && " : " & ") + "(" + at(1) + " != " + zero + ")", one, zero);
    case OpKind::logical_or:
      return pick("(" + x + " != " + zero + ")" + (c ? " || " : " | ") + "(" + at(1) + " != " + zero + ")", one, zero);
    case OpKind::where: return pick(x + " != " + zero, at(1), at(2));
    default: return x;  // not elementwise: never asked
  }
}

std::string register_type(NumericType compute) {
  switch (compute) {
    case NumericType::f64: return "double";
    case NumericType::f32: case NumericType::f16: case NumericType::bf16: case NumericType::f8: return "float";
    case NumericType::boolean: return "uint8_t";
    default: {
      const std::string name(to_string(compute));
      return (name[0] == 'u' ? "uint" : "int") + name.substr(1) + "_t";
    }
  }
}

CValue c_value(const FusionOp& op) {
  CValue v;
  v.compute = compute_type(numeric_type(op));
  v.reg = register_type(v.compute);
  v.wide = v.compute != NumericType::f32;
  return v;
}

std::int64_t type_bytes(NumericType type) {
  switch (type) {
    case NumericType::f64: case NumericType::i64: case NumericType::u64: return 8;
    case NumericType::f32: case NumericType::i32: case NumericType::u32: return 4;
    case NumericType::f16: case NumericType::bf16: case NumericType::i16: case NumericType::u16: return 2;
    default: return 1;
  }
}

Storage storage_of(const FusionOp& op) {
  Storage s;
  s.type = numeric_type(op);
  s.name = std::string(to_string(s.type));
  const std::int64_t natural = type_bytes(s.type);
  if (op.dtype_bytes <= natural) {
    s.bytes = natural;
    switch (s.type) {
      case NumericType::f64: s.c_type = "double"; break;
      case NumericType::f32: s.c_type = "float"; break;
      case NumericType::f16: case NumericType::bf16: s.c_type = "uint16_t"; break;
      case NumericType::f8: case NumericType::boolean: s.c_type = "uint8_t"; break;
      default: s.c_type = (s.name[0] == 'u' ? "uint" : "int") + std::to_string(natural * 8) + "_t";
    }
    return s;
  }
  s.bytes = op.dtype_bytes;
  s.name += "_" + std::to_string(op.dtype_bytes);
  s.c_type = "e_" + s.name;
  return s;
}

std::string load_fn(const FusionOp& op) { return "ld_" + storage_of(op).name; }
std::string store_fn(const FusionOp& op) { return "st_" + storage_of(op).name; }

std::string triton_dtype(const FusionOp& op) {
  const NumericType t = numeric_type(op);
  switch (t) {
    case NumericType::f64: return "tl.float64";
    case NumericType::f32: return "tl.float32";
    case NumericType::f16: return "tl.float16";
    case NumericType::bf16: return "tl.bfloat16";
    case NumericType::f8: return "tl.float8e4nv";
    case NumericType::boolean: return "tl.int1";
    default: {
      const std::string name(to_string(t));
      return (name[0] == 'u' ? "tl.uint" : "tl.int") + name.substr(1);
    }
  }
}

std::string safe_text(const std::string& text) {
  std::string out;
  for (char ch : text.substr(0, 40)) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                    ch == '_' || ch == '.' || ch == ':' || ch == '-';
    out += ok ? ch : '?';
  }
  if (text.size() > 40) out += "...";
  return out;
}

std::string describe(const FusionGraph& g, OpId x) {
  const FusionOp& op = g.op(x);
  std::string text = "op " + std::to_string(x);
  if (!op.name.empty()) text += " '" + safe_text(op.name) + "'";
  const NumericType type = numeric_type(op);
  // Built piece by piece (a gcc 12 -Wrestrict false positive on operator+ chains).
  text += " ";
  text += to_string(op.kind);
  text += " ";
  text += shape_to_string(op.shape);
  text += " ";
  text += to_string(type);
  if (op.dtype_bytes != type_bytes(type)) {
    text += " in ";
    text += num(static_cast<std::uint64_t>(op.dtype_bytes));
    text += " B";
  }
  return text;
}

}  // namespace fusion::codegen
