// verify/context.h — what the verifier's stages share: the plan under check, the violations found so far,
// and facts derived once from the graph and the plan.
//
// The stages run in the order verify_plan (verify.cpp) lists them; each one is a free function in its own
// file under verify/. The derived facts are filled by the stage named beside them, so a later stage may
// rely on them. Nothing here is shared with the planner or the cost model (they use detail/ and cost.cpp);
// only the graph, shape and kind-set primitives of the public headers are common.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fusion/graph.h"
#include "fusion/plan.h"
#include "fusion/strategy.h"
#include "fusion/verify.h"

namespace fusion::verifier {

struct Edge {
  OpId producer;
  OpId consumer;
  auto operator<=>(const Edge&) const = default;
};

// A group's traffic as the verifier computes it (recomputed copies are read-through, never written).
struct GroupIo {
  std::vector<OpId> inputs;   // distinct non-members read by some member, ascending
  std::vector<OpId> outputs;  // owned members written to memory, ascending
  std::uint64_t read = 0;
  std::uint64_t written = 0;
};

struct Context {
  Context(const FusionGraph& graph, const PlannerOptions& options, const FusionPlan& plan);

  const FusionGraph& g;
  const PlannerOptions& options;
  const StrategyRules& rules;
  const Procedure procedure;  // the strategy's decision procedure (fusion/strategy.h)
  const FusionPlan& plan;
  std::vector<Violation> out;

  std::vector<Edge> edges;                   // distinct graph edges, sorted (collect_edges)
  std::vector<std::vector<OpId>> producers;  // op -> its distinct inputs, ascending (collect_edges)
  std::vector<std::vector<OpId>> readers;    // op -> its distinct consumers, ascending (collect_edges)
  std::vector<std::int32_t> owner;  // op -> the group owning it, -1 when only copied (check_membership)
  std::vector<GroupIo> io;          // per group (derive_group_io)

  void fail(const char* code, std::string message, std::optional<std::int64_t> group = {},
            std::optional<std::int64_t> op = {});
  std::int32_t group_of(OpId x) const { return plan.op_group[static_cast<std::size_t>(x)]; }
  // Is x a member (owned or recomputed) of the group? Needs the ascending ops that check_membership ensures.
  bool holds(std::int32_t group, OpId x) const;
  bool is_multi(std::int32_t group) const {
    return plan.groups[static_cast<std::size_t>(group)].ops.size() > 1;
  }
  std::uint64_t bytes_of(OpId x) const;
  std::uint64_t elements_of(OpId x) const;
  // docs/design.md §8: the op's distinct inputs read plus its output written (none for a resident source).
  std::uint64_t unfused_bytes_of(OpId x) const;
  // The shape rule (docs/design.md §5) for one edge (whether it applies is shape_checked's answer).
  bool shapes_ok(OpId producer, OpId consumer) const;
  bool is_loop(OpId x) const;
  // Does the group run a kernel? Some member has inputs (docs/design.md §8); a group of sources does not.
  bool runs_kernel(const FusionGroup& group) const;
};

// The distinct edges between members of one group, as positions in its (ascending) ops list.
using InnerEdge = std::pair<std::size_t, std::size_t>;
std::vector<InnerEdge> inner_edges(const Context& c, const FusionGroup& group);

// Does the shape rule apply to this edge? Not with a movement op at either end, nor into a reduction (whose
// iteration space is its input).
bool shape_checked(const FusionOp& producer, const FusionOp& consumer);

std::string list_to_string(const std::vector<OpId>& ids);
// "op 3 (add)", for messages.
std::string op_text(const FusionGraph& g, OpId x);

// The stages, in pipeline order.
void collect_edges(Context& c);     // context.cpp
bool check_membership(Context& c);  // membership.cpp: groups, op_group, recomputed lists; false = stop here
void derive_group_io(Context& c);   // traffic.cpp: inputs and outputs with recomputation
void check_recompute(Context& c);   // membership.cpp: which copies the rules allow, and that each is read
void check_group_kinds(
    Context& c);  // group_kinds.cpp: loop kinds, heavy ops and their roles, regions, shapes
void check_group_parts(Context& c);  // group_parts.cpp: connectivity, horizontal parts, limits
void check_acyclic(Context& c);      // traffic.cpp
void check_bytes(Context& c);        // traffic.cpp: inputs, outputs, bytes, totals, kernel counts
void check_time(Context& c);         // time.cpp: flops and the roofline time
void check_edges(Context& c);        // edges.cpp: the edge list and each reason
void check_formulas(Context& c);     // formulas.cpp: named dimensions' values and byte formulas
void check_search(Context& c);       // search.cpp: a searched plan's certificate (docs/design.md §17)
void check_numerics(Context& c);     // numerics.cpp: notes, eager parity, the evaluator's lists (docs/design.md §18)
void check_code(Context& c);         // code.cpp: generated kernels' byte annotations (docs/design.md §19)
// procedures.cpp: the compiler procedures' own group checks (run by check_group_kinds for them), why a copy
// of x is not allowed (nullptr when it is), and the reasons an unfused edge may carry (a bit per reason).
void check_procedure_groups(Context& c);
const char* procedure_copy_refusal(const Context& c, OpId x);
std::uint32_t procedure_reasons(const Context& c, OpId producer, OpId consumer);

}  // namespace fusion::verifier
