// json_text.cpp — parsing with a located json_syntax error.
#include "detail/json_text.h"

namespace fusion::detail {

Error make_error(ErrorCode code, std::string message, std::string path, std::optional<std::int64_t> op) {
  return Error{code, std::move(message), op, std::move(path), {}, {}};
}

Error syntax_error(std::string_view text, std::size_t position, const std::string& what) {
  const std::size_t at = std::min<std::size_t>(position == 0 ? 0 : position - 1, text.size());
  std::int64_t line = 1, column = 1;
  for (std::size_t i = 0; i < at; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  std::string detail = what;
  if (const auto colon = detail.find(": "); colon != std::string::npos && detail.rfind("[json.", 0) == 0)
    detail = detail.substr(colon + 2);
  Error error = make_error(ErrorCode::json_syntax,
                           "JSON syntax error at line " + std::to_string(line) + ", column " + std::to_string(column) +
                               ": " + detail,
                           "");
  error.line = line;
  error.column = column;
  return error;
}

Expected<nlohmann::json> parse_text(std::string_view text) {
  if (const auto nul = text.find('\0'); nul != std::string_view::npos)
    return syntax_error(text, nul + 1, "the text contains a NUL character, which JSON does not allow");
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    return syntax_error(text, e.byte, e.what());
  }
}

}  // namespace fusion::detail
