// json_fuzz.cpp — libFuzzer target: any text through read -> plan -> verify (see fuzz_checks.h).
#include "fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fusion::fuzz::check_json_input(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
