// shape.test.cpp — the broadcast rule and exact, overflow-checked byte counts.
#include <doctest/doctest.h>

#include "fusion/shape.h"

using namespace fusion;

TEST_CASE("NumPy's trailing-dimension rule") {
  CHECK(broadcast_compatible({4, 3}, {3}));
  CHECK(broadcast_compatible({4, 3}, {1, 3}));
  CHECK(broadcast_compatible({4, 1}, {1, 3}));
  CHECK(broadcast_compatible({}, {7, 7}));
  CHECK(broadcast_compatible({2, 4, 3}, {4, 1}));
  CHECK_FALSE(broadcast_compatible({4, 3}, {4}));
  CHECK_FALSE(broadcast_compatible({4, 1}, {5, 3}));
  CHECK_FALSE(broadcast_compatible({0}, {2}));
  CHECK(broadcast_compatible({0}, {1}));
}

TEST_CASE("tensor bytes are exact and refuse anything above 2^53 - 1") {
  CHECK(tensor_bytes({1024, 768}, 4) == 3'145'728u);
  CHECK(tensor_bytes({}, 8) == 8u);
  CHECK(tensor_bytes({0, 1LL << 40}, 4) == 0u);
  CHECK(tensor_bytes({1LL << 26, 1LL << 26}, 1) == (std::uint64_t{1} << 52));
  CHECK_FALSE(tensor_bytes({1LL << 26, 1LL << 26}, 2).has_value());  // exactly 2^53: one too many
  CHECK_FALSE(tensor_bytes({1LL << 27, 1LL << 27}, 4).has_value());
  CHECK_FALSE(tensor_bytes({1LL << 40, 1LL << 40, 1LL << 40}, 4).has_value());  // overflows 64 bits
  CHECK_FALSE(tensor_bytes({-1}, 4).has_value());
}

TEST_CASE("byte sums stop at 2^53 - 1") {
  CHECK(add_bytes(1, 2) == 3u);
  CHECK(add_bytes(kMaxExactBytes, 0) == kMaxExactBytes);
  CHECK_FALSE(add_bytes(kMaxExactBytes, 1).has_value());
}
