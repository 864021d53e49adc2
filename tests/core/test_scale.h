// test_scale.h — how many random cases a property suite runs: its full count, divided by the environment
// variable FUSION_TEST_SCALE when that is set (never below 1). tools/run-tests.mjs sets it to 4 for the run under
// AddressSanitizer + UBSan, where every case is 10-20x slower and a quarter of the cases still walks the same
// code; the native run keeps the full counts.
#pragma once

#include <algorithm>
#include <cstdlib>

namespace fusion::testing {

inline int scaled(int count) {
  const char* text = std::getenv("FUSION_TEST_SCALE");
  const int divisor = text ? std::max(1, std::atoi(text)) : 1;
  return std::max(1, count / divisor);
}

}  // namespace fusion::testing
