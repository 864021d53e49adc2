// api.test.cpp — the JSON facade shared with WASM: never throws, errors as documents.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "fusion/api.h"
#include "fusion/op_kind.h"
#include "fusion/plan.h"

using json = nlohmann::json;

TEST_CASE("plan returns the plan document for a good graph") {
  const json out = json::parse(fusion::api::plan(
      R"({"ops": [{"kind": "input", "shape": [4], "dtype": "f32"}, {"kind": "relu", "inputs": [0], "shape": [4], "dtype": "f32"}]})",
      ""));
  CHECK(out["ok"] == true);
  CHECK(out["bytes_unfused"] == 16 + 32);
}

TEST_CASE("errors come back as a document with code, message, location and the full list") {
  const json out = json::parse(fusion::api::plan("{\"ops\": [}", "{}"));
  CHECK(out["ok"] == false);
  CHECK(out["error"]["code"] == "json_syntax");
  CHECK(out["error"]["line"] == 1);
  CHECK(out["error"]["column"] == 10);
  CHECK(out["errors"].size() == 1);
  const json bad_options = json::parse(fusion::api::plan(R"({"ops": []})", R"({"broadcast": 1})"));
  CHECK(bad_options["error"]["code"] == "invalid_options");
  const json many = json::parse(fusion::api::plan(
      R"({"ops": [{"kind": "relu", "inputs": [7], "shape": [-1], "dtype": "f99"}]})", ""));
  CHECK(many["errors"].size() == 3);
  CHECK(many["error"] == many["errors"][0]);
}

TEST_CASE("validate reports the graph's size") {
  const json out = json::parse(fusion::api::validate(R"({"ops": [{"kind": "input", "shape": [], "dtype": "f32"}]})"));
  CHECK(out["ok"] == true);
  CHECK(out["ops"] == 1);
}

TEST_CASE("verify checks a plan document against the graph") {
  const std::string graph =
      R"({"ops": [{"kind": "input", "shape": [4], "dtype": "f32"}, {"kind": "relu", "inputs": [0], "shape": [4], "dtype": "f32"}]})";
  const std::string plan = fusion::api::plan(graph, "");
  const json good = json::parse(fusion::api::verify(graph, "", plan));
  CHECK(good["ok"] == true);
  CHECK(good["valid"] == true);
  json tampered = json::parse(plan);
  tampered["bytes_fused"] = 1;
  const json bad = json::parse(fusion::api::verify(graph, "", tampered.dump()));
  CHECK(bad["valid"] == false);
  CHECK(bad["violations"][0]["code"] == "totals");
  const json unreadable = json::parse(fusion::api::verify(graph, "", "{}"));
  CHECK(unreadable["ok"] == false);
  CHECK(unreadable["error"]["code"] == "invalid_plan");
}

TEST_CASE("version is a semantic version") { CHECK(fusion::api::version() == "0.1.0"); }

TEST_CASE("texts above the size cap are refused before parsing") {
  const std::string huge(fusion::api::kMaxTextBytes + 1, ' ');
  const json out = json::parse(fusion::api::plan(huge, ""));
  CHECK(out["error"]["code"] == "input_too_large");
  CHECK(json::parse(fusion::api::validate(huge))["error"]["code"] == "input_too_large");
  CHECK(json::parse(fusion::api::verify("{}", "", huge))["error"]["code"] == "input_too_large");
}

TEST_CASE("a NUL byte ends nothing: text after it is an error, not ignored") {
  const std::string text = std::string(R"({"ops": []})") + '\0' + "garbage";
  const json out = json::parse(fusion::api::plan(text, ""));
  CHECK(out["error"]["code"] == "json_syntax");
  CHECK(out["error"]["column"] == 12);
}

