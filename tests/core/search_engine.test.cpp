// search_engine.test.cpp — plan search under `seed` with rules set (docs/design.md §17 "Search under seed with
// rules"): the plan of fewest bytes the shared rule engine allows, checked against a brute force that tries every
// set partition of the ops the rules let share a group and judges each with the verifier (fusion/verify.h), on
// random graphs under random rule settings (recompute none). With recomputation (seed with recompute cheap or all,
// and xla-classic, whose objective is time) the brute force also tries every choice of copies, and the searched
// plan's lower bound must lie below the fewest bytes (time) it finds, the plan never above greedy's.
#include <algorithm>
#include <random>

#include "partition_plan.h"
#include "random_graphs.h"
#include "test_graphs.h"
#include "test_scale.h"

using namespace fusion;
using namespace fusion::testing;

namespace {

// May the rules let this op share a group at all (the verifier's kind check)? Others stay alone.
bool may_share(const FusionOp& op, const StrategyRules& r) {
  if (op.is_source()) return false;
  if (is_loop_kind(op.kind, r)) return true;
  if (is_anchor_kind(op.kind)) return r.epilogue;
  return is_reduction_kind(op.kind) && (r.reduction_prologue || r.reduction_epilogue);
}

// Does the verifier accept the plan's groups (unfused edges carry `cycle`: the edge reasons are not judged here) (membership, group shapes, parts, limits, acyclic)?
bool groups_legal(const FusionGraph& g, const PlannerOptions& options, const FusionPlan& plan) {
  for (const Violation& v : verify_plan(g, options, plan))
    if (v.code != "edges" && v.code != "code") return false;
  return true;
}

// Calls visit(op_group) for every set partition of the ops the rules let share a group (the others alone), each
// once; false, visiting nothing, when more than max_ops ops may share a group or fewer than two. Stops when visit
// answers false.
template <typename Visit>
bool for_each_partition(const FusionGraph& g, const PlannerOptions& options, std::size_t max_ops, Visit&& visit) {
  std::vector<OpId> free;
  for (std::size_t x = 0; x < g.size(); ++x)
    if (may_share(g.op(static_cast<OpId>(x)), options.rules)) free.push_back(static_cast<OpId>(x));
  if (free.size() > max_ops || free.size() < 2) return false;
  std::vector<int> label(free.size(), 0);  // a restricted growth string: each set partition once
  while (true) {
    std::vector<std::int32_t> op_group(g.size(), -1);
    std::int32_t next = 0;
    std::vector<std::int32_t> of_label(free.size(), -1);
    for (std::size_t x = 0; x < g.size(); ++x) {
      const auto it = std::find(free.begin(), free.end(), static_cast<OpId>(x));
      if (it == free.end()) { op_group[x] = next++; continue; }
      std::int32_t& slot = of_label[static_cast<std::size_t>(label[static_cast<std::size_t>(it - free.begin())])];
      if (slot < 0) slot = next++;
      op_group[x] = slot;
    }
    if (!visit(op_group)) return true;
    std::size_t i = free.size();  // the next restricted growth string
    while (i-- > 1) {
      const int top = *std::max_element(label.begin(), label.begin() + static_cast<std::ptrdiff_t>(i));
      if (label[i] <= top) { ++label[i]; break; }
      label[i] = 0;
    }
    if (i == 0) return true;
  }
}

// The fewest bytes over every legal partition, or nullopt when more than max_ops ops may share a group.
std::optional<std::uint64_t> brute_force_min_bytes(const FusionGraph& g, const PlannerOptions& options, std::size_t max_ops) {
  std::optional<std::uint64_t> best;
  const bool tried = for_each_partition(g, options, max_ops, [&](const std::vector<std::int32_t>& op_group) {
    const FusionPlan plan = plan_from_partition(g, op_group, [](OpId, OpId) { return EdgeReason::cycle; }, options);
    if ((!best || plan.bytes_fused < *best) && groups_legal(g, options, plan)) best = plan.bytes_fused;
    return true;
  });
  return tried ? best : std::nullopt;
}

PlannerOptions random_rules(std::mt19937_64& rng) {
  PlannerOptions options;
  options.strategy = "seed";
  StrategyRules& r = options.rules;
  r.horizontal = rng() % 2;
  // 1 MiB packs every group of these small graphs; 200 bytes only some (their tensors hold at most 128 bytes).
  const std::uint64_t small[] = {0, 0, 0, 1u << 20, 200};
  r.horizontal_small_bytes = small[rng() % 5];
  r.epilogue = rng() % 2;
  r.reduction_prologue = rng() % 2;
  r.reduction_epilogue = rng() % 2;
  for (OpKind kind : {OpKind::reshape, OpKind::broadcast, OpKind::slice, OpKind::transpose, OpKind::concat})
    if (rng() % 2) r.movement.push_back(kind);
  if (rng() % 4 == 0) r.max_group_ops = 2 + static_cast<std::int64_t>(rng() % 3);
  if (rng() % 4 == 0) r.max_group_operands = 3 + static_cast<std::int64_t>(rng() % 3);
  if (rng() % 4 == 0) r.max_live_values = 3 + static_cast<std::int64_t>(rng() % 4);
  if (r == StrategyRules{}) r.horizontal = true;  // rules set: the engine, not the strict planner
  options.search.mode = SearchMode::optimal;
  return options;
}

// May the rules recompute this op (the verifier's copy rule; a copy beside other members must be a loop kind)?
bool may_copy(const FusionOp& op, const StrategyRules& r) {
  if (r.recompute == Recompute::none || op.is_source() || is_heavy_kind(op.kind) || !is_loop_kind(op.kind, r)) return false;
  return r.recompute == Recompute::all || !is_expensive_kind(op.kind);
}

// A plan's time as the search compares it: whole picoseconds per kernel, rounded down.
std::uint64_t time_ps(const FusionPlan& plan) {
  std::uint64_t total = 0;
  for (const FusionGroup& group : plan.groups) total += static_cast<std::uint64_t>(group.time_us * 1e6);
  return total;
}

struct BruteBest {
  std::uint64_t bytes = ~std::uint64_t{0}, time_ps = ~std::uint64_t{0};
};

// Tries every copy choice over one partition (owner: op -> group): each copyable op owned or only copied, and a
// copy of it in any subset of the groups owning one of its readers, or a reader of a copyable reader. Empty groups
// are dropped and the rest renumbered. False when the choices take more than max_bits bits.
bool try_copies(const FusionGraph& g, const PlannerOptions& options, const std::vector<std::int32_t>& owner,
                std::size_t max_bits, BruteBest& best) {
  const std::int32_t groups = *std::max_element(owner.begin(), owner.end()) + 1;
  std::vector<OpId> copyable;
  for (std::size_t x = 0; x < g.size(); ++x)
    if (may_copy(g.op(static_cast<OpId>(x)), options.rules)) copyable.push_back(static_cast<OpId>(x));
  std::vector<std::vector<OpId>> readers(g.size());
  for (std::size_t x = 0; x < g.size(); ++x)
    for (OpId in : g.op(static_cast<OpId>(x)).inputs) readers[in].push_back(static_cast<OpId>(x));
  std::vector<std::pair<OpId, std::int32_t>> pairs;  // (op, group) a copy may go to
  for (OpId x : copyable) {
    std::vector<std::int32_t> targets;
    for (OpId r : readers[x]) {
      targets.push_back(owner[r]);
      if (std::find(copyable.begin(), copyable.end(), r) != copyable.end())
        for (OpId rr : readers[r]) targets.push_back(owner[rr]);
    }
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    for (std::int32_t t : targets)
      if (t != owner[x]) pairs.emplace_back(x, t);
  }
  const std::size_t bits = copyable.size() + pairs.size();
  if (bits > max_bits) return false;
  for (std::uint32_t mask = 0; mask < (1u << bits); ++mask) {
    std::vector<std::int32_t> own = owner;
    for (std::size_t k = 0; k < copyable.size(); ++k)
      if (mask >> k & 1u) own[copyable[k]] = -1;
    std::vector<std::pair<OpId, std::int32_t>> copies;
    for (std::size_t k = 0; k < pairs.size(); ++k)
      if (mask >> (copyable.size() + k) & 1u) copies.push_back(pairs[k]);
    std::vector<std::int32_t> renumber(static_cast<std::size_t>(groups), -1);
    std::vector<char> used(static_cast<std::size_t>(groups), 0);
    for (std::int32_t o : own)
      if (o >= 0) used[static_cast<std::size_t>(o)] = 1;
    for (const auto& copy : copies) used[static_cast<std::size_t>(copy.second)] = 1;
    std::int32_t next = 0;
    for (std::size_t k = 0; k < used.size(); ++k)
      if (used[k]) renumber[k] = next++;
    for (std::int32_t& o : own) o = o >= 0 ? renumber[static_cast<std::size_t>(o)] : -1;
    for (auto& copy : copies) copy.second = renumber[static_cast<std::size_t>(copy.second)];
    bool held = true;  // every op owned or copied somewhere
    for (std::size_t x = 0; x < g.size(); ++x)
      held = held && (own[x] >= 0 || std::any_of(copies.begin(), copies.end(), [&](const auto& c) { return c.first == static_cast<OpId>(x); }));
    if (!held) continue;
    const FusionPlan plan = plan_from_partition(g, own, copies, [](OpId, OpId) { return EdgeReason::cycle; }, options);
    if (plan.bytes_fused >= best.bytes && time_ps(plan) >= best.time_ps) continue;
    if (!groups_legal(g, options, plan)) continue;
    best.bytes = std::min(best.bytes, plan.bytes_fused);
    best.time_ps = std::min(best.time_ps, time_ps(plan));
  }
  return true;
}

// The fewest bytes and the least time over every legal plan with copies (try_copies), or nullopt when more than
// max_ops ops may share a group or a partition's copy choices take more than max_bits bits.
std::optional<BruteBest> brute_force_with_copies(const FusionGraph& g, const PlannerOptions& options, std::size_t max_ops,
                                                 std::size_t max_bits) {
  BruteBest best;
  bool fits = true;
  const bool tried = for_each_partition(g, options, max_ops, [&](const std::vector<std::int32_t>& op_group) {
    fits = try_copies(g, options, op_group, max_bits, best);
    return fits;
  });
  return tried && fits ? std::optional<BruteBest>(best) : std::nullopt;
}

// xla-classic's rules, sometimes with smaller packs or limits, or recompute all.
PlannerOptions classic_rules(std::mt19937_64& rng) {
  PlannerOptions options;
  options.strategy = "xla-classic";
  options.rules = *preset_rules("xla-classic");
  StrategyRules& r = options.rules;
  if (rng() % 3 == 0) r.horizontal_small_bytes = 200;
  if (rng() % 4 == 0) r.horizontal = false;
  if (rng() % 4 == 0) r.max_group_operands = 3 + static_cast<std::int64_t>(rng() % 3);
  if (rng() % 3 == 0) r.recompute = Recompute::all;
  options.search.mode = SearchMode::optimal;
  return options;
}

// A graph with a blocked edge (engine_bound.h): p feeds c directly and through an op that never shares a group
// (a heavy op, sort or opaque), so p and c never share a kernel. p is a broadcast, cast or elementwise op of a small
// or large input, sometimes through a narrow op (one or two bytes an element), so c's kernel may do better by
// recomputing p from its inputs than by reading it; half the graphs chain two such blocks (a residual chain).
FusionGraph blocked_edge_graph(std::mt19937_64& rng) {
  const auto below = [&rng](std::uint64_t n) { return static_cast<int>(rng() % n); };
  const Shape big{2, 4, 4};
  FusionGraph g;
  const auto add = [&](OpKind kind, std::vector<OpId> inputs, Shape shape, int dtype = 4) {
    FusionOp op;
    op.kind = kind;
    op.inputs = std::move(inputs);
    op.shape = std::move(shape);
    op.dtype_bytes = dtype;
    op.output = below(12) == 0;
    return g.add_op(std::move(op));
  };
  OpId x = add(OpKind::input, {}, below(2) ? Shape{4} : big, std::array<int, 3>{1, 2, 4}[below(3)]);
  for (int block = 0, blocks = 1 + below(2); block < blocks; ++block) {
    static const std::array<OpKind, 5> kP = {OpKind::broadcast, OpKind::cast, OpKind::relu, OpKind::exp, OpKind::add};
    const OpKind kind = kP[below(kP.size())];
    if (below(2)) x = add(below(2) ? OpKind::cast : OpKind::relu, {x}, below(2) ? Shape{4} : big, 1 + below(2));
    const OpId p = add(kind, kind == OpKind::add ? std::vector<OpId>{x, x} : std::vector<OpId>{x}, big);
    static const std::array<OpKind, 4> kAlone = {OpKind::sort, OpKind::opaque, OpKind::matmul, OpKind::reduce_sum};
    const OpKind alone = kAlone[below(kAlone.size())];
    OpId b = add(alone, {p}, alone == OpKind::reduce_sum ? Shape{2, 4} : big);
    if (alone == OpKind::reduce_sum) b = add(OpKind::broadcast, {b}, big);
    if (below(2)) b = add(OpKind::neg, {b}, big);
    x = add(below(2) ? OpKind::add : OpKind::mul, {p, b}, big);
  }
  if (below(2)) add(OpKind::relu, {x}, big);
  return g;
}

}  // namespace

