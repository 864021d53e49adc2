// fusion/op_kind.h — the op kinds of docs/design.md §4 and their categories.
//
// Every kind has one category: source (data already in memory), elementwise (fusible), or barrier
// (never fused in the seed strategy). `is_fusible(kind)` is true exactly for elementwise kinds.
// Names are lower_snake_case; `parse_op_kind` also accepts common aliases ("Add", "ReLU", "MatMul",
// "Gemm", ...) and returns the canonical kind. Shown by tests/core/op_kind.test.cpp.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace fusion {

enum class OpCategory { source, elementwise, barrier };

enum class OpKind {
  // sources
  input, constant,
  // elementwise, unary
  neg, abs, exp, log, sqrt, rsqrt, relu, gelu, sigmoid, tanh, silu, cast, erf, reciprocal, square,
  sin, cos, floor, ceil, round, sign, logical_not, softplus, leaky_relu, clamp, identity, batch_norm,
  // elementwise, binary and ternary
  add, sub, mul, div, max, min, pow, mod, equal, less, greater, logical_and, logical_or, where,
  // barriers
  matmul, conv, reduce, reduce_sum, reduce_mean, reduce_max, reduce_min, reduce_prod, softmax,
  layer_norm, transpose, reshape, broadcast, slice, concat, pad, gather, scatter, scan, cumsum, sort,
  max_pool, avg_pool, opaque,
};

OpCategory category(OpKind kind);
bool is_fusible(OpKind kind);
bool is_source_kind(OpKind kind);

// The canonical lower_snake_case name, e.g. "reduce_sum".
std::string_view to_string(OpKind kind);
std::string_view to_string(OpCategory category);

// Canonical names and aliases, case-insensitive, underscores optional ("ReduceSum" == "reduce_sum").
std::optional<OpKind> parse_op_kind(std::string_view name);

// Every kind, in declaration order (for schemas, menus and tests).
std::span<const OpKind> all_op_kinds();

// The other names parse_op_kind accepts for a kind, normalized (lowercase, no '_' or '-'), in table order;
// empty when it has none. A name matches an alias when it equals it after the same normalization.
std::vector<std::string_view> kind_aliases(OpKind kind);

}  // namespace fusion
