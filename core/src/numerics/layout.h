// numerics/layout.h — how an op's output elements find their input elements: row-major strides, NumPy broadcast
// projections, and a walker over output indices that keeps every input's offset (docs/design.md §18).
//
// A projection gives, per output dimension, the input's stride along it (0 where the input broadcasts). Every
// projection of the evaluator (broadcast, reduction base, permutation, matmul operands) maps output index i to an
// input offset no larger than i when the input has no more elements than the output along each dimension; the
// evaluator needs only that offsets are checked against what is available, which it does per element.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "fusion/shape.h"

namespace fusion::numerics {

using Strides = std::vector<std::int64_t>;

inline std::int64_t element_count(const Shape& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= static_cast<std::int64_t>(d);
  return n;
}

inline Strides row_major_strides(const Shape& shape) {
  Strides s(shape.size(), 1);
  for (std::size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * static_cast<std::int64_t>(shape[d]);
  return s;
}

// NumPy broadcast of `in` onto `out` (trailing alignment; an input dimension is 1 or equal): the input's stride
// per output dimension, or nullopt when it does not broadcast.
inline std::optional<Strides> broadcast_projection(const Shape& in, const Shape& out) {
  if (in.size() > out.size()) {
    for (std::size_t d = 0; d < in.size() - out.size(); ++d)
      if (in[d] != 1) return std::nullopt;
    return broadcast_projection(Shape(in.end() - static_cast<std::ptrdiff_t>(out.size()), in.end()), out);
  }
  const Strides in_strides = row_major_strides(in);
  Strides s(out.size(), 0);
  const std::size_t lead = out.size() - in.size();
  for (std::size_t d = 0; d < in.size(); ++d) {
    if (in[d] == out[lead + d]) s[lead + d] = in[d] == 1 ? 0 : in_strides[d];
    else if (in[d] != 1) return std::nullopt;
  }
  return s;
}

// Walks output indices 0, 1, 2, ... keeping each projection's input offset.
class Walker {
 public:
  Walker(const Shape& out, std::vector<Strides> projections)
      : dims_(out.begin(), out.end()), digits_(out.size(), 0), strides_(std::move(projections)),
        offsets_(strides_.size(), 0) {}

  std::int64_t offset(std::size_t p) const { return offsets_[p]; }

  void next() {
    for (std::size_t d = dims_.size(); d-- > 0;) {
      for (std::size_t p = 0; p < strides_.size(); ++p) offsets_[p] += strides_[p][d];
      if (++digits_[d] < dims_[d]) return;
      for (std::size_t p = 0; p < strides_.size(); ++p) offsets_[p] -= strides_[p][d] * digits_[d];
      digits_[d] = 0;
    }
  }

 private:
  std::vector<std::int64_t> dims_;
  std::vector<std::int64_t> digits_;
  std::vector<Strides> strides_;
  std::vector<std::int64_t> offsets_;
};

}  // namespace fusion::numerics
