// order_list.test.cpp — labels stay increasing along the list through many moves and relabellings.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "detail/order_list.h"

using fusion::OpId;
using fusion::detail::OrderList;

namespace {
// Walks the list by comparing labels of all listed items: they must be strictly increasing in the
// order the test expects.
void check_order(const OrderList& list, const std::vector<OpId>& expected) {
  for (std::size_t i = 0; i + 1 < expected.size(); ++i) REQUIRE(list.label(expected[i]) < list.label(expected[i + 1]));
}
}  // namespace

TEST_CASE("moves keep the order and labels strictly increasing") {
  OrderList list({0, 1, 2, 3}, 4);
  list.move_after(0, 3);
  check_order(list, {1, 2, 3, 0});
  list.move_before(0, 1);
  check_order(list, {0, 1, 2, 3});
  list.take_place(3, 1);
  CHECK_FALSE(list.in_list(1));
  check_order(list, {0, 3, 2});
}

TEST_CASE("100,000 insertions into one gap force relabelling and keep the order") {
  const int n = 100'002;
  std::vector<OpId> order{0, 1};
  for (OpId x = 2; x < n; ++x) order.push_back(x);
  OrderList list(order, n);
  // Repeatedly insert right after item 0: the gap after 0 halves each time until relabelling.
  std::vector<OpId> expected{0};
  for (OpId x = n - 1; x >= 2; --x) list.move_after(x, 0);
  for (OpId x = 2; x < n; ++x) expected.push_back(x);
  expected.push_back(1);
  check_order(list, expected);
}

TEST_CASE("random moves agree with a plain vector model") {
  std::mt19937 rng(3);
  const int n = 2000;
  std::vector<OpId> model(n);
  for (int i = 0; i < n; ++i) model[i] = i;
  OrderList list(model, n);
  for (int step = 0; step < 20'000; ++step) {
    const OpId x = model[rng() % model.size()];
    OpId anchor = model[rng() % model.size()];
    if (anchor == x) continue;
    model.erase(std::find(model.begin(), model.end(), x));
    const auto at = std::find(model.begin(), model.end(), anchor);
    if (rng() % 2) {
      list.move_after(x, anchor);
      model.insert(at + 1, x);
    } else {
      list.move_before(x, anchor);
      model.insert(at, x);
    }
  }
  check_order(list, model);
}
