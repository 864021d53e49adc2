// fusion/error.h — user errors as values, and the one exception that marks a bug.
//
// A user mistake (bad JSON, an input that names no op, a cycle, ...) is an `Error`: a stable code, a
// message that says what is wrong and how to fix it, and where (op index, JSON path, line/column).
// `Expected<T>` carries a value or a list of Errors.
// A bug of the planner is never an Error: an internal check (detail/internal_check.h) that finds a broken
// invariant throws `InternalError`, naming the invariant and the source line. The API facade (fusion/api.h)
// reports it, and running out of memory, with the failure codes "internal_error" and "out_of_memory",
// which are not ErrorCodes. Shown by tests/core/errors.test.cpp (one case per code) and
// tests/core/internal_check.test.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
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
  unbound_dim,          // a named dimension with no value (docs/design.md §16)
};

// The stable lower_snake_case name of a code, as it appears in JSON.
const char* to_string(ErrorCode code);

// Every user error code, in declaration order (for the catalog, docs and tests).
std::span<const ErrorCode> all_error_codes();

// A broken invariant: a bug in the planner, never a user mistake. what() reads
// "internal error (please report it): <invariant> (<file>:<line>)".
class InternalError : public std::logic_error {
 public:
  InternalError(std::string invariant, std::string where);
  const std::string& invariant() const { return invariant_; }
  const std::string& where() const { return where_; }

 private:
  std::string invariant_;  // the rule that was broken, in words
  std::string where_;      // "core/src/planner.cpp:123"
};

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
