// error.cpp — the stable names of error codes, and InternalError.
#include "fusion/error.h"

#include <array>

namespace fusion {

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::json_syntax: return "json_syntax";
    case ErrorCode::invalid_type: return "invalid_type";
    case ErrorCode::missing_field: return "missing_field";
    case ErrorCode::unknown_field: return "unknown_field";
    case ErrorCode::unknown_kind: return "unknown_kind";
    case ErrorCode::unknown_dtype: return "unknown_dtype";
    case ErrorCode::invalid_dtype_bytes: return "invalid_dtype_bytes";
    case ErrorCode::invalid_dimension: return "invalid_dimension";
    case ErrorCode::invalid_name: return "invalid_name";
    case ErrorCode::duplicate_name: return "duplicate_name";
    case ErrorCode::unknown_input: return "unknown_input";
    case ErrorCode::source_with_inputs: return "source_with_inputs";
    case ErrorCode::cycle: return "cycle";
    case ErrorCode::byte_overflow: return "byte_overflow";
    case ErrorCode::invalid_options: return "invalid_options";
    case ErrorCode::unknown_strategy: return "unknown_strategy";
    case ErrorCode::invalid_plan: return "invalid_plan";
    case ErrorCode::input_too_large: return "input_too_large";
    case ErrorCode::unbound_dim: return "unbound_dim";
  }
  return "invalid_type";
}

std::span<const ErrorCode> all_error_codes() {
  using E = ErrorCode;
  static constexpr std::array kCodes = {
      E::json_syntax,     E::invalid_type,   E::missing_field,      E::unknown_field,   E::unknown_kind,
      E::unknown_dtype,   E::invalid_dtype_bytes, E::invalid_dimension, E::invalid_name, E::duplicate_name,
      E::unknown_input,   E::source_with_inputs, E::cycle,            E::byte_overflow,   E::invalid_options,
      E::unknown_strategy, E::invalid_plan,  E::input_too_large,  E::unbound_dim,
  };
  static_assert(static_cast<std::size_t>(E::unbound_dim) + 1 == kCodes.size(), "list every ErrorCode");
  return kCodes;
}

InternalError::InternalError(std::string invariant, std::string where)
    : std::logic_error("internal error (please report it): " + invariant + " (" + where + ")"),
      invariant_(std::move(invariant)),
      where_(std::move(where)) {}

}  // namespace fusion
