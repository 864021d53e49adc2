// random_graphs.h — seeded random DAGs for property tests: mixed kinds, broadcastable and clashing
// shapes, barriers, repeated inputs, mostly-local edges with some long ones.
#pragma once

#include <array>
#include <random>

#include "fusion/graph.h"
#include "fusion/strategy.h"

namespace fusion::testing {

inline FusionGraph random_graph(std::mt19937_64& rng, int ops) {
  static const std::array<Shape, 8> kShapes = {Shape{}, Shape{3}, Shape{1, 3}, Shape{4, 3},
                                               Shape{4, 1}, Shape{5, 3}, Shape{4}, Shape{2, 4, 3}};
  static const std::array<OpKind, 8> kElementwise = {OpKind::add, OpKind::mul, OpKind::relu, OpKind::exp,
                                                     OpKind::neg, OpKind::where, OpKind::sub, OpKind::gelu};
  static const std::array<OpKind, 5> kBarriers = {OpKind::matmul, OpKind::reduce_sum, OpKind::transpose,
                                                  OpKind::softmax, OpKind::conv};
  auto below = [&rng](std::uint64_t n) { return static_cast<int>(rng() % n); };
  FusionGraph g;
  for (int i = 0; i < ops; ++i) {
    FusionOp op;
    op.dtype_bytes = std::array<int, 4>{1, 2, 4, 8}[below(4)];
    const int roll = below(100);
    if (i == 0 || roll < 15) {
      op.kind = below(2) ? OpKind::input : OpKind::constant;
      op.shape = kShapes[below(kShapes.size())];
      g.add_op(std::move(op));
      continue;
    }
    op.kind = roll < 80 ? kElementwise[below(kElementwise.size())] : kBarriers[below(kBarriers.size())];
    const int inputs = op.kind == OpKind::where ? 3 : 1 + below(2);
    for (int k = 0; k < inputs; ++k)
      op.inputs.push_back(below(10) < 7 ? std::max(0, i - 1 - below(5)) : below(static_cast<std::uint64_t>(i)));
    op.shape = below(10) < 6 ? g.op(op.inputs.front()).shape : kShapes[below(kShapes.size())];
    g.add_op(std::move(op));
  }
  return g;
}

}  // namespace fusion::testing

namespace fusion::testing {

// Richer graphs for the strategies: movement kinds, reductions to smaller shapes, anchors, regions and
// ops marked output, so every rule of docs/strategies.md gets exercised.
inline FusionGraph random_strategy_graph(std::mt19937_64& rng, int ops) {
  static const std::array<Shape, 6> kShapes = {Shape{}, Shape{4}, Shape{4, 1}, Shape{4, 4}, Shape{2, 4, 4}, Shape{16}};
  static const std::array<OpKind, 10> kLoop = {OpKind::add, OpKind::mul, OpKind::relu, OpKind::exp, OpKind::neg,
                                               OpKind::sub, OpKind::gelu, OpKind::cast, OpKind::div, OpKind::sigmoid};
  static const std::array<OpKind, 7> kMovement = {OpKind::reshape, OpKind::broadcast, OpKind::slice, OpKind::concat,
                                                  OpKind::transpose, OpKind::gather, OpKind::pad};
  static const std::array<OpKind, 8> kHeavy = {OpKind::matmul, OpKind::conv, OpKind::reduce_sum, OpKind::reduce_max,
                                               OpKind::reduce_mean, OpKind::softmax, OpKind::sort, OpKind::opaque};
  auto below = [&rng](std::uint64_t n) { return static_cast<int>(rng() % n); };
  FusionGraph g;
  const int region_start = below(2) ? below(static_cast<std::uint64_t>(ops) + 1) : ops;
  for (int i = 0; i < ops; ++i) {
    FusionOp op;
    op.dtype_bytes = std::array<int, 3>{1, 2, 4}[below(3)];
    const int roll = below(100);
    if (i == 0 || roll < 12) {
      op.kind = OpKind::input;
      op.shape = kShapes[below(kShapes.size())];
      g.add_op(std::move(op));
      continue;
    }
    op.kind = roll < 62 ? kLoop[below(kLoop.size())] : roll < 82 ? kMovement[below(kMovement.size())] : kHeavy[below(kHeavy.size())];
    const int inputs = 1 + below(op.kind == OpKind::concat ? 3 : 2);
    for (int k = 0; k < inputs; ++k)
      op.inputs.push_back(below(10) < 7 ? std::max(0, i - 1 - below(4)) : below(static_cast<std::uint64_t>(i)));
    const Shape& first = g.op(op.inputs.front()).shape;
    if (is_reduction_kind(op.kind) && !first.empty()) op.shape = Shape(first.begin(), first.end() - 1);
    else op.shape = below(10) < 6 ? first : kShapes[below(kShapes.size())];
    op.output = below(20) == 0;
    if (i >= region_start) op.region = "loop/body";
    g.add_op(std::move(op));
  }
  return g;
}

}  // namespace fusion::testing