TEST_CASE("seed with rules: 2,000 random graphs: the searched plan has the brute-force fewest bytes, never above greedy") {
  std::mt19937_64 rng(20261202);
  int compared = 0, greedy_missed = 0;
  for (int i = 0; compared < scaled(2'000); ++i) {
    const FusionGraph g = random_strategy_graph(rng, 3 + static_cast<int>(rng() % 9));
    const PlannerOptions options = random_rules(rng);
    const std::optional<std::uint64_t> best = brute_force_min_bytes(g, options, 7);
    if (!best) continue;
    CAPTURE(i);
    ++compared;
    const FusionPlan plan = plan_checked(g, FusionPlanner(options));
    PlannerOptions greedy_options = options;
    greedy_options.search = {};
    const FusionPlan greedy = plan_checked(g, FusionPlanner(greedy_options));
    REQUIRE(plan.search.present);
    CHECK(plan.search.objective == "bytes");
    CHECK(plan.search.status == "optimal");
    CHECK(plan.bytes_fused == *best);
    CHECK(plan.bytes_fused <= greedy.bytes_fused);
    CHECK(plan.search.lower_bound <= plan.bytes_fused);
    CHECK(plan.search.greedy_bytes_fused == greedy.bytes_fused);
    if (greedy.bytes_fused > *best) ++greedy_missed;
  }
  MESSAGE("seed with rules: " << compared << " graphs, the rule engine missed the fewest bytes on " << greedy_missed);
  CHECK(greedy_missed > 0);
}

TEST_CASE("recompute and xla-classic: random graphs: the bound is below the brute-force best over every plan with copies, the plan never above greedy") {
  std::mt19937_64 rng(20261205);
  int compared = 0, optimal = 0, improved = 0, missed = 0;
  for (int i = 0; compared < scaled(1'500); ++i) {
    const FusionGraph g = random_strategy_graph(rng, 3 + static_cast<int>(rng() % 6));
    const bool classic = i % 2 == 1;
    PlannerOptions options = classic ? classic_rules(rng) : random_rules(rng);
    if (!classic && rng() % 5 == 0) options.rules = StrategyRules{};  // recompute alone: the strict search below
    if (!classic) options.rules.recompute = rng() % 2 ? Recompute::cheap : Recompute::all;
    const std::optional<BruteBest> best = brute_force_with_copies(g, options, 5, 7);
    if (!best) continue;
    CAPTURE(i);
    CAPTURE(classic);
    ++compared;
    const FusionPlan plan = plan_checked(g, FusionPlanner(options));  // verified: legal, certificate consistent
    PlannerOptions greedy_options = options;
    greedy_options.search = {};
    const FusionPlan greedy = plan_checked(g, FusionPlanner(greedy_options));
    REQUIRE(plan.search.present);
    CHECK(plan.search.objective == (classic ? "time" : "bytes"));
    if (classic) {
      const double lower_ps = plan.search.lower_bound_us * 1e6;
      CHECK(lower_ps <= static_cast<double>(best->time_ps) + 1e-3);
      CHECK(time_ps(plan) <= time_ps(greedy));
      if (plan.search.status == "optimal") CHECK(time_ps(plan) <= best->time_ps + g.size() + 2);
      missed += time_ps(greedy) > best->time_ps + g.size() + 2 ? 1 : 0;
      improved += time_ps(plan) < time_ps(greedy) ? 1 : 0;
    } else {
      CHECK(plan.search.lower_bound <= best->bytes);
      CHECK(plan.bytes_fused <= greedy.bytes_fused);
      if (plan.search.status == "optimal") CHECK(plan.bytes_fused <= best->bytes);
      missed += greedy.bytes_fused > best->bytes ? 1 : 0;
      improved += plan.bytes_fused < greedy.bytes_fused ? 1 : 0;
    }
    optimal += plan.search.status == "optimal" ? 1 : 0;
  }
  MESSAGE("recompute / xla-classic: " << compared << " graphs, " << optimal << " proven optimal, " << improved
                                      << " improved on greedy, greedy above the brute-force best on " << missed);
  CHECK(optimal > 0);
}

TEST_CASE("recompute and xla-classic: blocked edges and chains: the bound is below the brute-force best") {
  std::mt19937_64 rng(20261202);
  int compared = 0, optimal = 0;
  for (int i = 0; compared < scaled(400); ++i) {
    const FusionGraph g = blocked_edge_graph(rng);
    const bool classic = i % 2 == 1;
    PlannerOptions options = classic ? classic_rules(rng) : random_rules(rng);
    if (!classic) options.rules.recompute = rng() % 2 ? Recompute::cheap : Recompute::all;
    if (classic && rng() % 2) options.rules.horizontal_small_bytes = rng() % 2 ? 0 : 100;  // parts that never pack
    const std::optional<BruteBest> best = brute_force_with_copies(g, options, 5, 8);
    if (!best) continue;
    CAPTURE(i);
    CAPTURE(classic);
    ++compared;
    const FusionPlan plan = plan_checked(g, FusionPlanner(options));  // verified: legal, certificate consistent
    REQUIRE(plan.search.present);
    if (classic) CHECK(plan.search.lower_bound_us * 1e6 <= static_cast<double>(best->time_ps) + 1e-3);
    else CHECK(plan.search.lower_bound <= best->bytes);
    optimal += plan.search.status == "optimal" ? 1 : 0;
  }
  MESSAGE("blocked edges: " << compared << " graphs, " << optimal << " proven optimal");
  CHECK(optimal > 0);
}

TEST_CASE("seed with rules: larger random graphs verify, never move more bytes than greedy, and explain differences") {
  std::mt19937_64 rng(20261204);
  int improved = 0, optimal = 0;
  for (int i = 0; i < scaled(40); ++i) {
    CAPTURE(i);
    const FusionGraph g = random_strategy_graph(rng, 60 + static_cast<int>(rng() % 140));
    PlannerOptions options = random_rules(rng);
    options.search.budget_nodes = 20'000;
    const FusionPlan plan = plan_checked(g, FusionPlanner(options));  // verified, differences included
    CHECK(plan.bytes_fused <= plan.search.greedy_bytes_fused);
    CHECK(plan.search.lower_bound <= plan.bytes_fused);
    optimal += plan.search.status == "optimal" ? 1 : 0;
    if (plan.bytes_fused < plan.search.greedy_bytes_fused) ++improved;
    for (const SearchDifference& d : plan.search.differences) {
      CHECK(d.why.find(name_of(g, d.producer) + " → " + name_of(g, d.consumer)) != std::string::npos);
      CHECK(d.why.find(std::string("the rule engine") + (d.greedy_fused ? " fused" : " left")) == 0);
    }
  }
  MESSAGE(improved << " of " << scaled(40) << " larger graphs improved on the rule engine, " << optimal << " proven optimal");
  CHECK(improved > 0);
}
