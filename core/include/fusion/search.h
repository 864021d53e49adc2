// fusion/search.h — plan search (docs/design.md §17): the seed plan with the fewest fused bytes, with a proof.
//
// Settings (PlannerOptions::search) and the certificate a searched plan carries (FusionPlan::search).
//
// Legal partitions (what the search chooses among, strategy `seed` only). A partition of the ops is legal when
// every group of more than one op
//   - holds only mergeable ops (fusible kind, not a source) of one region,
//   - is connected by fusible edges (edges whose §5 rules 1-5 pass on their own: local_reason == none),
//   - holds no edge that fails the shape rule (§5 rule 6: every inside edge obeys rule 5),
// and the group graph of the whole plan is acyclic (§5 rule 7). There is no recomputation under seed. The
// greedy plan (§6) is legal: it merges only along fusible edges, refuses every merge that would put a shape
// edge inside a group, and keeps the group graph acyclic; so it is the search's first incumbent.
//
// Objective: bytes_fused (§8). The answer is never worse than greedy: the search only replaces greedy's
// grouping of a part when it has found a strictly cheaper legal one.
//
// Result: status "optimal" when the plan is proven to have the fewest bytes among all legal partitions
// (lower_bound == bytes_fused, gap 0); "bounded" when the node budget ran out first, a component was too large
// to search, or a cycle across components forced a part back to greedy. lower_bound is a proven bound in every
// case: no legal partition moves fewer bytes. gap = (bytes_fused - lower_bound) / bytes_fused (0 when
// bytes_fused is 0). nodes counts search-tree nodes; the budget counts units (one per node in parts of up to 128
// ops, more in larger ones): the only cut-off that decides the answer, so the same graph, options and budget
// give the same plan on any machine. The algorithm is in core/src/search/search.h.
// Shown by tests/core/search.test.cpp.
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
  std::uint64_t lower_bound = 0; // proven: no legal partition moves fewer bytes
  double gap = 0.0;              // (bytes_fused - lower_bound) / bytes_fused, 0 when bytes_fused is 0
  std::int64_t nodes = 0;        // search-tree nodes visited
  std::uint64_t greedy_bytes_fused = 0;  // the greedy plan's bytes_fused under the same options
  std::vector<SearchDifference> differences;  // in plan edge order, at most kMaxExplainedDifferences
  std::int64_t differences_total = 0;         // every edge decided differently, listed or not
  bool operator==(const SearchCertificate&) const = default;
};

std::string_view to_string(SearchMode mode);

}  // namespace fusion
