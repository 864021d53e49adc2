// search/engine_group.h — the group rules of the engine space (space.h: seed with rules set, recompute none), as
// the verifier checks a rule-engine group (verify/group_kinds.cpp, group_parts.cpp; docs/strategies.md "Group
// shapes under the rules").
//
// engine_monotone_ok(g): the conditions that stay violated in every superset of g, so the search may prune on them
// (group_rules.h may_join): at most one heavy op; an anchor with no movement op beside it and no producer of it in g;
// at most max_group_ops members. (Edges the rule table refuses on their own are apart pairs, local_problem.h.)
// engine_legal(g): may g be a group of a legal plan: engine_monotone_ok, and for its reduction r
//   - epilogue (members r reaches along edges inside g, and side inputs reaching those but not r): r's element
//     count, reading nothing with more elements from outside g;
//   - prologue (members reaching r inside g): read inside g by r or other prologue members only (the reduction reads
//     them in full);
// at most max_group_operands operands (distinct tensors read from outside g plus members written) and at most
// max_live_values operands plus members read by two or more members; and its parts (members joined by edges inside
// g) all joined, which only loop groups are (no heavy op), by reading one tensor from outside g by members of one
// element count (rules.horizontal), or by each moving at most horizontal_small_bytes as a kernel of its own (its
// distinct outside reads plus its written members).
// Work: O(|g| W + outside reads) per call.
#pragma once

#include "search/local_problem.h"

namespace fusion::search {

template <std::size_t W>
bool engine_monotone_ok(const LocalProblem<W>& p, const Bits<W>& g);
template <std::size_t W>
bool engine_legal(const LocalProblem<W>& p, const Bits<W>& g);

}  // namespace fusion::search
