// order_list.cpp — labelled linked list with even relabelling of a growing window.
#include "detail/order_list.h"

#include <limits>

namespace fusion::detail {
namespace {
constexpr std::uint64_t kSpacing = std::uint64_t{1} << 32;
constexpr std::uint64_t kRoomPerItem = 1024;  // a relabelled window leaves at least this gap per item
}  // namespace

OrderList::OrderList(const std::vector<OpId>& order, std::size_t n)
    : head_(static_cast<OpId>(n)), tail_(static_cast<OpId>(n + 1)), prev_(n + 2, kNone), next_(n + 2, kNone),
      label_(n + 2, 0) {
  OpId last = head_;
  std::uint64_t l = 0;
  for (OpId x : order) {
    next_[last] = x;
    prev_[x] = last;
    label_[x] = l += kSpacing;
    last = x;
  }
  next_[last] = tail_;
  prev_[tail_] = last;
  label_[tail_] = std::numeric_limits<std::uint64_t>::max();
}

void OrderList::remove(OpId x) {
  next_[prev_[x]] = next_[x];
  prev_[next_[x]] = prev_[x];
  next_[x] = prev_[x] = kNone;
}

void OrderList::move_after(OpId x, OpId anchor) {
  remove(x);
  link_after(x, anchor);
}

void OrderList::move_before(OpId x, OpId anchor) {
  remove(x);
  link_after(x, prev_[anchor]);
}

void OrderList::take_place(OpId x, OpId old) {
  remove(x);
  prev_[x] = prev_[old];
  next_[x] = next_[old];
  next_[prev_[x]] = x;
  prev_[next_[x]] = x;
  label_[x] = label_[old];
  next_[old] = prev_[old] = kNone;
}

void OrderList::link_after(OpId x, OpId anchor) {
  if (label_[next_[anchor]] - label_[anchor] < 2) spread_around(anchor);
  const OpId after = next_[anchor];
  label_[x] = label_[anchor] + (label_[after] - label_[anchor]) / 2;
  prev_[x] = anchor;
  next_[x] = after;
  next_[anchor] = x;
  prev_[after] = x;
}

// Relabels a window of items around anchor evenly between the labels that bound it, doubling the
// window until that leaves kRoomPerItem per item. The sentinels' labels never change.
void OrderList::spread_around(OpId anchor) {
  OpId first = anchor == head_ ? next_[anchor] : anchor;
  OpId last = first;
  std::uint64_t count = 1;
  for (std::uint64_t want = 2;; want *= 2) {
    while (count < want && (prev_[first] != head_ || next_[last] != tail_)) {
      if (prev_[first] != head_) first = prev_[first], ++count;
      if (next_[last] != tail_ && count < want) last = next_[last], ++count;
    }
    const std::uint64_t low = label_[prev_[first]], high = label_[next_[last]];
    const std::uint64_t step = (high - low) / (count + 1);
    const bool whole_list = prev_[first] == head_ && next_[last] == tail_;
    if (step >= kRoomPerItem || whole_list) {
      std::uint64_t l = low;
      for (OpId x = first;; x = next_[x]) {
        label_[x] = l += step;
        if (x == last) break;
      }
      return;
    }
  }
}

}  // namespace fusion::detail
