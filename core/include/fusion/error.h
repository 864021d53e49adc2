// fusion/error.h — user errors as values.
//
// A user mistake (bad JSON, an input that names no op, a cycle, ...) is an `Error`: a stable code, a
// message that says what is wrong and how to fix it, and where (op index, JSON path, line/column).
// Internal bugs are asserts, never Errors. `Expected<T>` carries a value or a list of Errors.
// Shown by tests/core/errors.test.cpp (one case per code).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace fusion {

enum class ErrorCode {
  json_syntax,          // the text is not JSON (line/column given)
  invalid_type,         // a field has the wrong JSON type, or the top level is not an object
  missing_field,        // a required field is absent
  unknown_field,        // a field the format does not define (likely a typo)
  unknown_kind,         // `kind` names no op kind
  unknown_dtype,        // `dtype` names no element type
  invalid_dtype_bytes,  // dtype_bytes <= 0, not an integer, or disagreeing with dtype
  invalid_dimension,    // a dimension that is negative, not an integer, or above 2^53 - 1
  invalid_name,         // an empty name
  duplicate_name,       // two ops share a name
  unknown_input,        // an input references no op
  source_with_inputs,   // an op of kind input/constant that has inputs
  cycle,                // the ops form a cycle
  byte_overflow,        // a byte count that does not fit exactly in a JS number (2^53 - 1)
  invalid_options,      // options that are not {"broadcast", "resident_sources", "strategy"}
  unknown_strategy,     // a strategy name the planner does not know
  invalid_plan,         // a plan given to the verifier cannot be read
  input_too_large,      // a text above the API's size cap (api.h)
  out_of_memory,        // the planner ran out of memory (reported by the API facade)
  internal_error,       // a bug: please report it (reported by the API facade)
};

// The stable lower_snake_case name of a code, as it appears in JSON.
const char* to_string(ErrorCode code);

struct Error {
  ErrorCode code;
  std::string message;
  std::optional<std::int64_t> op;  // the op concerned (its index / id)
  std::string path;                // JSON pointer, e.g. "/ops/3/inputs/0"; empty when none
  std::optional<std::int64_t> line;
  std::optional<std::int64_t> column;
};

// A value of T, or the (non-empty) list of errors that prevented it.
template <typename T>
class Expected {
 public:
  Expected(T value) : state_(std::move(value)) {}
  Expected(Error error) : state_(std::vector<Error>{std::move(error)}) {}
  Expected(std::vector<Error> errors) : state_(std::move(errors)) {}

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return std::get<T>(state_); }
  T& value() & { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  const std::vector<Error>& errors() const { return std::get<std::vector<Error>>(state_); }

 private:
  std::variant<T, std::vector<Error>> state_;
};

}  // namespace fusion
