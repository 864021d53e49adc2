// fusion/search.h — plan search (docs/design.md §17): the best plan a strategy's rules allow, with a proof.
//
// Settings (PlannerOptions::search) and the certificate a searched plan carries (FusionPlan::search).
//
// Strategies: `seed` (objective bytes_fused; with rules set, the legal groups are the verifier's of the shared rule
// engine, docs/design.md §17 "Search under seed with rules"), `tvm`, `inductor`, `xla` with all three passes and
// `xla-classic` (objective time_fused_us); `xla` with passes left out is refused with invalid_options at
// /search/mode. Under `seed` with recompute cheap or all and under `xla-classic` the search is not exact: the better
// of greedy's plan and the searched plan without copies (the recompute pass run over it), with a lower bound over
// every plan the rules allow (§17 "Search under xla-classic and recompute").
//
// Legal partitions under seed. A partition of the ops is legal when every group of more than one op
//   - holds only mergeable ops (fusible kind, not a source) of one region,
//   - is connected by fusible edges (edges whose §5 rules 1-5 pass on their own: local_reason == none),
//   - holds no edge that fails the shape rule (§5 rule 6: every inside edge obeys rule 5),
// and the group graph of the whole plan is acyclic (§5 rule 7). There is no recomputation under seed. The
// greedy plan (§6) is legal: it merges only along fusible edges, refuses every merge that would put a shape
// edge inside a group, and keeps the group graph acyclic; so it is the search's first incumbent.
// Legal partitions under tvm (FuseOps' group invariants, docs/strategies.md "tvm", which the verifier checks of
// every tvm plan): every group of more than one op is connected by edges between non-source, non-kOpaque ops of
// one region; holds at most one op of pattern kCommReduce or above and at most max_depth ops; has exactly one root
// (a member that is a graph output or read outside the group); no member reads another inside the group when it
// is kOutEWiseFusable, when the producer is a reduction, or when the producer is a graph output; a
// kOutEWiseFusable member is followed inside the group only by kElemWise and kBroadcast ops; acyclic; no
// recomputation. FuseOps' greedy plan satisfies them, and is the first incumbent. Departure: FuseOps' path
// conditions (the combined pattern of the paths to a post-dominator, its phases) are not imposed, only the
// invariants its groups keep.
// Legal partitions under inductor (the scheduler's, over Inductor's lowering, which stays as the greedy plan has it:
// realized ops are nodes, inlined ops are recomputed in every group holding a node whose closure reaches them):
// every group of more than one node is connected by nodes that read one another or one buffer (each reader with
// the next 64), holds only pointwise, reduction, ConcatKernel or template nodes of one region, at most
// max_group_ops nodes, reductions of one range (n, r) with every other node of numel n·r or n (without a
// reduction, one numel), at most one template whose other nodes are pointwise epilogues (or ConcatKernels) of its
// numel (one reading it, none feeding it); acyclic. The scheduler's plan keeps them and is the first incumbent. Departure: its
// rounds, candidate ranking and 64-node proximity window are not imposed.
// Legal plans under xla (what XLA's passes guarantee, docs/strategies.md "xla"): a set of ops that exist only as
// copies (duplication: loop ops, not graph outputs, that may fuse into each of their readers; a group computes each
// one that reaches a member of it through such ops only) and a partition of the other fusible ops, every group of
// which is connected by fusible edges (also through copies), shared reads of one iteration space (multi-output
// siblings) and loop ops read by one op (horizontal), with no scatter joined to its readers or in-place operand, no
// concat joined to a reduction, no reduction reaching another reduction or anything but its elementwise epilogue,
// no written bitcast reading its kernel, at most max_group_operands operands and outputs; acyclic. XLA's plan is
// the first incumbent, and the bound covers it too where its passes reach beyond these plans. Departure: the
// passes' order, priorities and size limits are not imposed.
//
// Objective: bytes_fused (§8) under seed; estimated time (time_fused_us, the time model of docs/strategies.md)
// under tvm, inductor and xla, compared in whole picoseconds per kernel, rounded down. The answer is never worse than greedy: the
// search only replaces greedy's grouping of a part when it has found a strictly better legal one (under time, better
// by more than 1 ps per op of the part, so that rounding alone never swaps two plans of equal time).
//
// Result: status "optimal" when the plan is proven best among all legal partitions (bytes: lower_bound ==
// bytes_fused, gap 0; time: lower_bound_us is the plan's time to within the rounding and the tolerance, at most 2 ps
// per op, gap 0); "bounded" when the node budget ran out first, a component was too large to search, or a cycle across
// components forced a part back to greedy. The lower bound is proven in every case: no legal partition moves fewer
// bytes (lower_bound) or is faster (lower_bound_us). gap = (objective - bound) / objective (0 when the objective
// is 0). nodes counts search-tree nodes; the budget counts units (one per node in parts of up to 128 ops, more in
// larger ones): the only cut-off that decides the answer, so the same graph, options and budget give the same
// plan on any machine. The algorithm is in core/src/search/search.h.
// Shown by tests/core/search.test.cpp, tests/core/search_presets.test.cpp and tests/core/search_xla.test.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fusion {

