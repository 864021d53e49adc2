// test_scale.h — how many random cases a property suite runs: its full count, divided by the environment
// variable FUSION_TEST_SCALE when that is set (never below 1). tools/run-tests.mjs sets it to 8 for the run under
// AddressSanitizer + UBSan, where every case is 10-20x slower and an eighth of the cases still walks the same
// code; the native run keeps the full counts. reduced_run() tells the size-limit cases to skip there.
#pragma once

#include <algorithm>
#include <cstdlib>

namespace fusion::testing {

inline int scaled(int count) {
  const char* text = std::getenv("FUSION_TEST_SCALE");
  const int divisor = text ? std::max(1, std::atoi(text)) : 1;
  return std::max(1, count / divisor);
}

// True when FUSION_TEST_SCALE asks for fewer cases (the sanitizer run). The few cases that exist to show size
// limits (a 100,000-op chain and the like: one graph, no random cases to divide) skip there with
// `* doctest::skip(reduced_run())`: the native run covers them at full size, and under the sanitizers each cost as
// much as a whole suite.
inline bool reduced_run() { return scaled(2) < 2; }

}  // namespace fusion::testing
