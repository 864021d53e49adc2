// search/xla_duplication.h — priority fusion's recomputation as a choice of the xla plan search (space.h).
//
// XLA fuses a producer into all of its consumers at once, a copy in each (duplication), and then the producer
// exists only as those copies. In the search a member may likewise be *duplicated*: it is in no group, and every
// group computes (holds a copy of) each duplicated member that feeds one of its members through duplicated
// members only. The members that may be duplicated are `duplicable` (local_problem.h): loop ops, not graph outputs,
// read only inside the part, by members each of which they may fuse into (space.h). Every xla plan of a part is
// a set D of them (the members left only as copies) and a partition of the others.
//
// with_duplicated(base, D) is the part's problem under D:
//   - edges with an end in D go; an edge x -> d with d in D becomes an edge x -> c (plan_edge -1) for each member c
//     outside D that d reaches through D only (a group holding x and c computes d between them); pairs with an end
//     in D go, and two members reached from one d that way may pair when they have one iteration space (siblings:
//     they read d's inputs);
//   - direct[i]: the members outside D that i reaches directly or through D only; via[i]: those i reaches through
//     at least one outside op, with D's members as inner ops too (a D member has no reader outside the part);
//     D's members have neither, so they sit in groups of their own that hold nothing (priced as no kernel);
//   - copy_of[c]: the members of D from which c is reached through D only: what c's group computes for it;
//   - after[] follows the new direct[] and via[]; apart_readers loses D's members.
// Pricing and rules then use each group's members with their copies (partition.h, group_rules.h). Merging two
// groups under one D never adds time (the union of their copies is computed once), so the bounds of
// branch_and_bound.h hold for each D.
// The search over the sets D is xla_part.h's.
#pragma once

#include <cstdint>
#include <vector>

#include "search/local_problem.h"

namespace fusion::search {

template <std::size_t W>
LocalProblem<W> with_duplicated(const LocalProblem<W>& base, const Bits<W>& duplicated);

// The problem a node of the duplication search (xla_part.h) is bounded with, where `open` members are still
// undecided: with_duplicated(base, duplicated), which keeps them, plus every sibling pair some decision of them could
// create: two members not in `duplicated`, both reached from one op of duplicated ∪ open through ops of it only, of
// one iteration space. (Keeping an op removes the pairs its copies made; without these, merging every pair would
// not coarsen the plans below the node.)
template <std::size_t W>
LocalProblem<W> with_open_duplication(const LocalProblem<W>& base, const Bits<W>& duplicated, const Bits<W>& open);

}  // namespace fusion::search