enum class SearchMode { greedy, optimal };

// Default and largest node budgets (a larger budget in the options is capped, with a plan warning).
inline constexpr std::int64_t kDefaultSearchNodes = 200'000;
inline constexpr std::int64_t kMaxSearchNodes = 1'000'000'000;

// A time budget is turned into budget units at this fixed rate, never measured on the running machine, so the
// answer stays the same everywhere (docs/design.md §17: natively about 600 to 1,400 units per millisecond of CPU
// time on random graphs; WASM is slower; this rate keeps budget_ms roughly honoured in both on an idle machine).
// budget_ms above kMaxSearchMs (one hour) is capped, with a plan warning.
inline constexpr std::int64_t kSearchNodesPerMs = 250;
inline constexpr std::int64_t kMaxSearchMs = 3'600'000;
static_assert(kMaxSearchMs * kSearchNodesPerMs <= kMaxSearchNodes);

struct SearchSettings {
  SearchMode mode = SearchMode::greedy;
  std::int64_t budget_nodes = kDefaultSearchNodes;  // 1 .. kMaxSearchNodes budget units (a node costs 1 or more,
                                                     // docs/design.md §17): the budget that decides the answer
  bool budget_capped = false;                        // the options asked for more than kMaxSearchNodes
  std::int64_t budget_ms = 0;                        // 0: no time budget; else 1 .. kMaxSearchMs
  bool budget_ms_capped = false;                     // the options asked for more than kMaxSearchMs
  bool operator==(const SearchSettings&) const = default;
};

// The node budget of a time budget (kSearchNodesPerMs per millisecond).
constexpr std::int64_t nodes_for_ms(std::int64_t ms) { return ms * kSearchNodesPerMs; }

// An edge greedy and the search decided differently (docs/design.md §17): greedy fused it and the search cut it,
// or the other way round, with why greedy's order made its choice, in words naming the ops.
struct SearchDifference {
  std::int32_t producer = 0, consumer = 0;  // op ids
  bool greedy_fused = false;                // the searched plan decided the opposite
  std::string why;
  bool operator==(const SearchDifference&) const = default;
};

// At most this many differences are explained (the first in plan edge order); the rest are only counted.
inline constexpr std::size_t kMaxExplainedDifferences = 50;

struct SearchCertificate {
  bool present = false;          // the plan was searched (mode optimal)
  std::string status;            // "optimal" or "bounded"
  std::string objective = "bytes";  // "bytes" (seed) or "time" (tvm: time_fused_us)
  std::uint64_t lower_bound = 0; // objective bytes: proven, no legal partition moves fewer bytes
  double lower_bound_us = 0.0;   // objective time: proven, no legal plan is faster (in us)
  double gap = 0.0;              // (objective - its lower bound) / objective, 0 when the objective is 0 or optimal
  double greedy_time_fused_us = 0.0;     // the greedy plan's time_fused_us under the same options
  std::int64_t nodes = 0;        // search-tree nodes visited
  std::uint64_t greedy_bytes_fused = 0;  // the greedy plan's bytes_fused under the same options
  std::vector<SearchDifference> differences;  // in plan edge order, at most kMaxExplainedDifferences
  std::int64_t differences_total = 0;         // every edge decided differently, listed or not
  bool operator==(const SearchCertificate&) const = default;
};

std::string_view to_string(SearchMode mode);

}  // namespace fusion