TEST_CASE("catalog lists the presets with their rules, the hardware profiles, the rules and the reasons") {
  const json out = json::parse(fusion::api::catalog());
  REQUIRE(out["ok"] == true);
  REQUIRE(out["strategies"].size() == 5);
  CHECK(out["strategies"][0]["name"] == "seed");
  CHECK(out["strategies"][0]["rules"]["epilogue"] == false);
  CHECK(out["strategies"][0]["rules"].size() == 12);  // seed runs the shared rule engine: all its rules
  CHECK(out["strategies"][1]["name"] == "xla");
  CHECK(out["strategies"][1]["rules"] == json::parse(R"({"passes": ["priority", "multi_output", "horizontal"],
                                                         "max_group_operands": 96})"));
  CHECK(out["strategies"][2]["name"] == "xla-classic");
  CHECK(out["strategies"][2]["rules"].size() == 12);
  CHECK(out["strategies"][2]["rules"]["horizontal_small_bytes"] == 1048576);
  CHECK(out["strategies"][3]["name"] == "tvm");
  CHECK(out["strategies"][3]["rules"] == json::parse(R"({"max_depth": 256})"));
  CHECK(out["strategies"][4]["name"] == "inductor");
  CHECK(out["strategies"][4]["rules"] ==
        json::parse(R"({"max_group_ops": 64, "max_pointwise_cat_inputs": 8, "epilogue": false})"));
  REQUIRE(out["hardware"].size() == 3);
  CHECK(out["hardware"][1]["name"] == "a100");
  CHECK(out["hardware"][1]["bandwidth_bytes_per_s"] == 2.039e12);
  CHECK(out["rules"].size() == 15);
  CHECK(out["rules"][12] == "passes");
  CHECK(out["rules"][13] == "max_depth");
  CHECK(out["rules"][14] == "max_pointwise_cat_inputs");
  CHECK(out["reasons"] == json::parse(R"(["source", "barrier_producer", "barrier_consumer", "shape", "cycle", "anchor",
                                          "layout", "multi_pass", "limit", "unprofitable", "region",
                                          "post_dominator", "output", "consumers", "range", "numerics"])"));
}

TEST_CASE("a rule the strategy does not accept is an invalid_options error naming the rule and the strategy") {
  const std::string graph =
      R"({"ops": [{"kind": "input", "shape": [4], "dtype": "f32"}, {"kind": "relu", "inputs": [0], "shape": [4], "dtype": "f32"}]})";
  const json out = json::parse(fusion::api::plan(graph, R"({"strategy": "tvm", "rules": {"passes": ["priority"]}})"));
  CHECK(out["ok"] == false);
  CHECK(out["error"]["code"] == "invalid_options");
  CHECK(out["error"]["path"] == "/rules/passes");
  const std::string message = out["error"]["message"].get<std::string>();
  CHECK(message.find("'passes'") != std::string::npos);
  CHECK(message.find("'tvm'") != std::string::npos);
  const json accepted = json::parse(fusion::api::plan(graph, R"({"strategy": "tvm", "rules": {"max_depth": 1}})"));
  CHECK(accepted["ok"] == true);
  CHECK(accepted["options"]["rules"] == json::parse(R"({"max_depth": 1})"));
}

TEST_CASE("catalog gives the kind table with categories and aliases, the defaults and both sets of error codes") {
  const json out = json::parse(fusion::api::catalog());
  REQUIRE(out["kinds"].size() == fusion::all_op_kinds().size());
  CHECK(out["kinds"][0] == json::parse(R"({"name": "input", "category": "source", "aliases": ["placeholder", "parameter"]})"));
  for (const json& kind : out["kinds"]) {
    const auto parsed = fusion::parse_op_kind(kind["name"].get<std::string>());
    REQUIRE(parsed);
    CHECK(kind["category"] == std::string(fusion::to_string(fusion::category(*parsed))));
    for (const json& alias : kind["aliases"]) CHECK(fusion::parse_op_kind(alias.get<std::string>()) == parsed);
  }
  const fusion::PlannerOptions defaults;
  CHECK(out["defaults"] == json({{"broadcast", defaults.broadcast}, {"resident_sources", defaults.resident_sources},
                                 {"strategy", defaults.strategy}, {"hardware", defaults.hardware}}));
  CHECK(out["errors"]["user"].size() == fusion::all_error_codes().size());
  CHECK(out["errors"]["user"][0] == "json_syntax");
  CHECK(out["errors"]["internal"] == json::parse(R"(["out_of_memory", "internal_error"])"));
  for (const json& code : out["errors"]["internal"]) CHECK(std::count(out["errors"]["user"].begin(), out["errors"]["user"].end(), code) == 0);
}

TEST_CASE("every group says whether it runs a kernel: a group of sources does not") {
  const json out = json::parse(fusion::api::plan(
      R"({"ops": [{"kind": "input", "shape": [4], "dtype": "f32"}, {"kind": "relu", "inputs": [0], "shape": [4], "dtype": "f32"}]})",
      ""));
  REQUIRE(out["groups"].size() == 2);
  CHECK(out["groups"][0]["kernel"] == false);
  CHECK(out["groups"][1]["kernel"] == true);
  CHECK(out["kernels_fused"] == 1);
}
