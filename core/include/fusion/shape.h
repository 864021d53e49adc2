// fusion/shape.h — shapes, the NumPy broadcast rule, and exact byte counts.
//
// A shape is a list of non-negative dimensions; [] is a scalar (one element). Byte counts are exact
// unsigned integers and must stay at or below kMaxExactBytes (2^53 - 1, the largest integer a
// JavaScript number holds exactly); `tensor_bytes` reports anything larger as nullopt.
// Shown by tests/core/shape.test.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fusion {

using Shape = std::vector<std::int64_t>;

inline constexpr std::uint64_t kMaxExactBytes = (std::uint64_t{1} << 53) - 1;

// NumPy's trailing-dimension rule: aligned from the right, each pair of dimensions is equal or one
// of them is 1; missing leading dimensions count as 1.
bool broadcast_compatible(const Shape& a, const Shape& b);

// product(shape) * dtype_bytes, or nullopt when it exceeds kMaxExactBytes (or a dimension is
// negative). A zero dimension gives 0 bytes.
std::optional<std::uint64_t> tensor_bytes(const Shape& shape, std::int64_t dtype_bytes);

// product(shape): the element count, or nullopt when it exceeds kMaxExactBytes. [] has one element.
inline std::optional<std::uint64_t> shape_elements(const Shape& shape) { return tensor_bytes(shape, 1); }

// a + b, or nullopt when the sum exceeds kMaxExactBytes.
std::optional<std::uint64_t> add_bytes(std::uint64_t a, std::uint64_t b);

// "[1024, 768]", for messages.
std::string shape_to_string(const Shape& shape);

}  // namespace fusion
