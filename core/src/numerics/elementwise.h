// numerics/elementwise.h — what each elementwise kind computes, on values already in the kernel's compute type
// (docs/design.md §18). The result is the exact-as-double function value; the caller rounds it to the compute
// type (f32 or f64), which for add, sub, mul, div and sqrt gives the correctly rounded IEEE result (a double holds
// the f32 operation exactly enough), and for the transcendental kinds the double result rounded to f32.
// Conventions where the graph says nothing: leaky_relu slope 0.01; clamp with one input clamps to [0, 6] (ReLU6),
// with three to [inputs 1, 2]; gelu is the erf form; mod is fmod (the sign of the dividend); comparisons and
// logical kinds give 1 or 0; where(c, a, b) picks a when c != 0; batch_norm is (x - mean) / sqrt(var + 1e-5) *
// scale + bias for inputs (x, scale, bias, mean, var), x alone when it has one input; max and min propagate NaN.
#pragma once

#include <cstddef>
#include <optional>

#include "fusion/op_kind.h"

namespace fusion::numerics {

// How many inputs the kind reads (a range: clamp 1 or 3, batch_norm 1 or 5), or nullopt when it is no
// elementwise kind.
struct Arity {
  std::size_t least, most;
};
std::optional<Arity> elementwise_arity(OpKind kind);

double apply_elementwise(OpKind kind, const double* args, std::size_t count);

}  // namespace fusion::numerics
