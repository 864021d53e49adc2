// verify/numerics.cpp — numerics (docs/design.md §18): under eager parity no fused edge leaves a rounding point
// (so no group has a rounding note); every group's notes are those the rules of core/src/numerics/notes.h give
// for the plan's groups, each about members of its group, and no group has notes when numerics is off; the
// evaluator's outputs are exactly the graph's outputs (non-source ops with no reader or marked output), ascending,
// and what it skipped are non-source ops, ascending. The notes' rules are shared with the planner (they are the
// definition); what they are checked against, the groups, is not. The evaluator's figures are not re-computed.
#include <algorithm>

#include "numerics/notes.h"
#include "verify/context.h"

namespace fusion::verifier {
namespace {

void check_parity(Context& c) {
  for (const EdgeDecision& e : c.plan.edges)
    if (e.fused && is_rounding_point(c.g, e.producer))
      c.fail("numerics",
             "eager parity: edge " + std::to_string(e.producer) + " -> " + std::to_string(e.consumer) +
                 " is fused, but " + describe_op(c.g, e.producer) + " is a rounding point the merge removes",
             c.group_of(e.consumer), e.producer);
}

void check_notes(Context& c) {
  for (const FusionGroup& group : c.plan.groups) {
    if (!c.options.numerics.enabled) {
      if (!group.numerics.empty()) c.fail("numerics", "numerics is off, yet the group has notes", group.id);
      continue;
    }
    for (const NumericsNote& note : group.numerics)
      for (OpId x : note.ops)
        if (!std::binary_search(group.ops.begin(), group.ops.end(), x))
          c.fail("numerics", "a " + note.kind + " note names op " + std::to_string(x) + ", which is not a member", group.id, x);
    if (group.numerics != numerics::group_notes(c.g, c.plan, group))
      c.fail("numerics", "the group's notes differ from what the rules of docs/design.md §18 give for its members",
             group.id);
  }
}

void check_report(Context& c) {
  const NumericsReport& r = c.plan.numerics;
  if (!r.present) return;
  std::vector<OpId> expected;
  for (std::size_t x = 0; x < c.g.size(); ++x) {
    const FusionOp& op = c.g.op(static_cast<OpId>(x));
    if (!op.is_source() && (c.readers[x].empty() || op.output)) expected.push_back(static_cast<OpId>(x));
  }
  std::vector<OpId> listed;
  for (const NumericsOutput& o : r.outputs) listed.push_back(o.op);
  if (listed != expected)
    c.fail("numerics", "the evaluator's outputs are not the graph's outputs (ops with no reader or marked output), ascending");
  for (std::size_t k = 0; k < r.skipped.size(); ++k) {
    const OpId x = r.skipped[k].op;
    if (x < 0 || static_cast<std::size_t>(x) >= c.g.size() || c.g.op(x).is_source() ||
        (k > 0 && r.skipped[k - 1].op >= x))
      c.fail("numerics", "the evaluator's skipped list names a source, an unknown op, or is not ascending", {}, x);
  }
}

}  // namespace

void check_numerics(Context& c) {
  if (c.options.numerics.parity) check_parity(c);
  check_notes(c);
  check_report(c);
}

}  // namespace fusion::verifier
