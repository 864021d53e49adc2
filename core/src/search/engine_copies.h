// search/engine_copies.h — recomputation over a searched grouping, for the engine search with copies (`seed` with
// `recompute` cheap or all, `xla-classic`; docs/design.md §17 "Search under xla-classic and recompute").
//
// with_copies runs the rule engine's own recompute pass (detail/recompute.h, under the plan's rules) over a
// grouping without copies, as greedy runs it after its vertical and horizontal passes: each copy it makes keeps
// the groups within the rules and the group graph acyclic, moves fewer bytes and, with refuse_unprofitable, takes
// less time. The groups' rule texts are replaced (greedy's no longer describe them): under xla-classic each
// multi-op group says `plan search: N ops, the fastest grouping the rule engine allows` (copies counted); seed's
// groups carry none. Work: the recompute pass's, O((n + m) log m).
#pragma once

#include "detail/grouping.h"
#include "presets/presets.h"

namespace fusion::search {

detail::Grouping with_copies(const presets::PresetInput& in, detail::Grouping grouping);

// The grouping with its rule texts replaced as with_copies replaces them (after packing, search/engine_pack.h).
detail::Grouping with_search_rules(const presets::PresetInput& in, detail::Grouping grouping);

}  // namespace fusion::search
