// strategy.cpp — the preset table and the kind sets of docs/strategies.md.
#include "fusion/strategy.h"

#include <algorithm>
#include <array>

namespace fusion {
namespace {

using K = OpKind;

constexpr std::array<std::string_view, 5> kStrategies = {"seed", "xla", "xla-classic", "tvm", "inductor"};
constexpr std::array<std::string_view, 15> kRules = {
    "horizontal",         "horizontal_small_bytes", "horizontal_max_ops", "epilogue",
    "reduction_prologue", "reduction_epilogue",     "recompute",          "movement",
    "max_group_ops",      "max_group_operands",     "max_live_values",    "refuse_unprofitable",
    "passes",             "max_depth",              "max_pointwise_cat_inputs"};
// The rules each procedure accepts (the shared engine takes the first twelve).
constexpr std::span<const std::string_view> kEngineRules{kRules.data(), 12};
constexpr std::array<std::string_view, 1> kTvmRules = {"max_depth"};
constexpr std::array<std::string_view, 2> kXlaRules = {"passes", "max_group_operands"};
constexpr std::array<std::string_view, 3> kInductorRules = {"max_group_ops", "max_pointwise_cat_inputs", "epilogue"};
constexpr std::array<std::string_view, 3> kXlaPasses = {"priority", "multi_output", "horizontal"};

constexpr std::array kMovement = {K::reshape, K::broadcast, K::slice, K::concat, K::transpose, K::gather, K::pad};
constexpr std::array kExpensive = {K::exp,  K::log,      K::sqrt, K::rsqrt, K::sigmoid, K::tanh, K::gelu, K::silu,
                                   K::erf, K::softplus, K::pow,  K::sin,   K::cos,     K::div,  K::reciprocal};

template <typename List>
bool contains(const List& list, OpKind kind) {
  return std::find(list.begin(), list.end(), kind) != list.end();
}

// XLA GPU, classic instruction fusion (the `xla-classic` preset): loop/input fusion of elementwise and movement ops, producer duplication of cheap ops,
// multi-output sibling fusion, horizontal loop fusion of small kernels, at most 96 operands+outputs.
StrategyRules xla_classic_rules() {
  StrategyRules r;
  r.horizontal = true;
  r.horizontal_small_bytes = 1u << 20;
  r.horizontal_max_ops = 64;
  r.reduction_prologue = true;
  r.recompute = Recompute::cheap;
  r.movement.assign(kMovement.begin(), kMovement.end());
  r.max_group_operands = 96;
  r.refuse_unprofitable = true;
  return r;
}

// TVM Relay FuseOps (core/src/presets/tvm_fuse_ops.cpp): max_fuse_depth 256.
StrategyRules tvm_rules() {
  StrategyRules r;
  r.max_depth = 256;
  return r;
}

// XLA's GPU pipeline (core/src/presets/xla_pipeline.cpp): all three passes, 96 operands + outputs per fusion.
StrategyRules xla_rules() {
  StrategyRules r;
  r.passes = xla_priority | xla_multi_output | xla_horizontal;
  r.max_group_operands = 96;
  return r;
}

// TorchInductor's scheduler (core/src/presets/inductor_scheduler.cpp): max_fusion_size 64,
// max_pointwise_cat_inputs 8, extern matmul/conv (no template epilogues) as in the default config.
StrategyRules inductor_rules() {
  StrategyRules r;
  r.max_group_ops = 64;
  r.max_pointwise_cat_inputs = 8;
  return r;
}

// Does rule `name` have the same value in a and b?
bool same_rule(std::string_view name, const StrategyRules& a, const StrategyRules& b) {
  if (name == "horizontal") return a.horizontal == b.horizontal;
  if (name == "horizontal_small_bytes") return a.horizontal_small_bytes == b.horizontal_small_bytes;
  if (name == "horizontal_max_ops") return a.horizontal_max_ops == b.horizontal_max_ops;
  if (name == "epilogue") return a.epilogue == b.epilogue;
  if (name == "reduction_prologue") return a.reduction_prologue == b.reduction_prologue;
  if (name == "reduction_epilogue") return a.reduction_epilogue == b.reduction_epilogue;
  if (name == "recompute") return a.recompute == b.recompute;
  if (name == "movement") return a.movement == b.movement;
  if (name == "max_group_ops") return a.max_group_ops == b.max_group_ops;
  if (name == "max_group_operands") return a.max_group_operands == b.max_group_operands;
  if (name == "max_live_values") return a.max_live_values == b.max_live_values;
  if (name == "refuse_unprofitable") return a.refuse_unprofitable == b.refuse_unprofitable;
  if (name == "passes") return a.passes == b.passes;
  if (name == "max_depth") return a.max_depth == b.max_depth;
  return a.max_pointwise_cat_inputs == b.max_pointwise_cat_inputs;
}

}  // namespace

std::optional<StrategyRules> preset_rules(std::string_view strategy) {
  if (strategy == "seed") return StrategyRules{};
  if (strategy == "xla") return xla_rules();
  if (strategy == "xla-classic") return xla_classic_rules();
  if (strategy == "tvm") return tvm_rules();
  if (strategy == "inductor") return inductor_rules();
  return std::nullopt;
}

std::span<const std::string_view> strategy_names() { return kStrategies; }
std::span<const std::string_view> rule_names() { return kRules; }

Procedure procedure_of(std::string_view strategy) {
  if (strategy == "tvm") return Procedure::tvm;
  if (strategy == "xla") return Procedure::xla;
  if (strategy == "inductor") return Procedure::inductor;
  return Procedure::rules;
}

std::span<const std::string_view> strategy_rule_names(std::string_view strategy) {
  if (!preset_rules(strategy)) return {};
  switch (procedure_of(strategy)) {
    case Procedure::tvm: return kTvmRules;
    case Procedure::xla: return kXlaRules;
    case Procedure::inductor: return kInductorRules;
    case Procedure::rules: break;
  }
  return kEngineRules;
}

std::string_view inapplicable_rule(std::string_view strategy, const StrategyRules& rules) {
  const std::optional<StrategyRules> preset = preset_rules(strategy);
  if (!preset) return {};
  const std::span<const std::string_view> accepted = strategy_rule_names(strategy);
  for (std::string_view name : kRules)
    if (std::find(accepted.begin(), accepted.end(), name) == accepted.end() && !same_rule(name, rules, *preset))
      return name;
  return {};
}

std::span<const std::string_view> xla_pass_names() { return kXlaPasses; }

std::uint8_t xla_pass_bit(std::string_view name) {
  for (std::size_t i = 0; i < kXlaPasses.size(); ++i)
    if (kXlaPasses[i] == name) return static_cast<std::uint8_t>(1u << i);
  return 0;
}

bool is_movement_kind(OpKind kind) { return contains(kMovement, kind); }
bool is_anchor_kind(OpKind kind) { return kind == K::matmul || kind == K::conv; }
bool is_reduction_kind(OpKind kind) {
  return kind == K::reduce || kind == K::reduce_sum || kind == K::reduce_mean || kind == K::reduce_max ||
         kind == K::reduce_min || kind == K::reduce_prod;
}
bool is_expensive_kind(OpKind kind) { return contains(kExpensive, kind) || is_heavy_kind(kind); }

bool is_loop_kind(OpKind kind, const StrategyRules& rules) {
  return is_fusible(kind) || contains(rules.movement, kind);
}

std::string_view to_string(Recompute recompute) {
  switch (recompute) {
    case Recompute::none: return "none";
    case Recompute::cheap: return "cheap";
    case Recompute::all: return "all";
  }
  return "none";
}

std::optional<Recompute> parse_recompute(std::string_view name) {
  if (name == "none") return Recompute::none;
  if (name == "cheap") return Recompute::cheap;
  if (name == "all") return Recompute::all;
  return std::nullopt;
}

}  // namespace fusion
