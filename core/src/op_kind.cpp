// op_kind.cpp — the kind table: name and category of every kind, and the alias list.
#include "fusion/op_kind.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace fusion {
namespace {

struct KindInfo {
  OpKind kind;
  std::string_view name;
  OpCategory category;
};

using C = OpCategory;
using K = OpKind;

constexpr std::array kKinds = {
    KindInfo{K::input, "input", C::source},          KindInfo{K::constant, "constant", C::source},
    KindInfo{K::neg, "neg", C::elementwise},          KindInfo{K::abs, "abs", C::elementwise},
    KindInfo{K::exp, "exp", C::elementwise},          KindInfo{K::log, "log", C::elementwise},
    KindInfo{K::sqrt, "sqrt", C::elementwise},        KindInfo{K::rsqrt, "rsqrt", C::elementwise},
    KindInfo{K::relu, "relu", C::elementwise},        KindInfo{K::gelu, "gelu", C::elementwise},
    KindInfo{K::sigmoid, "sigmoid", C::elementwise},  KindInfo{K::tanh, "tanh", C::elementwise},
    KindInfo{K::silu, "silu", C::elementwise},        KindInfo{K::cast, "cast", C::elementwise},
    KindInfo{K::erf, "erf", C::elementwise},          KindInfo{K::reciprocal, "reciprocal", C::elementwise},
    KindInfo{K::square, "square", C::elementwise},    KindInfo{K::sin, "sin", C::elementwise},
    KindInfo{K::cos, "cos", C::elementwise},          KindInfo{K::floor, "floor", C::elementwise},
    KindInfo{K::ceil, "ceil", C::elementwise},        KindInfo{K::round, "round", C::elementwise},
    KindInfo{K::sign, "sign", C::elementwise},        KindInfo{K::logical_not, "logical_not", C::elementwise},
    KindInfo{K::softplus, "softplus", C::elementwise}, KindInfo{K::leaky_relu, "leaky_relu", C::elementwise},
    KindInfo{K::clamp, "clamp", C::elementwise},      KindInfo{K::identity, "identity", C::elementwise},
    KindInfo{K::batch_norm, "batch_norm", C::elementwise},
    KindInfo{K::add, "add", C::elementwise},          KindInfo{K::sub, "sub", C::elementwise},
    KindInfo{K::mul, "mul", C::elementwise},          KindInfo{K::div, "div", C::elementwise},
    KindInfo{K::max, "max", C::elementwise},          KindInfo{K::min, "min", C::elementwise},
    KindInfo{K::pow, "pow", C::elementwise},          KindInfo{K::mod, "mod", C::elementwise},
    KindInfo{K::equal, "equal", C::elementwise},      KindInfo{K::less, "less", C::elementwise},
    KindInfo{K::greater, "greater", C::elementwise},  KindInfo{K::logical_and, "logical_and", C::elementwise},
    KindInfo{K::logical_or, "logical_or", C::elementwise}, KindInfo{K::where, "where", C::elementwise},
    KindInfo{K::matmul, "matmul", C::barrier},        KindInfo{K::conv, "conv", C::barrier},
    KindInfo{K::reduce, "reduce", C::barrier},        KindInfo{K::reduce_sum, "reduce_sum", C::barrier},
    KindInfo{K::reduce_mean, "reduce_mean", C::barrier}, KindInfo{K::reduce_max, "reduce_max", C::barrier},
    KindInfo{K::reduce_min, "reduce_min", C::barrier}, KindInfo{K::reduce_prod, "reduce_prod", C::barrier},
    KindInfo{K::softmax, "softmax", C::barrier},      KindInfo{K::layer_norm, "layer_norm", C::barrier},
    KindInfo{K::transpose, "transpose", C::barrier},  KindInfo{K::reshape, "reshape", C::barrier},
    KindInfo{K::broadcast, "broadcast", C::barrier},  KindInfo{K::slice, "slice", C::barrier},
    KindInfo{K::concat, "concat", C::barrier},        KindInfo{K::pad, "pad", C::barrier},
    KindInfo{K::gather, "gather", C::barrier},        KindInfo{K::scatter, "scatter", C::barrier},
    KindInfo{K::scan, "scan", C::barrier},            KindInfo{K::cumsum, "cumsum", C::barrier},
    KindInfo{K::sort, "sort", C::barrier},            KindInfo{K::max_pool, "max_pool", C::barrier},
    KindInfo{K::avg_pool, "avg_pool", C::barrier},    KindInfo{K::opaque, "opaque", C::barrier},
};

constexpr std::array<OpKind, kKinds.size()> make_kind_list() {
  std::array<OpKind, kKinds.size()> list{};
  for (std::size_t i = 0; i < kKinds.size(); ++i) list[i] = kKinds[i].kind;
  return list;
}
constexpr auto kKindList = make_kind_list();

// Names other tools use for our kinds, in normalized form (lowercase, no underscores).
struct Alias {
  std::string_view normalized;
  OpKind kind;
};
constexpr std::array kAliases = {
    Alias{"placeholder", K::input},  Alias{"parameter", K::input},   Alias{"const", K::constant},
    Alias{"negative", K::neg},       Alias{"negate", K::neg},        Alias{"swish", K::silu},
    Alias{"convert", K::cast},       Alias{"recip", K::reciprocal},  Alias{"not", K::logical_not},
    Alias{"maximum", K::max},        Alias{"minimum", K::min},       Alias{"subtract", K::sub},
    Alias{"multiply", K::mul},       Alias{"divide", K::div},        Alias{"power", K::pow},
    Alias{"select", K::where},       Alias{"and", K::logical_and},   Alias{"or", K::logical_or},
    Alias{"eq", K::equal},           Alias{"lt", K::less},           Alias{"gt", K::greater},
    Alias{"dot", K::matmul},         Alias{"gemm", K::matmul},       Alias{"bmm", K::matmul},
    Alias{"conv2d", K::conv},        Alias{"convolution", K::conv},  Alias{"layernormalization", K::layer_norm},
    Alias{"cumulativesum", K::cumsum}, Alias{"batchnormalization", K::batch_norm}, Alias{"batchnorm", K::batch_norm}, Alias{"maxpool", K::max_pool}, Alias{"averagepool", K::avg_pool},
};

const KindInfo& info(OpKind kind) { return kKinds[static_cast<std::size_t>(kind)]; }

std::string normalize(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    if (c == '_' || c == '-') continue;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

static_assert([] {
  for (std::size_t i = 0; i < kKinds.size(); ++i)
    if (static_cast<std::size_t>(kKinds[i].kind) != i) return false;
  return true;
}(), "kKinds must list kinds in declaration order");

}  // namespace

OpCategory category(OpKind kind) { return info(kind).category; }
bool is_fusible(OpKind kind) { return category(kind) == OpCategory::elementwise; }
bool is_source_kind(OpKind kind) { return category(kind) == OpCategory::source; }
std::string_view to_string(OpKind kind) { return info(kind).name; }

std::string_view to_string(OpCategory c) {
  switch (c) {
    case OpCategory::source: return "source";
    case OpCategory::elementwise: return "elementwise";
    case OpCategory::barrier: return "barrier";
  }
  return "barrier";
}

std::optional<OpKind> parse_op_kind(std::string_view name) {
  for (const KindInfo& k : kKinds)
    if (k.name == name) return k.kind;  // the common case: a canonical name
  const std::string key = normalize(name);
  for (const KindInfo& k : kKinds)
    if (normalize(k.name) == key) return k.kind;
  for (const Alias& a : kAliases)
    if (a.normalized == key) return a.kind;
  return std::nullopt;
}

std::span<const OpKind> all_op_kinds() { return kKindList; }

std::vector<std::string_view> kind_aliases(OpKind kind) {
  std::vector<std::string_view> names;
  for (const Alias& a : kAliases)
    if (a.kind == kind) names.push_back(a.normalized);
  return names;
}

}  // namespace fusion
