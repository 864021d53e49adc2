// shape.cpp — broadcast rule and overflow-checked byte arithmetic.
#include "fusion/shape.h"

#include <algorithm>

namespace fusion {

bool broadcast_compatible(const Shape& a, const Shape& b) {
  const std::size_t common = std::min(a.size(), b.size());
  for (std::size_t i = 1; i <= common; ++i) {
    const std::int64_t da = a[a.size() - i];
    const std::int64_t db = b[b.size() - i];
    if (da != db && da != 1 && db != 1) return false;
  }
  return true;
}

std::optional<std::uint64_t> tensor_bytes(const Shape& shape, std::int64_t dtype_bytes) {
  if (dtype_bytes < 0) return std::nullopt;
  for (std::int64_t d : shape)
    if (d < 0) return std::nullopt;
  for (std::int64_t d : shape)
    if (d == 0) return 0;  // an empty tensor, however large its other dimensions
  std::uint64_t bytes = static_cast<std::uint64_t>(dtype_bytes);
  for (std::int64_t d : shape) {
    if (__builtin_mul_overflow(bytes, static_cast<std::uint64_t>(d), &bytes)) return std::nullopt;
    if (bytes > kMaxExactBytes) return std::nullopt;
  }
  if (bytes > kMaxExactBytes) return std::nullopt;
  return bytes;
}

std::optional<std::uint64_t> add_bytes(std::uint64_t a, std::uint64_t b) {
  if (a > kMaxExactBytes || b > kMaxExactBytes - a) return std::nullopt;
  return a + b;
}

std::string shape_to_string(const Shape& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(shape[i]);
  }
  return out + "]";
}

}  // namespace fusion
