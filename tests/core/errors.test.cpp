// errors.test.cpp — one fixture per error code: the code, where it points, and a message that says
// what to fix. (out_of_memory and internal_error come from the API facade; see tests/wasm.)
#include <doctest/doctest.h>

#include "fusion/json_io.h"
#include "fusion/planner.h"

using namespace fusion;

namespace {

struct Expect {
  ErrorCode code;
  std::string path;
  std::optional<std::int64_t> op;
  std::string says;  // a phrase the message must contain
};

// Reads the graph and, when it reads, validates it: the first error either step reports.
std::vector<Error> graph_errors(const std::string& text) {
  const Expected<FusionGraph> graph = read_graph_json(text);
  return graph.ok() ? validate(*graph) : graph.errors();
}

void check_graph_error(const std::string& text, const Expect& want) {
  const std::vector<Error> errors = graph_errors(text);
  REQUIRE_FALSE(errors.empty());
  const Error& e = errors.front();
  CHECK(to_string(e.code) == std::string(to_string(want.code)));
  CHECK(e.path == want.path);
  CHECK(e.op == want.op);
  CHECK_MESSAGE(e.message.find(want.says) != std::string::npos, e.message);
}

}  // namespace

TEST_SUITE("error codes") {
  TEST_CASE("json_syntax carries line and column") {
    const Expected<FusionGraph> graph = read_graph_json("{\"ops\": [\n  {\"kind\": \"relu\",, }\n]}");
    REQUIRE_FALSE(graph.ok());
    const Error& e = graph.errors().front();
    CHECK(e.code == ErrorCode::json_syntax);
    CHECK(e.line == 2);
    CHECK(e.column == 19);
    CHECK(e.message.find("line 2, column 19") != std::string::npos);
  }
  TEST_CASE("json_syntax on empty and truncated text") {
    CHECK(read_graph_json("").errors().front().code == ErrorCode::json_syntax);
    CHECK(read_graph_json("{\"ops\": [").errors().front().line == 1);
  }
  TEST_CASE("invalid_type: the top level is not an object") {
    check_graph_error("[1, 2]", {ErrorCode::invalid_type, "", {}, "must be a JSON object"});
  }
  TEST_CASE("invalid_type: a shape that is not a list") {
    check_graph_error(R"({"ops": [{"kind": "input", "shape": 4, "dtype": "f32"}]})",
                      {ErrorCode::invalid_type, "/ops/0/shape", 0, "list of dimensions"});
  }
  TEST_CASE("missing_field: no ops, no kind, no shape, no dtype") {
    check_graph_error(R"({"nodes": []})", {ErrorCode::unknown_field, "/nodes", {}, "unknown top-level field"});
    check_graph_error(R"({})", {ErrorCode::missing_field, "/ops", {}, "no \"ops\""});
    check_graph_error(R"({"ops": [{"shape": [1], "dtype": "f32"}]})", {ErrorCode::missing_field, "/ops/0/kind", 0, "no \"kind\""});
    check_graph_error(R"({"ops": [{"kind": "input", "dtype": "f32"}]})", {ErrorCode::missing_field, "/ops/0/shape", 0, "[] for a scalar"});
    check_graph_error(R"({"ops": [{"kind": "input", "shape": []}]})", {ErrorCode::missing_field, "/ops/0/dtype", 0, "dtype"});
  }
  TEST_CASE("unknown_field: a typo in an op") {
    check_graph_error(R"({"ops": [{"kind": "input", "shape": [], "dtype": "f32", "inptus": []}]})",
                      {ErrorCode::unknown_field, "/ops/0/inptus", 0, "'inptus'"});
  }
  TEST_CASE("unknown_kind") {
    check_graph_error(R"({"ops": [{"name": "q", "kind": "frob", "shape": [], "dtype": "f32"}]})",
                      {ErrorCode::unknown_kind, "/ops/0/kind", 0, "unknown kind 'frob'"});
  }
  TEST_CASE("unknown_dtype") {
    check_graph_error(R"({"ops": [{"kind": "input", "shape": [], "dtype": "f33"}]})",
                      {ErrorCode::unknown_dtype, "/ops/0/dtype", 0, "\"f33\""});
  }
  TEST_CASE("invalid_dtype_bytes: zero, negative, fractional, or disagreeing with dtype") {
    check_graph_error(R"({"ops": [{"kind": "input", "shape": [], "dtype_bytes": 0}]})",
                      {ErrorCode::invalid_dtype_bytes, "/ops/0/dtype_bytes", 0, "positive"});
    check_graph_error(R"({"ops": [{"kind": "input", "shape": [], "dtype_bytes": 2.5}]})",
                      {ErrorCode::invalid_dtype_bytes, "/ops/0/dtype_bytes", 0, "2.5"});
    check_graph_error(R"({"ops": [{"kind": "input", "shape": [], "dtype": "f16", "dtype_bytes": 4}]})",
                      {ErrorCode::invalid_dtype_bytes, "/ops/0/dtype_bytes", 0, "make them agree"});
  }
  TEST_CASE("a list or object where a dtype belongs is a bad dtype, not a missing one") {
    check_graph_error(R"({"ops": [{"kind": "input", "shape": [4], "dtype": []}]})",
                      {ErrorCode::unknown_dtype, "/ops/0/dtype", 0, "a list"});
    check_graph_error(R"({"ops": [{"kind": "input", "shape": [4], "dtype_bytes": {"n": 4}}]})",
                      {ErrorCode::invalid_dtype_bytes, "/ops/0/dtype_bytes", 0, "an object"});
  }
  TEST_CASE("invalid_dimension: negative, float, string, huge") {
    for (const char* dim : {"-3", "2.5", "\"8\"", "1e300", "9007199254740992"})
      check_graph_error(std::string(R"({"ops": [{"kind": "input", "shape": [2, )") + dim + R"(], "dtype": "f32"}]})",
                        {ErrorCode::invalid_dimension, "/ops/0/shape/1", 0, "whole number from 0"});
    for (const char* dim : {"\"8\"", "\"2N\"", "\"\"", "\"batch-size\""})  // strings that are not names
      check_graph_error(std::string(R"({"ops": [{"kind": "input", "shape": [2, )") + dim + R"(], "dtype": "f32"}]})",
                        {ErrorCode::invalid_dimension, "/ops/0/shape/1", 0, "or a name such as"});
    check_graph_error(R"({"dims": {"N": -1}, "ops": [{"kind": "input", "shape": ["N"], "dtype": "f32"}]})",
                      {ErrorCode::invalid_dimension, "/dims/N", {}, "whole number from 0"});
  }
  TEST_CASE("invalid_name: a dims key that is not a name") {
    check_graph_error(R"({"dims": {"2N": 4}, "ops": [{"kind": "input", "shape": [], "dtype": "f32"}]})",
                      {ErrorCode::invalid_name, "/dims/2N", {}, "not a dimension name"});
  }
  TEST_CASE("invalid_name: an empty name") {
    check_graph_error(R"({"ops": [{"name": "", "kind": "input", "shape": [], "dtype": "f32"}]})",
                      {ErrorCode::invalid_name, "/ops/0/name", 0, "empty"});
  }
  TEST_CASE("duplicate_name") {
    check_graph_error(R"({"ops": [{"name": "x", "kind": "input", "shape": [], "dtype": "f32"},
                                  {"name": "x", "kind": "input", "shape": [], "dtype": "f32"}]})",
                      {ErrorCode::duplicate_name, "/ops/1/name", 1, "both named 'x'"});
  }
  TEST_CASE("unknown_input: by index and by name") {
    check_graph_error(R"({"ops": [{"kind": "relu", "inputs": [3], "shape": [], "dtype": "f32"}]})",
                      {ErrorCode::unknown_input, "/ops/0/inputs/0", 0, "is 3"});
    check_graph_error(R"({"ops": [{"name": "r", "kind": "relu", "inputs": ["nope"], "shape": [], "dtype": "f32"}]})",
                      {ErrorCode::unknown_input, "/ops/0/inputs/0", 0, "'nope'"});
    check_graph_error(R"({"ops": [{"kind": "relu", "inputs": [-1], "shape": [], "dtype": "f32"}]})",
                      {ErrorCode::unknown_input, "/ops/0/inputs/0", 0, "not an op index"});
  }
  TEST_CASE("source_with_inputs") {
    check_graph_error(R"({"ops": [{"kind": "constant", "shape": [], "dtype": "f32"},
                                  {"kind": "input", "inputs": [0], "shape": [], "dtype": "f32"}]})",
                      {ErrorCode::source_with_inputs, "/ops/1/inputs", 1, "a source"});
  }
  TEST_CASE("cycle, naming the ops on it") {
    check_graph_error(R"({"ops": [{"name": "a", "kind": "relu", "inputs": ["b"], "shape": [], "dtype": "f32"},
                                  {"name": "b", "kind": "neg", "inputs": ["a"], "shape": [], "dtype": "f32"}]})",
                      {ErrorCode::cycle, "/ops/1/inputs/0", 1, "op 1 ('b') -> op 0 ('a') -> op 1 ('b')"});
  }
  TEST_CASE("byte_overflow") {
    check_graph_error(R"({"ops": [{"kind": "input", "shape": [4294967296, 4294967296], "dtype": "f32"}]})",
                      {ErrorCode::byte_overflow, "/ops/0/shape", 0, "2^53 - 1"});
  }
  TEST_CASE("invalid_options") {
    const auto bad_type = read_options_json(R"({"broadcast": "yes"})");
    REQUIRE_FALSE(bad_type.ok());
    CHECK(bad_type.errors().front().code == ErrorCode::invalid_options);
    CHECK(bad_type.errors().front().path == "/broadcast");
    const auto unknown = read_options_json(R"({"fast": true})");
    CHECK(unknown.errors().front().code == ErrorCode::invalid_options);
    CHECK(unknown.errors().front().message.find("'fast'") != std::string::npos);
    CHECK(read_options_json("[]").errors().front().code == ErrorCode::invalid_options);
    CHECK(read_options_json("  ").ok());
  }
  TEST_CASE("unbound_dim: the first use of a name with no value") {
    const auto graph = read_graph_json(R"({"dims": {"N": 2}, "ops": [
      {"name": "x", "kind": "input", "shape": ["N", 4], "dtype": "f32"},
      {"name": "y", "kind": "relu", "inputs": ["x"], "shape": ["N", "seq"], "dtype": "f32"},
      {"name": "z", "kind": "relu", "inputs": ["y"], "shape": ["N", "seq"], "dtype": "f32"}]})");
    REQUIRE(graph.ok());
    const auto plan = FusionPlanner().plan(*graph);
    REQUIRE_FALSE(plan.ok());
    REQUIRE(plan.errors().size() == 1);  // one error per name, at its first use
    const Error& e = plan.errors().front();
    CHECK(e.code == ErrorCode::unbound_dim);
    CHECK(e.path == "/ops/1/shape/1");
    CHECK(e.op == 1);
    CHECK_MESSAGE(e.message.find("dimension 'seq' has no value: op 1 ('y')") != std::string::npos, e.message);
    CHECK(FusionPlanner().with_dims({{"seq", 3}}).plan(*graph).ok());
  }
  TEST_CASE("invalid_options: dims") {
    for (const char* bad : {R"({"dims": []})", R"({"dims": {"N": -1}})", R"({"dims": {"N": 1.5}})",
                            R"({"dims": {"N": "8"}})", R"({"dims": {"N": 9007199254740992}})", R"({"dims": {"a b": 1}})"}) {
      const auto options = read_options_json(bad);
      REQUIRE_FALSE(options.ok());
      CHECK(options.errors().front().code == ErrorCode::invalid_options);
      CHECK(options.errors().front().path.rfind("/dims", 0) == 0);
    }
    CHECK(read_options_json(R"({"dims": {"N": 9007199254740991}})").ok());
  }
  TEST_CASE("byte_overflow names the binding") {
    const auto graph = read_graph_json(R"({"dims": {"N": 2}, "ops": [{"kind": "input", "shape": ["N", 4294967296], "dtype": "f32"}]})");
    REQUIRE(graph.ok());
    CHECK(FusionPlanner().plan(*graph).ok());
    const auto plan = FusionPlanner().with_dims({{"N", 4294967296}}).plan(*graph);
    REQUIRE_FALSE(plan.ok());
    CHECK(plan.errors().front().code == ErrorCode::byte_overflow);
    CHECK(plan.errors().front().path == "/ops/0/shape");
    CHECK_MESSAGE(plan.errors().front().message.find("with N = 4294967296") != std::string::npos, plan.errors().front().message);
  }
  TEST_CASE("unknown_strategy") {
    const auto options = read_options_json(R"({"strategy": "magic"})");
    REQUIRE(options.ok());
    const auto plan = FusionPlanner(*options).plan(FusionGraph());
    REQUIRE_FALSE(plan.ok());
    CHECK(plan.errors().front().code == ErrorCode::unknown_strategy);
    CHECK(plan.errors().front().path == "/strategy");
    CHECK(plan.errors().front().message.find("'magic'") != std::string::npos);
  }
  TEST_CASE("invalid_plan") {
    const auto plan = read_plan_json(R"({"groups": [{"id": 0, "ops": "all"}]})");
    REQUIRE_FALSE(plan.ok());
    CHECK(plan.errors().front().code == ErrorCode::invalid_plan);
    CHECK(plan.errors().front().path == "/groups/0/ops");
    const auto not_object = read_plan_json("[]");
    REQUIRE_FALSE(not_object.ok());
    CHECK(not_object.errors().front().message == "the plan must be an object");
  }
}
