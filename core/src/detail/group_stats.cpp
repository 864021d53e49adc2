// group_stats.cpp — initial per-op counts and applying a scanned merge (group_stats.h).
#include "detail/group_stats.h"

namespace fusion::detail {

GroupStats::GroupStats(NodeView g, const Producers& producers, const Consumers& consumers,
                       const std::vector<std::vector<OpId>>& members)
    : g_(g), producers_(producers), consumers_(consumers), members_(members) {
  const std::size_t n = g.size();
  counts_.resize(n);
  inputs_.resize(n);
  outside_readers_.resize(n);
  inside_readers_.assign(n, 0);
  for (std::size_t x = 0; x < n; ++x) {
    const OpId id = static_cast<OpId>(x);
    outside_readers_[x] = static_cast<std::int32_t>(consumers.count(id));
    counts_[x] = {1, static_cast<std::int64_t>(producers.count(id)), 1, 0};  // every single op is written
  }
}

// Moves the merged counts and inputs into `into`'s slot and frees the small group's.
void GroupStats::apply(OpId into) {
  inputs_[small_] = OpSet();
  counts_[large_] = merged_;
  if (into != large_) {
    std::swap(inputs_[into], inputs_[large_]);
    std::swap(counts_[into], counts_[large_]);
  }
}

}  // namespace fusion::detail
