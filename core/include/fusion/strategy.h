// fusion/strategy.h — the strategy presets of docs/strategies.md and the rule vocabulary.
//
// A strategy is a name for a StrategyRules table: `seed` (all rules off: docs/design.md §5-§6), `xla`,
// `tvm` and `inductor` (each mirroring what that compiler's fusion pass publishes; docs/strategies.md cites
// the sources). Options may override single rules by name; `apply_rule` parses one override and says what
// is wrong with it. Also the kind sets the rules speak of (heavy ops, movement kinds, expensive kinds).
// Shown by tests/core/strategies.test.cpp and tests/core/peers.test.cpp.
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

// "seed", "xla", "tvm", "inductor", in that order.
std::span<const std::string_view> strategy_names();

// The rule names of docs/strategies.md, in table order.
std::span<const std::string_view> rule_names();

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
