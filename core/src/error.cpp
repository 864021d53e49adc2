// error.cpp — the stable names of error codes.
#include "fusion/error.h"

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
    case ErrorCode::out_of_memory: return "out_of_memory";
    case ErrorCode::internal_error: return "internal_error";
  }
  return "internal_error";
}

}  // namespace fusion
