// detail/recompute.h — pass 3 of strategy_grouping.h: recomputing cheap producers inside their readers.
//
// A candidate p is a non-source loop op (not expensive under `recompute: cheap`, not marked `output`, not
// reading an op that already has copies), owned by group G, whose inputs all lie outside G and are not
// copies themselves, which is read by other groups H1..Hk and either is G's only member or is also read
// inside G. Each Hi gets a copy of p, so no Hi reads p from memory and G stops writing p (a one-op G
// disappears). It is done when every reading edge may merge (strategy_legality.h; into a reduction
// group only as the reduction's own input; into an anchor group only when elementwise), every Hi stays
// within max_group_ops / max_group_operands / max_live_values, the plan moves fewer bytes, and, with
// refuse_unprofitable, the time model says the plan gets faster (else the reading edges get
// `unprofitable`). Per-group bytes, flops and counts are kept exactly as the copies
// are made. The group graph stays acyclic: each Hi already came after G, which came after the groups
// of p's inputs. Updates Grouping::representative (-1 for an op left only as copies), ::copies and
// ::reasons. O((n + m) log m).
#pragma once

#include "detail/grouping.h"

namespace fusion::detail {

struct RecomputeInput {
  const FusionGraph& graph;
  const Producers& producers;
  const Consumers& consumers;
  const std::vector<OpId>& order;
  const PlannerOptions& options;
  const std::vector<OpId>& heavy;  // per representative: its heavy op, or -1
};

void recompute(const RecomputeInput& in, Grouping& grouping);

}  // namespace fusion::detail
