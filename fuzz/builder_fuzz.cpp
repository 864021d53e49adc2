// builder_fuzz.cpp — libFuzzer target: bytes -> graphs through the C++ builder -> plan -> verify and
// compare with the naive reference planner (see fuzz_checks.h).
#include "fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fusion::fuzz::check_builder_input(data, size);
  return 0;
}
