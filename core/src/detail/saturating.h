// detail/saturating.h — unsigned 64-bit arithmetic that stops at UINT64_MAX instead of wrapping.
//
// Flop counts are products of element counts (a legal graph has up to 2^53 - 1 bytes per op, so a matmul's
// 2·n·K can pass 2^64); they saturate rather than overflow. Shown by tests/core/time_model.test.cpp.
#pragma once

#include <cstdint>
#include <limits>

#include "fusion/shape.h"

namespace fusion::detail {

inline constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

inline std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? kSaturated : sum;
}

inline std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? kSaturated : product;
}

// Elements of a shape ([] is one element); 0 when any dimension is 0 or negative, however large the rest.
inline std::uint64_t element_count(const Shape& shape) {
  for (std::int64_t d : shape)
    if (d <= 0) return 0;
  std::uint64_t n = 1;
  for (std::int64_t d : shape) n = saturating_mul(n, static_cast<std::uint64_t>(d));
  return n;
}

}  // namespace fusion::detail
