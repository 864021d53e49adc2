// detail/json_text.h — JSON text to nlohmann::json, with syntax errors located by line and column.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "fusion/error.h"

namespace fusion::detail {

Expected<nlohmann::json> parse_text(std::string_view text);

// A json_syntax error at the 1-based byte `position` of text, with its line and column, saying `what`
// (nlohmann's "[json.exception...] parse error at ...: " prefix is dropped).
Error syntax_error(std::string_view text, std::size_t position, const std::string& what);

Error make_error(ErrorCode code, std::string message, std::string path, std::optional<std::int64_t> op = {});

}  // namespace fusion::detail
