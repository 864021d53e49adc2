// search/bits.h — a set of small indices in W 64-bit words (0 .. 64 W - 1), the search's bitmask.
//
// Fixed width, so a set is a plain value (no allocation) and W = 1 compiles to single-word operations. The search
// picks the smallest width its part fits (local_problem.h: 64, 256 or 1,024 ops).
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace fusion::search {

template <std::size_t W>
struct Bits {
  std::array<std::uint64_t, W> words{};

  static Bits of(std::size_t i) {
    Bits b;
    b.set(i);
    return b;
  }
  void set(std::size_t i) { words[i >> 6] |= std::uint64_t{1} << (i & 63); }
  bool test(std::size_t i) const { return (words[i >> 6] >> (i & 63)) & 1; }
  bool any() const {
    for (std::uint64_t w : words)
      if (w) return true;
    return false;
  }
  int count() const {
    int n = 0;
    for (std::uint64_t w : words) n += std::popcount(w);
    return n;
  }
  bool several() const {  // at least two members (no count needed)
    bool one = false;
    for (std::uint64_t w : words) {
      if (!w) continue;
      if ((w & (w - 1)) || one) return true;
      one = true;
    }
    return false;
  }
  std::size_t first() const {  // the smallest member; any() must hold
    std::size_t k = 0;
    while (!words[k]) ++k;
    return k * 64 + static_cast<std::size_t>(std::countr_zero(words[k]));
  }
  bool intersects(const Bits& o) const {
    for (std::size_t k = 0; k < W; ++k)
      if (words[k] & o.words[k]) return true;
    return false;
  }
  Bits& operator|=(const Bits& o) {
    for (std::size_t k = 0; k < W; ++k) words[k] |= o.words[k];
    return *this;
  }
  Bits& operator&=(const Bits& o) {
    for (std::size_t k = 0; k < W; ++k) words[k] &= o.words[k];
    return *this;
  }
  Bits minus(const Bits& o) const {
    Bits b = *this;
    for (std::size_t k = 0; k < W; ++k) b.words[k] &= ~o.words[k];
    return b;
  }
  friend Bits operator|(Bits a, const Bits& b) { return a |= b; }
  friend Bits operator&(Bits a, const Bits& b) { return a &= b; }
  bool operator==(const Bits&) const = default;

  // Calls f(index) for each member, ascending.
  template <typename F>
  void each(F f) const {
    for (std::size_t k = 0; k < W; ++k)
      for (std::uint64_t w = words[k]; w; w &= w - 1) f(k * 64 + static_cast<std::size_t>(std::countr_zero(w)));
  }
};

}  // namespace fusion::search
