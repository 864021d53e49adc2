// detail/order_list.h — a list of ops with order labels: "is x before y?" in O(1) while items move.
//
// Used by grouping.cpp to keep a topological order of the group graph as groups merge. Items are op
// ids; each carries a 64-bit label increasing along the list. Moving an item next to another gives it
// a label in the gap; when a gap is used up, a window around it, doubled until sparse enough, is
// relabelled evenly (amortized O(log n) per move; Dietz & Sleator 1987, Bender et al. 2002, simplified).
// Shown by tests/core/order_list.test.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "fusion/graph.h"

namespace fusion::detail {

class OrderList {
 public:
  // The list holds `order` (ids below n) in that order.
  OrderList(const std::vector<OpId>& order, std::size_t n);

  std::uint64_t label(OpId x) const { return label_[static_cast<std::size_t>(x)]; }
  bool in_list(OpId x) const { return next_[static_cast<std::size_t>(x)] != kNone; }

  void move_after(OpId x, OpId anchor);   // x leaves its place and follows anchor
  void move_before(OpId x, OpId anchor);  // x leaves its place and precedes anchor
  void take_place(OpId x, OpId old);      // x leaves its place and takes old's; old leaves the list
  void remove(OpId x);

 private:
  static constexpr OpId kNone = -1;
  void link_after(OpId x, OpId anchor);
  void spread_around(OpId anchor);

  OpId head_, tail_;  // sentinels with the smallest and largest labels
  std::vector<OpId> prev_, next_;
  std::vector<std::uint64_t> label_;
};

}  // namespace fusion::detail
