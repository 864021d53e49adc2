// presets/row_arena.h — growable lists (of op ids, or of any trivially copyable record) kept in one array, no
// allocation per list, for the per-fusion lists of xla_priority_fusion.cpp.
//
// A Row names a slice of the arena: where it starts, its size and its room. A list that outgrows its room moves
// to the end of the array with twice the room it needs; the slice it leaves is not reused, so the array holds
// at most a few times what was ever stored at once plus what was appended. Growing the arena moves it: pointers
// from data() are valid until the next assign() or insert() on the same arena (use one arena per kind of
// list when one is read while another changes).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "fusion/graph.h"

namespace fusion::presets {

struct Row {
  std::uint64_t begin = 0;
  std::uint32_t size = 0, room = 0;
};

template <typename T = OpId>
class RowArena {
 public:
  std::span<const T> view(const Row& row) const { return {ids_.data() + row.begin, row.size}; }
  std::span<T> view(const Row& row) { return {ids_.data() + row.begin, row.size}; }

  // Replaces the row's ids by [first, last), which must not point into this arena.
  void assign(Row& row, const T* first, const T* last) {
    const auto size = static_cast<std::uint32_t>(last - first);
    if (size > row.room) relocate(row, size);
    std::copy(first, last, ids_.begin() + static_cast<std::ptrdiff_t>(row.begin));
    row.size = size;
  }

  // Inserts id before the row's position `at`.
  void insert(Row& row, std::size_t at, T id) {
    if (row.size == row.room) relocate(row, row.size + 1);
    auto first = ids_.begin() + static_cast<std::ptrdiff_t>(row.begin);
    std::copy_backward(first + static_cast<std::ptrdiff_t>(at), first + row.size, first + row.size + 1);
    first[static_cast<std::ptrdiff_t>(at)] = id;
    ++row.size;
  }

  // Removes the id at the row's position `at`.
  void erase(Row& row, std::size_t at) {
    auto first = ids_.begin() + static_cast<std::ptrdiff_t>(row.begin);
    std::copy(first + static_cast<std::ptrdiff_t>(at) + 1, first + row.size, first + static_cast<std::ptrdiff_t>(at));
    --row.size;
  }

  void reserve(std::size_t ids) { ids_.reserve(ids); }

 private:
  // Moves the row to the end with room for twice `need` ids (just `need` when it had no room), its ids kept.
  void relocate(Row& row, std::uint32_t need) {
    const std::uint64_t begin = ids_.size();
    const std::uint32_t room = row.room == 0 ? need : 2 * need;  // a first placement takes just what it needs
    ids_.resize(begin + room);
    std::copy_n(ids_.begin() + static_cast<std::ptrdiff_t>(row.begin), row.size,
                ids_.begin() + static_cast<std::ptrdiff_t>(begin));
    row.begin = begin;
    row.room = room;
  }

  std::vector<T> ids_;
};

}  // namespace fusion::presets
