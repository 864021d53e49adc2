// fusion/strategy.h — the strategy presets of docs/strategies.md and the rule vocabulary.
//
// A strategy names a decision procedure and its rule table. `seed` (all rules off: docs/design.md §5-§6)
// and `xla-classic` run the shared rule engine (core/src/detail/strategy_grouping.h); `tvm`, `xla` and
// `inductor` each run their compiler's own procedure (core/src/presets/). Each strategy accepts only the
// rules that mean something to its procedure (`strategy_rule_names`); options may override those one by
// one. Also the kind sets the rules speak of (heavy ops, movement kinds, expensive kinds).
// Shown by tests/core/strategies.test.cpp, tests/core/presets.test.cpp and tests/core/peers.test.cpp.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "fusion/op_kind.h"
#include "fusion/plan.h"

namespace fusion {

// The rules of a preset, or nullopt for an unknown name.
std::optional<StrategyRules> preset_rules(std::string_view strategy);

// "seed", "xla", "xla-classic", "tvm", "inductor", in that order.
std::span<const std::string_view> strategy_names();

// Which decision procedure a strategy runs (`rules`: the shared rule engine; `seed` with every rule off is
// the strict planner of docs/design.md §6). Unknown names give `rules`.
enum class Procedure { rules, tvm, xla, inductor };
Procedure procedure_of(std::string_view strategy);

// Every rule name of docs/strategies.md, in table order.
std::span<const std::string_view> rule_names();
// The rules a strategy accepts (all the shared engine's rules for seed and xla-classic). Empty for an
// unknown strategy.
std::span<const std::string_view> strategy_rule_names(std::string_view strategy);
// The first rule a strategy does not accept whose value differs from the preset's, or empty when none.
std::string_view inapplicable_rule(std::string_view strategy, const StrategyRules& rules);
// The XLA pass names ("priority", "multi_output", "horizontal"), in pipeline order, and their bits.
std::span<const std::string_view> xla_pass_names();
std::uint8_t xla_pass_bit(std::string_view name);  // 0 for an unknown name

// Kinds of the `movement` rule (reshape, broadcast, slice, concat, transpose, gather, pad).
bool is_movement_kind(OpKind kind);
// Anchors (matmul, conv) and reductions (reduce, reduce_*): at most one per group.
bool is_anchor_kind(OpKind kind);
bool is_reduction_kind(OpKind kind);
inline bool is_heavy_kind(OpKind kind) { return is_anchor_kind(kind) || is_reduction_kind(kind); }
// Kinds `recompute: cheap` never duplicates (docs/strategies.md, "Expensive kinds").
bool is_expensive_kind(OpKind kind);

// May this op be a loop member (elementwise, or a movement kind the rules list)?
bool is_loop_kind(OpKind kind, const StrategyRules& rules);

std::string_view to_string(Recompute recompute);
std::optional<Recompute> parse_recompute(std::string_view name);

}  // namespace fusion
