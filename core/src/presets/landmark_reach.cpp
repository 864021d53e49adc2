// landmark_reach.cpp — the landmark reachability rows of landmark_reach.h.
#include "presets/landmark_reach.h"

#include <algorithm>
#include <bit>

namespace fusion::presets {
namespace {

constexpr std::size_t kMaxLandmarkWords = 16;  // at most 1024 landmarks
constexpr std::size_t kLandmarkRowWords = std::size_t{1} << 22;  // nodes × words per table (32 MiB each)

}  // namespace

LandmarkReach::LandmarkReach(detail::NodeView g, const detail::Consumers& consumers)
    : words_(row_words(g, consumers)), reaches_(g.size() * words_, 0), reached_by_(g.size() * words_, 0) {
  if (words_ == 0) return;
  choose_landmarks(g, consumers);
  set_row_windows(g.size());
  for (std::size_t x = g.size(); x-- > 0;)  // ids are topological: consumers come later
    for (auto c = consumers.begin(static_cast<OpId>(x)); c != consumers.end(static_cast<OpId>(x)); ++c)
      unite_rows(reaches_, static_cast<OpId>(x), *c, first_word_[x], words_);
  for (std::size_t x = 0; x < g.size(); ++x)
    for (OpId in : g.inputs(static_cast<OpId>(x)))
      unite_rows(reached_by_, static_cast<OpId>(x), in, 0, end_word_[x]);
}

void LandmarkReach::absorb(OpId into, OpId from) {
  if (words_ == 0) return;
  const auto i = static_cast<std::size_t>(into), f = static_cast<std::size_t>(from);
  first_word_[i] = std::min(first_word_[i], first_word_[f]);
  end_word_[i] = std::max(end_word_[i], end_word_[f]);
  unite_rows(reaches_, into, from, first_word_[i], words_);
  unite_rows(reached_by_, into, from, 0, end_word_[i]);
}

bool LandmarkReach::proves_path(OpId early, OpId late, detail::GroupGraph& groups) const {
  if (words_ == 0) return false;
  const std::uint64_t* from = row(reaches_, early);
  const std::uint64_t* to = row(reached_by_, late);
  for (std::size_t w = first_word_[early]; w < end_word_[late]; ++w)
    for (std::uint64_t both = from[w] & to[w]; both != 0; both &= both - 1) {
      const OpId group = groups.find(landmarks_[w * 64 + static_cast<std::size_t>(std::countr_zero(both))]);
      if (group != early && group != late) return true;
    }
  return false;
}

bool LandmarkReach::can_be_inside(detail::NodeView g, const detail::Consumers& consumers, OpId x) {
  return !g.is_source(x) && consumers.count(x) > 0;
}

std::size_t LandmarkReach::row_words(detail::NodeView g, const detail::Consumers& consumers) {
  std::size_t inside = 0;
  for (std::size_t x = 0; x < g.size(); ++x) inside += can_be_inside(g, consumers, static_cast<OpId>(x));
  const std::size_t affordable = kLandmarkRowWords / std::max<std::size_t>(g.size(), 1);
  return std::min({kMaxLandmarkWords, std::max<std::size_t>(affordable, 1), (inside + 63) / 64});
}

void LandmarkReach::choose_landmarks(detail::NodeView g, const detail::Consumers& consumers) {
  std::vector<OpId> inside;
  for (std::size_t x = 0; x < g.size(); ++x)
    if (can_be_inside(g, consumers, static_cast<OpId>(x))) inside.push_back(static_cast<OpId>(x));
  const std::size_t count = std::min(words_ * 64, inside.size());
  for (std::size_t k = 0; k < count; ++k) {
    const OpId x = inside[k * inside.size() / count];
    const std::size_t bit = landmarks_.size();
    landmarks_.push_back(x);
    row(reaches_, x)[bit / 64] |= std::uint64_t{1} << (bit % 64);
    row(reached_by_, x)[bit / 64] |= std::uint64_t{1} << (bit % 64);
  }
}

void LandmarkReach::set_row_windows(std::size_t n) {
  first_word_.resize(n);
  end_word_.resize(n);
  std::size_t after = 0;  // landmarks before op x
  for (std::size_t x = 0; x < n; ++x) {
    while (after < landmarks_.size() && static_cast<std::size_t>(landmarks_[after]) < x) ++after;
    const bool is_landmark = after < landmarks_.size() && static_cast<std::size_t>(landmarks_[after]) == x;
    first_word_[x] = static_cast<std::uint32_t>(after / 64);
    end_word_[x] = static_cast<std::uint32_t>((after + is_landmark + 63) / 64);
  }
}

void LandmarkReach::unite_rows(std::vector<std::uint64_t>& rows, OpId into, OpId from, std::size_t begin,
                std::size_t end) const {
  std::uint64_t* to = row(rows, into);
  const std::uint64_t* add = row(rows, from);
  for (std::size_t w = begin; w < end; ++w) to[w] |= add[w];
}

}  // namespace fusion::presets
