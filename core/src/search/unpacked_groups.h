// search/unpacked_groups.h — greedy's grouping with each group split into its data-connected components, the
// incumbent of the engine space (space.h: seed with rules set).
//
// A group's data-connected components are its members joined by edges inside the group and, when the space pairs
// readers of one tensor (rules.horizontal or horizontal_small_bytes), by reading one tensor from outside the group.
// Small-kernel packing joins components that share nothing, so the split plan moves the same bytes and stays legal
// and acyclic (space.h argues it); it is made of groups the search can form, so its score is the search's incumbent.
// Each component's representative is its smallest op id; ops greedy left out of every group (-1) stay out.
// Work: O(n + m) with a union-find.
#pragma once

#include "detail/grouping.h"
#include "search/space.h"

namespace fusion::search {

detail::Grouping data_connected(const SearchSpace& space, const detail::Producers& producers,
                                const detail::Grouping& greedy);

}  // namespace fusion::search
