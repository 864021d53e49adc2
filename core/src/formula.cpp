// formula.cpp — exact polynomials in dimension names (fusion/formula.h).
#include "fusion/formula.h"

#include <algorithm>
#include <limits>

#include "fusion/dims.h"

namespace fusion {
namespace {

using Monomial = Polynomial::Monomial;

// Text order: higher degree first, then names in ASCII order.
bool text_before(const Monomial& a, const Monomial& b) {
  if (a.size() != b.size()) return a.size() > b.size();
  return a < b;
}

std::string monomial_text(const Monomial& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size();) {
    std::size_t j = i;
    while (j < names.size() && names[j] == names[i]) ++j;
    if (!text.empty()) text += '*';
    text += names[i];
    if (j - i > 1) text += '^' + std::to_string(j - i);
    i = j;
  }
  return text;
}

// Reads one term without its sign: [coefficient][*]name[^power]... ; nullopt on a malformed term.
std::optional<std::pair<Monomial, std::int64_t>> parse_term(std::string_view text) {
  Monomial names;
  std::int64_t coefficient = 1;
  bool any = false;
  std::size_t i = 0;
  while (i <= text.size()) {
    const std::size_t end = std::min(text.find('*', i), text.size());
    std::string_view factor = text.substr(i, end - i);
    if (factor.empty()) return std::nullopt;
    if (factor.front() >= '0' && factor.front() <= '9') {
      std::int64_t value = 0;
      for (char c : factor) {
        if (c < '0' || c > '9' || __builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, c - '0', &value))
          return std::nullopt;
      }
      if (__builtin_mul_overflow(coefficient, value, &coefficient)) return std::nullopt;
    } else {
      std::int64_t power = 1;
      if (const auto caret = factor.find('^'); caret != std::string_view::npos) {
        const std::string_view digits = factor.substr(caret + 1);
        if (digits.empty() || digits.size() > 3 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
          return std::nullopt;
        power = std::stoll(std::string(digits));
        factor = factor.substr(0, caret);
      }
      if (!is_dim_name(factor) || power < 1) return std::nullopt;
      for (std::int64_t k = 0; k < power; ++k) names.emplace_back(factor);
    }
    any = true;
    i = end + 1;
  }
  if (!any) return std::nullopt;
  std::sort(names.begin(), names.end());
  return std::pair(std::move(names), coefficient);
}

}  // namespace

Polynomial Polynomial::constant(std::int64_t value) {
  Polynomial p;
  if (value != 0) p.terms_[{}] = value;
  return p;
}

std::optional<Polynomial> Polynomial::tensor_bytes_of(const FusionOp& op) {
  std::int64_t coefficient = op.dtype_bytes;
  Monomial names;
  for (std::size_t d = 0; d < op.shape.size(); ++d) {
    const auto product = d < op.dim_names.size() && !op.dim_names[d].empty() ? parse_dim_product(op.dim_names[d])
                                                                             : std::nullopt;
    if (product) names.insert(names.end(), product->names.begin(), product->names.end());
    if (__builtin_mul_overflow(coefficient, product ? product->coefficient : op.shape[d], &coefficient))
      return std::nullopt;
  }
  std::sort(names.begin(), names.end());
  Polynomial p;
  if (coefficient != 0) p.terms_[std::move(names)] = coefficient;
  return p;
}

std::optional<Polynomial> Polynomial::parse(std::string_view text) {
  Polynomial p;
  std::string compact;
  for (char c : text)
    if (c != ' ') compact += c;
  if (compact.empty()) return std::nullopt;
  std::size_t i = 0;
  while (i < compact.size()) {
    int sign = 1;
    if (compact[i] == '+' || compact[i] == '-') sign = compact[i++] == '-' ? -1 : 1;
    else if (i > 0) return std::nullopt;
    std::size_t end = i;
    while (end < compact.size() && compact[end] != '+' && compact[end] != '-') ++end;
    auto term = parse_term(std::string_view(compact).substr(i, end - i));
    if (!term) return std::nullopt;
    Polynomial one;
    if (term->second != 0) one.terms_[std::move(term->first)] = term->second;
    if (!p.add(one, sign)) return std::nullopt;
    i = end;
  }
  return p;
}

bool Polynomial::add(const Polynomial& other, int sign) {
  // Check every sum first, so that a failure leaves this unchanged; then apply in place.
  for (const auto& [names, coefficient] : other.terms_) {
    std::int64_t term = 0, sum = 0;
    const auto it = terms_.find(names);
    if (__builtin_mul_overflow(coefficient, sign, &term) ||
        __builtin_add_overflow(it == terms_.end() ? 0 : it->second, term, &sum))
      return false;
  }
  for (const auto& [names, coefficient] : other.terms_) {
    const auto [it, inserted] = terms_.try_emplace(names, 0);
    it->second += coefficient * sign;
    if (it->second == 0) terms_.erase(it);
  }
  return true;
}

std::optional<std::int64_t> Polynomial::evaluate(const DimValues& values) const {
  std::int64_t total = 0;
  for (const auto& [names, coefficient] : terms_) {
    std::int64_t term = coefficient;
    for (const std::string& name : names) {
      const auto it = values.find(name);
      if (it == values.end() || __builtin_mul_overflow(term, it->second, &term)) return std::nullopt;
    }
    if (__builtin_add_overflow(total, term, &total)) return std::nullopt;
  }
  return total;
}

std::string Polynomial::to_string() const {
  std::vector<std::pair<Monomial, std::int64_t>> ordered(terms_.begin(), terms_.end());
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return text_before(a.first, b.first); });
  std::string text;
  for (const auto& [names, coefficient] : ordered) {
    const bool negative = coefficient < 0;
    const std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(coefficient) : static_cast<std::uint64_t>(coefficient);
    if (text.empty()) text += negative ? "-" : "";
    else text += negative ? " - " : " + ";
    if (names.empty()) text += std::to_string(magnitude);
    else text += (magnitude == 1 ? "" : std::to_string(magnitude) + "*") + monomial_text(names);
  }
  return text.empty() ? "0" : text;
}

bool Polynomial::is_constant() const {
  return terms_.empty() || (terms_.size() == 1 && terms_.begin()->first.empty());
}

}  // namespace fusion
