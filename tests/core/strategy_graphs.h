// strategy_graphs.h — graphs and a helper shared by the strategy tests (strategies.test.cpp for the shared
// rule engine, presets.test.cpp for the compiler procedures, verify_strategies.test.cpp for the verifier).
#pragma once

#include <utility>

#include "fusion/planner.h"

namespace fusion::testing {

// x[1024,768] @ w[768,768] + b[768] -> relu: the classic epilogue.
inline const char* kMatmulBiasRelu = R"({"ops": [
  {"name": "x", "kind": "input", "shape": [1024, 768], "dtype": "f32"},
  {"name": "w", "kind": "input", "shape": [768, 768], "dtype": "f32"},
  {"name": "b", "kind": "input", "shape": [768], "dtype": "f32"},
  {"name": "mm", "kind": "matmul", "inputs": ["x", "w"], "shape": [1024, 768], "dtype": "f32"},
  {"name": "bias", "kind": "add", "inputs": ["mm", "b"], "shape": [1024, 768], "dtype": "f32"},
  {"name": "act", "kind": "relu", "inputs": ["bias"], "shape": [1024, 768], "dtype": "f32"}]})";

// Softmax written out over rows of x[64,128]: amax, x - max, exp, sum, exp / sum.
inline const char* kSoftmax = R"({"ops": [
  {"name": "x", "kind": "input", "shape": [64, 128], "dtype": "f32"},
  {"name": "max", "kind": "reduce_max", "inputs": ["x"], "shape": [64, 1], "dtype": "f32"},
  {"name": "sub", "kind": "sub", "inputs": ["x", "max"], "shape": [64, 128], "dtype": "f32"},
  {"name": "exp", "kind": "exp", "inputs": ["sub"], "shape": [64, 128], "dtype": "f32"},
  {"name": "sum", "kind": "reduce_sum", "inputs": ["exp"], "shape": [64, 1], "dtype": "f32"},
  {"name": "div", "kind": "div", "inputs": ["exp", "sum"], "shape": [64, 128], "dtype": "f32"}]})";

// a and b read x; c reads y; all three are graph outputs of one size.
inline const char* kSiblings = R"({"ops": [
  {"name": "x", "kind": "input", "shape": [1024], "dtype": "f32"},
  {"name": "a", "kind": "relu", "inputs": ["x"], "shape": [1024], "dtype": "f32"},
  {"name": "b", "kind": "neg", "inputs": ["x"], "shape": [1024], "dtype": "f32"},
  {"name": "y", "kind": "input", "shape": [1024], "dtype": "f32"},
  {"name": "c", "kind": "exp", "inputs": ["y"], "shape": [1024], "dtype": "f32"}]})";

// s = a + b; t = s + c; u = t + d: the whole chain reads a, b, c, d and writes u: 5 operands.
inline const char* kOperandChain = R"({"ops": [
  {"name": "a", "kind": "input", "shape": [8], "dtype": "f32"},
  {"name": "b", "kind": "input", "shape": [8], "dtype": "f32"},
  {"name": "c", "kind": "input", "shape": [8], "dtype": "f32"},
  {"name": "d", "kind": "input", "shape": [8], "dtype": "f32"},
  {"name": "s", "kind": "add", "inputs": ["a", "b"], "shape": [8], "dtype": "f32"},
  {"name": "t", "kind": "add", "inputs": ["s", "c"], "shape": [8], "dtype": "f32"},
  {"name": "u", "kind": "add", "inputs": ["t", "d"], "shape": [8], "dtype": "f32"}]})";

// The planner with its resolved rules changed by `change(StrategyRules&)`.
template <typename Change>
FusionPlanner with_changed_rules(FusionPlanner planner, Change&& change) {
  StrategyRules rules = planner.options().rules;
  std::forward<Change>(change)(rules);
  return planner.with_rules(rules);
}

}  // namespace fusion::testing
