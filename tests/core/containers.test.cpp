// containers.test.cpp — the planner's small containers against plain standard ones, over random operations:
// detail::OpSet (open addressing with backward-shift erasure), presets::RowArena (lists in blocks that never move) and
// presets::IndexedHeap (a max-heap whose keys change in place).
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "detail/op_set.h"
#include "presets/indexed_heap.h"
#include "presets/row_arena.h"

using fusion::OpId;

namespace {

std::vector<OpId> contents(const fusion::detail::OpSet& set) {
  std::vector<OpId> out;
  set.for_each([&](OpId x) { out.push_back(x); });
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("OpSet holds what a std::set holds through inserts and erasures that wrap around the table") {
  std::mt19937 rng(7);
  for (const int range : {8, 40, 1000}) {  // few ids: long probe runs, many at the table's end
    fusion::detail::OpSet set;
    std::set<OpId> expected;
    for (int step = 0; step < 20'000; ++step) {
      const OpId x = static_cast<OpId>(rng() % range);
      if (rng() % 3 == 0) {
        set.erase(x);
        expected.erase(x);
      } else {
        set.insert(x);
        expected.insert(x);
      }
      REQUIRE(set.size() == expected.size());
      const OpId probe = static_cast<OpId>(rng() % range);
      REQUIRE(set.contains(probe) == (expected.count(probe) == 1));
    }
    CHECK(contents(set) == std::vector<OpId>(expected.begin(), expected.end()));
  }
}

TEST_CASE("OpSet: an empty set contains nothing and erasing from it is harmless") {
  fusion::detail::OpSet set;
  CHECK_FALSE(set.contains(0));
  set.erase(3);
  CHECK(set.size() == 0);
  const std::vector<OpId> ids{5, 1, 5, 9};
  set.insert(ids.begin(), ids.end());
  CHECK(contents(set) == std::vector<OpId>{1, 5, 9});
}

TEST_CASE("RowArena keeps each row as a vector would through assigns, inserts and erasures, views valid while others grow") {
  std::mt19937 rng(11);
  fusion::presets::RowArena<> arena;
  std::vector<fusion::presets::Row> rows(20);
  std::vector<std::vector<OpId>> expected(20);
  for (int step = 0; step < 5'000; ++step) {
    const std::size_t r = rng() % rows.size();
    auto& want = expected[r];
    const std::size_t other = (r + 1) % rows.size();
    const auto before = arena.view(rows[other]);  // taken before r changes: must stay valid (blocks never move)
    const int what = static_cast<int>(rng() % 4);
    if (what == 0) {
      std::vector<OpId> ids(rng() % 9);
      for (OpId& id : ids) id = static_cast<OpId>(rng() % 100);
      arena.assign(rows[r], ids.data(), ids.data() + ids.size());
      want = ids;
    } else if (what == 3 && !want.empty()) {
      const std::size_t at = rng() % want.size();
      arena.erase(rows[r], at);
      want.erase(want.begin() + static_cast<std::ptrdiff_t>(at));
    } else {
      const std::size_t at = rng() % (want.size() + 1);
      const OpId id = static_cast<OpId>(rng() % 100);
      arena.insert(rows[r], at, id);
      want.insert(want.begin() + static_cast<std::ptrdiff_t>(at), id);
    }
    REQUIRE(std::vector<OpId>(before.begin(), before.end()) == expected[other]);
    for (std::size_t k = 0; k < rows.size(); ++k) {  // every row, so a move of one never disturbs another
      const auto view = arena.view(rows[k]);
      REQUIRE(std::vector<OpId>(view.begin(), view.end()) == expected[k]);
    }
  }
}

TEST_CASE("IndexedHeap gives the largest (priority, rank) first through key changes and erasures") {
  std::mt19937 rng(3);
  const std::size_t n = 200;
  fusion::presets::IndexedHeap heap(n);
  std::vector<double> priority(n);
  std::vector<bool> in(n, false);
  auto rank = [](OpId x) { return -static_cast<std::int32_t>(x); };  // ties: the smaller id first
  heap.reserve_build(true);
  for (std::size_t x = 0; x < n; x += 2) {
    priority[x] = static_cast<double>(rng() % 10);  // few values: many ties
    heap.set(static_cast<OpId>(x), {priority[x], rank(static_cast<OpId>(x))});
    in[x] = true;
  }
  heap.reserve_build(false);
  for (int step = 0; step < 3'000; ++step) {
    const auto x = static_cast<OpId>(rng() % n);
    if (rng() % 4 == 0) {
      heap.erase(x);
      in[static_cast<std::size_t>(x)] = false;
    } else {
      priority[static_cast<std::size_t>(x)] = static_cast<double>(rng() % 10);
      heap.set(x, {priority[static_cast<std::size_t>(x)], rank(x)});
      in[static_cast<std::size_t>(x)] = true;
    }
    OpId best = -1;
    for (std::size_t y = 0; y < n; ++y)
      if (in[y] && (best < 0 || priority[y] > priority[static_cast<std::size_t>(best)])) best = static_cast<OpId>(y);
    REQUIRE(heap.empty() == (best < 0));
    if (best >= 0) REQUIRE(heap.top() == best);
    REQUIRE(heap.contains(x) == in[static_cast<std::size_t>(x)]);
  }
}
