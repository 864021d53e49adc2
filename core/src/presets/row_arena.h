// presets/row_arena.h — growable lists (of op ids, or of any trivially copyable record) kept in a few large
// blocks, no allocation per list, for the per-fusion lists of xla_priority_fusion.cpp.
//
// A Row names a slice of a block: its address, its size and its room. A list that outgrows its room moves to
// the free end of the newest block with twice the room it needs (a new block, twice as large as the last or as
// large as the row needs, when it does not fit); the slice it leaves is not reused, so the blocks hold at most
// a few times what was ever stored at once plus what was appended. Blocks never move and are freed with the
// arena: a view stays valid until its own row is changed (assign, insert, erase), whatever happens to others.
// Growing copies only the row that moves, and a block's pages are first written when rows are placed there.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "fusion/graph.h"

namespace fusion::presets {

struct Row {
  std::uintptr_t at = 0;  // the address of its first entry (0 while it never had room)
  std::uint32_t size = 0, room = 0;
};

template <typename T = OpId>
class RowArena {
  static_assert(std::is_trivially_default_constructible_v<T> && std::is_trivially_copyable_v<T>);

 public:
  std::span<const T> view(const Row& row) const { return {first(row), row.size}; }
  std::span<T> view(const Row& row) { return {first(row), row.size}; }

  // Replaces the row's ids by [first, last), which must not point into this row.
  void assign(Row& row, const T* from, const T* to) {
    const auto size = static_cast<std::uint32_t>(to - from);
    if (size > row.room) relocate(row, size);
    std::copy(from, to, first(row));
    row.size = size;
  }

  // Inserts id before the row's position `at`.
  void insert(Row& row, std::size_t at, T id) {
    if (row.size == row.room) relocate(row, row.size + 1);
    T* const ids = first(row);
    std::copy_backward(ids + at, ids + row.size, ids + row.size + 1);
    ids[at] = id;
    ++row.size;
  }

  // Removes the id at the row's position `at`.
  void erase(Row& row, std::size_t at) {
    T* const ids = first(row);
    std::copy(ids + at + 1, ids + row.size, ids + at);
    --row.size;
  }

  // The size of the first block (a hint: how many ids the rows will need in all, holes included).
  void reserve(std::size_t ids) {
    if (blocks_.empty()) add_block(ids);
  }

 private:
  static constexpr std::size_t kFirstBlock = 1024;

  static T* first(const Row& row) { return reinterpret_cast<T*>(row.at); }

  void add_block(std::size_t ids) {
    const std::size_t last = blocks_.empty() ? kFirstBlock / 2 : capacity_;
    capacity_ = std::max({ids, 2 * last, kFirstBlock});
    blocks_.emplace_back(new T[capacity_]);  // default-initialised: no write to its pages yet
    used_ = 0;
  }

  // Moves the row to the newest block with room for twice `need` ids (just `need` when it had no room), its ids
  // kept.
  void relocate(Row& row, std::uint32_t need) {
    const std::uint32_t room = row.room == 0 ? need : 2 * need;  // a first placement takes just what it needs
    if (blocks_.empty() || capacity_ - used_ < room) add_block(room);
    T* const to = blocks_.back().get() + used_;
    std::copy_n(first(row), row.size, to);
    used_ += room;
    row.at = reinterpret_cast<std::uintptr_t>(to);
    row.room = room;
  }

  std::vector<std::unique_ptr<T[]>> blocks_;
  std::size_t capacity_ = 0, used_ = 0;  // the newest block's size and its ids placed
};

}  // namespace fusion::presets
