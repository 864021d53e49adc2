// detail/op_set.h — a set of op ids (non-negative) by open addressing: one array of slots, linear probing,
// at most half full, so no allocation per element and one cache line per lookup in the common case.
//
// Erasing shifts the following entries of its probe run back (no tombstones), so lookups stay short after
// many erasures. Visiting goes over the slots: O(capacity), at most four times the size after growth (a range
// insert first makes room for the whole range, repeats included). The visiting order is unspecified (callers must
// not depend on it). Expected O(1) per operation.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "fusion/graph.h"

namespace fusion::detail {

class OpSet {
 public:
  std::size_t size() const { return size_; }

  bool contains(OpId x) const {
    if (size_ == 0) return false;
    for (std::size_t i = home(x);; i = next(i)) {
      if (slots_[i] == x) return true;
      if (slots_[i] == kEmpty) return false;
    }
  }

  void insert(OpId x) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    std::size_t i = home(x);
    for (; slots_[i] != kEmpty; i = next(i))
      if (slots_[i] == x) return;
    slots_[i] = x;
    ++size_;
  }

  template <typename It>
  void insert(It first, It last) {
    reserve(size_ + static_cast<std::size_t>(last - first));  // one growth, not one per doubling
    for (; first != last; ++first) insert(*first);
  }

  // Room for `count` ids without growing (the capacity inserting them one by one would end with).
  void reserve(std::size_t count) {
    if (2 * count <= slots_.size()) return;
    std::size_t capacity = slots_.empty() ? 8 : slots_.size();
    while (2 * count > capacity) capacity *= 2;
    rehash(capacity);
  }

  void erase(OpId x) {
    if (size_ == 0) return;
    std::size_t hole = home(x);
    for (; slots_[hole] != x; hole = next(hole))
      if (slots_[hole] == kEmpty) return;
    // Shift back each later entry of the run whose home is not between the hole and it (cyclically).
    for (std::size_t j = next(hole); slots_[j] != kEmpty; j = next(j)) {
      const std::size_t k = home(slots_[j]);
      const bool stays = hole <= j ? (hole < k && k <= j) : (hole < k || k <= j);
      if (stays) continue;
      slots_[hole] = slots_[j];
      hole = j;
    }
    slots_[hole] = kEmpty;
    --size_;
  }

  template <typename Visit>
  void for_each(Visit&& visit) const {
    for (OpId x : slots_)
      if (x != kEmpty) visit(x);
  }

 private:
  static constexpr OpId kEmpty = -1;
  std::size_t home(OpId x) const {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(x) * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  std::size_t next(std::size_t i) const { return (i + 1) & (slots_.size() - 1); }

  void grow() { rehash(slots_.empty() ? 8 : 2 * slots_.size()); }

  void rehash(std::size_t capacity) {
    std::vector<OpId> old = std::move(slots_);
    slots_.assign(capacity, kEmpty);
    shift_ = 64;
    for (std::size_t c = capacity; c > 1; c >>= 1) --shift_;
    size_ = 0;
    for (OpId x : old)
      if (x != kEmpty) insert(x);
  }

  std::vector<OpId> slots_;  // kEmpty or an id; the size is a power of two
  std::size_t size_ = 0;
  unsigned shift_ = 64;      // 64 - log2(capacity): home() takes the top bits of the product
};

}  // namespace fusion::detail
