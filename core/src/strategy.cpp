// strategy.cpp — the preset table and the kind sets of docs/strategies.md.
#include "fusion/strategy.h"

#include <algorithm>
#include <array>

namespace fusion {
namespace {

using K = OpKind;

constexpr std::array<std::string_view, 4> kStrategies = {"seed", "xla", "tvm", "inductor"};
constexpr std::array<std::string_view, 12> kRules = {
    "horizontal",         "horizontal_small_bytes", "horizontal_max_ops", "epilogue",
    "reduction_prologue", "reduction_epilogue",     "recompute",          "movement",
    "max_group_ops",      "max_group_operands",     "max_live_values",    "refuse_unprofitable"};

constexpr std::array kMovement = {K::reshape, K::broadcast, K::slice, K::concat, K::transpose, K::gather, K::pad};
constexpr std::array kExpensive = {K::exp,  K::log,      K::sqrt, K::rsqrt, K::sigmoid, K::tanh, K::gelu, K::silu,
                                   K::erf, K::softplus, K::pow,  K::sin,   K::cos,     K::div,  K::reciprocal};

template <typename List>
bool contains(const List& list, OpKind kind) {
  return std::find(list.begin(), list.end(), kind) != list.end();
}

// XLA GPU: loop/input fusion of elementwise and movement ops, producer duplication of cheap ops,
// multi-output sibling fusion, horizontal loop fusion of small kernels, at most 96 operands+outputs.
StrategyRules xla_rules() {
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

// TVM Relay FuseOps: injective ops fuse into elementwise chains, out-elemwise-fusable anchors
// (conv2d/dense) take elementwise epilogues, reductions take injective producers and elementwise
// consumers, max fuse depth 256, no duplication.
StrategyRules tvm_rules() {
  StrategyRules r;
  r.epilogue = true;
  r.reduction_prologue = true;
  r.reduction_epilogue = true;
  r.movement = {K::reshape, K::broadcast, K::slice, K::concat, K::transpose, K::pad};
  r.max_group_ops = 256;
  return r;
}

// TorchInductor: pointwise and reduction nodes fuse vertically and horizontally (shared reads), cheap
// pointwise producers are inlined (recomputed) into consumers, matmul templates take epilogues,
// max_fusion_size 64.
StrategyRules inductor_rules() {
  StrategyRules r;
  r.horizontal = true;
  r.horizontal_max_ops = 64;
  r.epilogue = true;
  r.reduction_prologue = true;
  r.reduction_epilogue = true;
  r.recompute = Recompute::cheap;
  r.movement = {K::reshape, K::broadcast, K::slice, K::transpose, K::gather, K::pad};
  r.max_group_ops = 64;
  r.refuse_unprofitable = true;
  return r;
}

}  // namespace

std::optional<StrategyRules> preset_rules(std::string_view strategy) {
  if (strategy == "seed") return StrategyRules{};
  if (strategy == "xla") return xla_rules();
  if (strategy == "tvm") return tvm_rules();
  if (strategy == "inductor") return inductor_rules();
  return std::nullopt;
}

std::span<const std::string_view> strategy_names() { return kStrategies; }
std::span<const std::string_view> rule_names() { return kRules; }

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
