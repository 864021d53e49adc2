// numerics/elementwise.cpp — the functions of elementwise.h.
#include "numerics/elementwise.h"

#include <cmath>
#include <limits>

namespace fusion::numerics {
namespace {

double nan_max(double a, double b) { return std::isnan(a) || std::isnan(b) ? std::numeric_limits<double>::quiet_NaN() : std::max(a, b); }
double nan_min(double a, double b) { return std::isnan(a) || std::isnan(b) ? std::numeric_limits<double>::quiet_NaN() : std::min(a, b); }

double unary(OpKind kind, double x) {
  switch (kind) {
    case OpKind::neg: return -x;
    case OpKind::abs: return std::fabs(x);
    case OpKind::exp: return std::exp(x);
    case OpKind::log: return std::log(x);
    case OpKind::sqrt: return std::sqrt(x);
    case OpKind::rsqrt: return 1.0 / std::sqrt(x);
    case OpKind::relu: return std::isnan(x) ? x : (x > 0.0 ? x : 0.0);
    case OpKind::gelu: return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
    case OpKind::sigmoid: return 1.0 / (1.0 + std::exp(-x));
    case OpKind::tanh: return std::tanh(x);
    case OpKind::silu: return x / (1.0 + std::exp(-x));
    case OpKind::erf: return std::erf(x);
    case OpKind::reciprocal: return 1.0 / x;
    case OpKind::square: return x * x;
    case OpKind::sin: return std::sin(x);
    case OpKind::cos: return std::cos(x);
    case OpKind::floor: return std::floor(x);
    case OpKind::ceil: return std::ceil(x);
    case OpKind::round: return std::nearbyint(x);
    case OpKind::sign: return std::isnan(x) ? x : (x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : 0.0);
    case OpKind::logical_not: return x == 0.0 ? 1.0 : 0.0;
    case OpKind::softplus: return std::log1p(std::exp(x));
    case OpKind::leaky_relu: return x >= 0.0 ? x : 0.01 * x;
    case OpKind::clamp: return nan_min(nan_max(x, 0.0), 6.0);
    default: return x;  // identity, cast, batch_norm with one input
  }
}

double binary(OpKind kind, double a, double b) {
  switch (kind) {
    case OpKind::add: return a + b;
    case OpKind::sub: return a - b;
    case OpKind::mul: return a * b;
    case OpKind::div: return a / b;
    case OpKind::max: return nan_max(a, b);
    case OpKind::min: return nan_min(a, b);
    case OpKind::pow: return std::pow(a, b);
    case OpKind::mod: return std::fmod(a, b);
    case OpKind::equal: return a == b ? 1.0 : 0.0;
    case OpKind::less: return a < b ? 1.0 : 0.0;
    case OpKind::greater: return a > b ? 1.0 : 0.0;
    case OpKind::logical_and: return a != 0.0 && b != 0.0 ? 1.0 : 0.0;
    case OpKind::logical_or: return a != 0.0 || b != 0.0 ? 1.0 : 0.0;
    default: return a;
  }
}

}  // namespace

std::optional<Arity> elementwise_arity(OpKind kind) {
  if (category(kind) != OpCategory::elementwise) return std::nullopt;
  if (kind == OpKind::where) return Arity{3, 3};
  if (kind == OpKind::clamp) return Arity{1, 3};
  if (kind == OpKind::batch_norm) return Arity{1, 5};
  switch (kind) {
    case OpKind::add: case OpKind::sub: case OpKind::mul: case OpKind::div: case OpKind::max: case OpKind::min:
    case OpKind::pow: case OpKind::mod: case OpKind::equal: case OpKind::less: case OpKind::greater:
    case OpKind::logical_and: case OpKind::logical_or:
      return Arity{2, 2};
    default:
      return Arity{1, 1};
  }
}

double apply_elementwise(OpKind kind, const double* a, std::size_t count) {
  if (kind == OpKind::where) return a[0] != 0.0 ? a[1] : a[2];
  if (kind == OpKind::clamp && count == 3) return nan_min(nan_max(a[0], a[1]), a[2]);
  if (kind == OpKind::clamp && count == 2) return nan_max(a[0], a[1]);
  if (kind == OpKind::batch_norm && count == 5) return (a[0] - a[3]) / std::sqrt(a[4] + 1e-5) * a[1] + a[2];
  if (count == 2) return binary(kind, a[0], a[1]);
  return unary(kind, a[0]);
}

}  // namespace fusion::numerics
