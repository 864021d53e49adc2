// classic_rules.h — the rule tables the `tvm` and `inductor` presets had before they ran their compilers'
// own procedures, kept for the tests of the shared rule engine (core/src/detail/strategy_grouping.h).
//
// The engine runs for `seed` with rule overrides and for `xla-classic` (the old `xla` table, still a
// preset). engine("tvm") and engine("inductor") are `seed` with the old tables; engine("xla") is the
// `xla-classic` preset. So the engine keeps the coverage it had when the presets were rule tables.
#pragma once

#include <stdexcept>
#include <string>

#include "fusion/planner.h"
#include "fusion/strategy.h"

namespace fusion::testing {

// TVM Relay FuseOps as rules: injective ops fuse into elementwise chains, anchors take elementwise
// epilogues, reductions take producers and elementwise consumers, at most 256 ops, no duplication.
inline StrategyRules classic_tvm_rules() {
  StrategyRules r;
  r.epilogue = true;
  r.reduction_prologue = true;
  r.reduction_epilogue = true;
  r.movement = {OpKind::reshape, OpKind::broadcast, OpKind::slice, OpKind::concat, OpKind::transpose, OpKind::pad};
  r.max_group_ops = 256;
  return r;
}

// TorchInductor as rules: vertical and horizontal fusion, cheap producers recomputed, matmul epilogues,
// at most 64 ops, unprofitable copies refused.
inline StrategyRules classic_inductor_rules() {
  StrategyRules r;
  r.horizontal = true;
  r.horizontal_max_ops = 64;
  r.epilogue = true;
  r.reduction_prologue = true;
  r.reduction_epilogue = true;
  r.recompute = Recompute::cheap;
  r.movement = {OpKind::reshape, OpKind::broadcast, OpKind::slice, OpKind::transpose, OpKind::gather, OpKind::pad};
  r.max_group_ops = 64;
  r.refuse_unprofitable = true;
  return r;
}

// The old table of `name` ("tvm", "xla", "inductor") as resolved options of the shared rule engine.
inline PlannerOptions engine_options(const std::string& name) {
  PlannerOptions options;
  if (name == "xla") {
    options.strategy = "xla-classic";
    options.rules = *preset_rules("xla-classic");
    return options;
  }
  options.strategy = "seed";
  if (name == "tvm") options.rules = classic_tvm_rules();
  else if (name == "inductor") options.rules = classic_inductor_rules();
  else if (name != "seed") throw std::invalid_argument("no classic rule table named " + name);
  return options;
}

inline FusionPlanner engine(const std::string& name) { return FusionPlanner(engine_options(name)); }

}  // namespace fusion::testing
