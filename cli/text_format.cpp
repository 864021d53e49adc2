// text_format.cpp — see text_format.h.
#include "text_format.h"

#include <cstdio>

namespace fusion::cli {

std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string pad(std::string text, std::size_t width) {
  if (text.size() > width) return text.substr(0, width - 1) + "~";
  text.resize(width, ' ');
  return text;
}

std::string fixed(double value, const char* format) {
  char text[48];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

}  // namespace fusion::cli
