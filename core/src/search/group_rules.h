// search/group_rules.h — which sets of a part's members may form one group, in the part's space (space.h).
//
// may_join(a, b): could the members of a and b (disjoint) share a group in some partition, judged by what adding
// more members never undoes: no apart pair between them; under tvm also at most one member of pattern kCommReduce
// or above, at most max_depth members, and nothing above kBroadcast downstream of a kOutEWiseFusable member
// inside the group (its epilogue). Each of these stays violated in every superset, so the search may prune on it.
// legal_group(g): may g be a group of a legal plan: may_join's conditions for g itself, and under tvm exactly one
// root (a member that is a graph output or read outside g). A reduction is then always the root: it has no
// reader inside (the space keeps it apart from its readers). Under inductor (the scheduler's can_fuse, as the
// group it builds pair by pair ends up): at most max_group_ops nodes; reductions of one range (n, r) and every
// other node of numel n·r or n, or without a reduction one numel; at most one template, whose other members are
// pointwise nodes or ConcatKernels of its numel, none a producer of it, at least one reading it; no reduction with
// a template.
// Under xla a group's kernel is its members and their copies (xla_duplication.h); may_join: no reduction reaches
// another in the kernel, all a reduction reaches in it is elementwise of its output elements, and a scatter's
// kernel holds neither its in-place operand nor a reader of it; legal_group adds that a bitcast (reshape) reading
// the kernel is not written, and at most max_group_operands operands (tensors read) plus outputs (members written).
// Seed has no group rule beyond the apart pairs; engine (seed with rules set) has engine_group.h's.
// Work: O(|g| W) per call. Shown by tests/core/search_presets.test.cpp against a brute-force enumerator.
#pragma once

#include "search/local_problem.h"

namespace fusion::search {

// Is there an apart pair (local_problem.h) between a member of a and one of b?
template <std::size_t W>
bool has_apart_pair(const LocalProblem<W>& p, const Bits<W>& a, const Bits<W>& b);
// Members of g that are roots (tvm): a graph output, or read outside g (a forced write is either); with
// `separated` (per member, readers it shares no group with in any partition below a search node) also those with
// such a reader in g, or with two readers in g that never share a group (both of pattern kCommReduce or above,
// an apart or separated pair, or one reaching the other through outside ops), or that no other member
// post-dominates (local_problem.h): each is a root in every split of g (partition.h, bound_score).
template <std::size_t W>
std::int64_t roots_of(const LocalProblem<W>& p, const Bits<W>& g, const std::vector<Bits<W>>* separated = nullptr);
template <std::size_t W>
bool may_join(const LocalProblem<W>& p, const Bits<W>& a, const Bits<W>& b);
template <std::size_t W>
bool legal_group(const LocalProblem<W>& p, const Bits<W>& g);

}  // namespace fusion::search
