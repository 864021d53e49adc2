// json_text.cpp — parsing with a located json_syntax error.
#include "detail/json_text.h"

namespace fusion::detail {

Error make_error(ErrorCode code, std::string message, std::string path, std::optional<std::int64_t> op) {
  return Error{code, std::move(message), op, std::move(path), {}, {}};
}

Expected<nlohmann::json> parse_text(std::string_view text) {
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is the 1-based offset of the character that failed; count lines and columns up to it.
    const std::size_t at = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    std::int64_t line = 1, column = 1;
    for (std::size_t i = 0; i < at; ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    std::string what = e.what();  // "[json.exception.parse_error.101] parse error at ...: <detail>"
    if (const auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
    Error error = make_error(ErrorCode::json_syntax,
                             "JSON syntax error at line " + std::to_string(line) + ", column " +
                                 std::to_string(column) + ": " + what,
                             "");
    error.line = line;
    error.column = column;
    return error;
  }
}

}  // namespace fusion::detail
