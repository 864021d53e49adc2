// graph.test.cpp — the builder, validation of every section-1 problem, and order/cycle helpers.
#include <doctest/doctest.h>

#include "detail/topology.h"
#include "fusion/graph.h"

using namespace fusion;

namespace {
std::vector<ErrorCode> codes(const std::vector<Error>& errors) {
  std::vector<ErrorCode> out;
  for (const Error& e : errors) out.push_back(e.code);
  return out;
}
}  // namespace

TEST_CASE("add_op returns consecutive ids and refuses inputs that do not exist yet") {
  FusionGraph g;
  CHECK(g.add_op(OpKind::input, {}, {4}) == 0);
  CHECK(g.add_op(OpKind::relu, {0}, {4}) == 1);
  try {
    g.add_op(OpKind::add, {1, 2}, {4});
    FAIL("add_op accepted an input that does not exist");
  } catch (const BuildError& e) {
    CHECK(e.error().code == ErrorCode::unknown_input);
    CHECK(e.error().op == 2);
    CHECK(e.error().path == "/ops/2/inputs/1");
  }
  CHECK(g.size() == 2);  // the refused op was not added
  CHECK_THROWS_AS(g.add_op(OpKind::relu, {-1}, {4}), BuildError);
}

TEST_CASE("a well-formed graph validates") {
  FusionGraph g;
  const OpId x = g.add_op(OpKind::input, {}, {2, 3}, 4, "x");
  g.add_op(OpKind::mul, {x, x}, {2, 3}, 4, "sq");
  CHECK(validate(g).empty());
}

TEST_CASE("validate names the op and the field of each problem") {
  SUBCASE("an input that references no op") {
    const auto g = FusionGraph::from_ops({{OpKind::relu, {5}, {1}, 4, "r"}});
    const auto errors = validate(g);
    REQUIRE(codes(errors) == std::vector{ErrorCode::unknown_input});
    CHECK(errors[0].op == 0);
    CHECK(errors[0].path == "/ops/0/inputs/0");
  }
  SUBCASE("a negative dimension") {
    const auto errors = validate(FusionGraph::from_ops({{OpKind::input, {}, {3, -2}, 4, ""}}));
    REQUIRE(codes(errors) == std::vector{ErrorCode::invalid_dimension});
    CHECK(errors[0].path == "/ops/0/shape/1");
  }
  SUBCASE("dtype_bytes of zero or less") {
    const auto errors = validate(FusionGraph::from_ops({{OpKind::input, {}, {3}, 0, ""}}));
    CHECK(codes(errors) == std::vector{ErrorCode::invalid_dtype_bytes});
  }
  SUBCASE("an op of source kind with inputs") {
    const auto errors = validate(FusionGraph::from_ops({{OpKind::input, {}, {3}, 4, ""}, {OpKind::input, {0}, {3}, 4, ""}}));
    REQUIRE(codes(errors) == std::vector{ErrorCode::source_with_inputs});
    CHECK(errors[0].op == 1);
  }
  SUBCASE("an output too large for an exact JavaScript number") {
    const auto errors = validate(FusionGraph::from_ops({{OpKind::input, {}, {1LL << 30, 1LL << 30}, 16, ""}}));
    CHECK(codes(errors) == std::vector{ErrorCode::byte_overflow});
  }
  SUBCASE("totals too large even when every op fits") {
    std::vector<FusionOp> ops{{OpKind::input, {}, {1LL << 50}, 4, ""}};
    for (int i = 0; i < 4; ++i) ops.push_back({OpKind::relu, {0}, {1LL << 50}, 4, ""});
    const auto errors = validate(FusionGraph::from_ops(ops));
    REQUIRE(codes(errors) == std::vector{ErrorCode::byte_overflow});
    CHECK_FALSE(errors[0].op.has_value());
  }
  SUBCASE("duplicate names") {
    const auto errors = validate(FusionGraph::from_ops({{OpKind::input, {}, {1}, 4, "x"}, {OpKind::input, {}, {1}, 4, "x"}}));
    REQUIRE(codes(errors) == std::vector{ErrorCode::duplicate_name});
    CHECK(errors[0].op == 1);
    CHECK(errors[0].message.find("ops 0 and 1") != std::string::npos);
  }
  SUBCASE("a cycle, with the ops on it") {
    const auto g = FusionGraph::from_ops({{OpKind::input, {}, {1}, 4, "x"},
                                          {OpKind::add, {0, 3}, {1}, 4, "a"},
                                          {OpKind::relu, {1}, {1}, 4, "b"},
                                          {OpKind::neg, {2}, {1}, 4, "c"}});
    const auto errors = validate(g);
    REQUIRE(codes(errors) == std::vector{ErrorCode::cycle});
    CHECK(errors[0].message.find("'a'") != std::string::npos);
    CHECK(errors[0].message.find("'b'") != std::string::npos);
    CHECK(errors[0].message.find("'c'") != std::string::npos);
    CHECK(errors[0].message.find("'x'") == std::string::npos);
  }
  SUBCASE("an op that is its own input") {
    const auto errors = validate(FusionGraph::from_ops({{OpKind::relu, {0}, {1}, 4, "self"}}));
    REQUIRE(codes(errors) == std::vector{ErrorCode::cycle});
    CHECK(errors[0].path == "/ops/0/inputs/0");
  }
  SUBCASE("every problem is reported, not just the first") {
    const auto g = FusionGraph::from_ops({{OpKind::input, {}, {-1}, 4, "x"}, {OpKind::relu, {9}, {1}, -4, "x"}});
    CHECK(validate(g).size() == 4);
  }
}

TEST_CASE("topological order is ascending id when ids are topological, Kahn's order otherwise") {
  FusionGraph chain;
  chain.add_op(OpKind::input, {}, {1});
  chain.add_op(OpKind::relu, {0}, {1});
  CHECK(*detail::topological_order(chain, detail::build_consumers(chain)) == std::vector<OpId>{0, 1});
  const auto shuffled = FusionGraph::from_ops({{OpKind::relu, {2}, {1}, 4, ""}, {OpKind::input, {}, {1}, 4, ""},
                                               {OpKind::neg, {1}, {1}, 4, ""}});
  CHECK(*detail::topological_order(shuffled, detail::build_consumers(shuffled)) == std::vector<OpId>{1, 2, 0});
}

TEST_CASE("a 1,000,000-op chain in reverse order validates without recursion") {
  std::vector<FusionOp> ops(1'000'000);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    ops[i] = {i + 1 == ops.size() ? OpKind::input : OpKind::relu, {}, {2}, 4, ""};
    if (i + 1 < ops.size()) ops[i].inputs = {static_cast<OpId>(i + 1)};
  }
  CHECK(validate(FusionGraph::from_ops(std::move(ops))).empty());
}

TEST_CASE("a 1,000,000-op cycle is found without recursion") {
  std::vector<FusionOp> ops(1'000'000);
  for (std::size_t i = 0; i < ops.size(); ++i)
    ops[i] = {OpKind::relu, {static_cast<OpId>((i + 1) % ops.size())}, {2}, 4, ""};
  const auto errors = validate(FusionGraph::from_ops(std::move(ops)));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].code == ErrorCode::cycle);
}
