// op_kind.test.cpp — kinds, categories, canonical names and aliases.
#include <doctest/doctest.h>

#include "fusion/op_kind.h"

using namespace fusion;

TEST_CASE("every kind of docs/design.md §4 has its category") {
  for (OpKind k : {OpKind::input, OpKind::constant}) CHECK(category(k) == OpCategory::source);
  for (OpKind k : {OpKind::neg, OpKind::abs, OpKind::exp, OpKind::log, OpKind::sqrt, OpKind::rsqrt, OpKind::relu,
                   OpKind::gelu, OpKind::sigmoid, OpKind::tanh, OpKind::silu, OpKind::cast, OpKind::add,
                   OpKind::sub, OpKind::mul, OpKind::div, OpKind::max, OpKind::min, OpKind::pow, OpKind::where})
    CHECK(category(k) == OpCategory::elementwise);
  for (OpKind k : {OpKind::matmul, OpKind::reduce, OpKind::reduce_sum, OpKind::reduce_max, OpKind::reduce_mean,
                   OpKind::transpose, OpKind::conv, OpKind::softmax, OpKind::gather, OpKind::scan, OpKind::reshape})
    CHECK(category(k) == OpCategory::barrier);
}

TEST_CASE("is_fusible is true exactly for elementwise kinds") {
  for (OpKind k : all_op_kinds()) CHECK(is_fusible(k) == (category(k) == OpCategory::elementwise));
}

TEST_CASE("canonical names round-trip and are lower_snake_case") {
  for (OpKind k : all_op_kinds()) {
    const std::string_view name = to_string(k);
    CHECK(parse_op_kind(name) == k);
    for (char c : name) CHECK(((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'));
  }
}

TEST_CASE("aliases from other tools map to the canonical kind") {
  CHECK(parse_op_kind("Add") == OpKind::add);
  CHECK(parse_op_kind("ReLU") == OpKind::relu);
  CHECK(parse_op_kind("MatMul") == OpKind::matmul);
  CHECK(parse_op_kind("Gemm") == OpKind::matmul);
  CHECK(parse_op_kind("ReduceSum") == OpKind::reduce_sum);
  CHECK(parse_op_kind("maximum") == OpKind::max);
  CHECK(parse_op_kind("LayerNormalization") == OpKind::layer_norm);
  CHECK_FALSE(parse_op_kind("frobnicate").has_value());
  CHECK_FALSE(parse_op_kind("").has_value());
}
