// fusion/formula.h — exact polynomials in dimension names, for bytes as a function of size (docs/design.md §16).
//
// A Polynomial is a sum of terms, each an integer coefficient times a product of names (a monomial: its names
// ascending, a name repeated for a power). Every tensor's bytes are one term (element size times its numbers,
// times its names), so each byte count of the cost model (docs/design.md §8) is a polynomial for a fixed grouping.
// Arithmetic is exact: an operation whose coefficient would pass 2^63 - 1 fails (nullopt / false) instead of
// wrapping. Text form: terms by descending degree, then by their names in ASCII order; a term is its coefficient
// and its names joined by '*', a repeated name as N^2, a coefficient of 1 left out; terms joined by " + " or
// " - "; the zero polynomial is "0" (e.g. "6291456*N + 3072", "4*N^2*seq - 16"). parse() reads that form back
// (spaces anywhere, terms in any order, repeated names allowed, "N^2" and "N*N" alike). Shown by
// tests/core/dims.test.cpp.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fusion/graph.h"

namespace fusion {

class Polynomial {
 public:
  using Monomial = std::vector<std::string>;  // names, ascending, repeated for powers; {} for the constant

  Polynomial() = default;
  static Polynomial constant(std::int64_t value);
  // The output bytes of an op: dtype_bytes times its numbers times its names; nullopt when a coefficient overflows.
  static std::optional<Polynomial> tensor_bytes_of(const FusionOp& op);
  static std::optional<Polynomial> parse(std::string_view text);

  // this += sign * other; false (this unchanged) when a coefficient would overflow.
  bool add(const Polynomial& other, int sign = 1);
  // The value at `values`; nullopt when a name has no value or the value passes the int64 range.
  std::optional<std::int64_t> evaluate(const DimValues& values) const;
  std::string to_string() const;
  bool is_constant() const;
  const std::map<Monomial, std::int64_t>& terms() const { return terms_; }
  bool operator==(const Polynomial&) const = default;

 private:
  std::map<Monomial, std::int64_t> terms_;  // no zero coefficients
};

}  // namespace fusion
