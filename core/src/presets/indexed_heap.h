// presets/indexed_heap.h — a max-heap of ops by (priority, rank), one entry per op, whose key can change in
// place (xla_priority_fusion.cpp's queue).
//
// Keys live in the heap's own array next to their op (16-byte records), positions in a per-op array of
// 4-byte indices. Keys compare as the pair (priority, rank): a higher priority first, then the higher rank
// (callers pass minus the op's place in an order, so ties go to the earlier op). Priorities must not be
// NaN. set/erase cost O(log n); building by appends and one heapify costs O(n).
#pragma once

#include <cstdint>
#include <vector>

#include "fusion/graph.h"

namespace fusion::presets {

class IndexedHeap {
 public:
  struct Key {
    double priority;
    std::int32_t rank;
  };
  explicit IndexedHeap(std::size_t n) : at_(n, -1) {}

  bool empty() const { return items_.empty(); }
  bool contains(OpId x) const { return at_[x] >= 0; }
  void prefetch(OpId x) const { __builtin_prefetch(&at_[x]); }  // a hint before contains(x)
  OpId top() const { return items_.front().op; }

  // While building, set() only appends; ending the build orders everything at once.
  void reserve_build(bool on) {
    building_ = on;
    if (!on)
      for (std::size_t i = items_.size() / 2; i-- > 0;) down(i);
  }

  void set(OpId x, Key key) {
    if (at_[x] < 0) {
      at_[x] = static_cast<std::int32_t>(items_.size());
      items_.push_back({key, x});
    } else {
      items_[static_cast<std::size_t>(at_[x])].key = key;
    }
    if (building_) return;
    up(static_cast<std::size_t>(at_[x]));
    down(static_cast<std::size_t>(at_[x]));
  }

  void erase(OpId x) {
    if (at_[x] < 0) return;
    const std::size_t i = static_cast<std::size_t>(at_[x]);
    const Item last = items_.back();
    items_.pop_back();
    at_[x] = -1;
    if (i < items_.size()) {
      place(i, last);
      up(i);
      down(static_cast<std::size_t>(at_[last.op]));
    }
  }

 private:
  struct Item {
    Key key;
    OpId op;
  };
  // Does key a come before key b (the pair order, larger first)?
  static bool above(const Key& a, const Key& b) {
    return b.priority < a.priority || (!(a.priority < b.priority) && b.rank < a.rank);
  }
  void place(std::size_t i, const Item& item) {
    items_[i] = item;
    at_[item.op] = static_cast<std::int32_t>(i);
  }
  void up(std::size_t i) {
    const Item x = items_[i];
    while (i > 0 && above(x.key, items_[(i - 1) / 2].key)) {
      place(i, items_[(i - 1) / 2]);
      i = (i - 1) / 2;
    }
    place(i, x);
  }
  void down(std::size_t i) {
    const Item x = items_[i];
    for (;;) {
      std::size_t best = i;
      const Key* best_key = &x.key;
      const std::size_t l = 2 * i + 1, r = l + 1;
      if (l < items_.size() && above(items_[l].key, *best_key)) best = l, best_key = &items_[l].key;
      if (r < items_.size() && above(items_[r].key, *best_key)) best = r;
      if (best == i) break;
      place(i, items_[best]);
      i = best;
    }
    place(i, x);
  }

  std::vector<Item> items_;
  std::vector<std::int32_t> at_;  // per op: index in items_, -1 when absent
  bool building_ = false;
};

}  // namespace fusion::presets
