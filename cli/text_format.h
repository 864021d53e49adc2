// text_format.h — fixed-width text pieces shared by the CLI's tables (plan_table.h, sweep_table.h).
#pragma once

#include <cstdint>
#include <string>

namespace fusion::cli {

// 15734784 -> "15,734,784"
std::string grouped(std::uint64_t n);
// The text padded with spaces to `width`, or cut to width - 1 characters and "~".
std::string pad(std::string text, std::size_t width);
// printf-style formatting of one number, e.g. fixed(2.5, "%.2f") -> "2.50".
std::string fixed(double value, const char* format);

}  // namespace fusion::cli
