// peers.test.cpp — replays the peer-derived cases of tests/core/data/peers/<strategy>/*.json.
//
// Each case re-states, in our graph JSON, a graph from a compiler's own fusion test (TVM's relay FuseOps
// tests, XLA's GPU fusion-pass tests — xla-classic keeps the older instruction-fusion ones — Inductor's byte-
// and kernel-count tests), names that peer test under
// "peer", and under "expect" gives the grouping the peer asserts, translated through docs/strategies.md:
// every multi-op group as op names (ops not listed are singletons), optionally the reasons of chosen
// unfused edges ("producer->consumer"), the kernel count and the fused bytes. A case is planned with its
// strategy and options, compared, and its plan is checked by the verifier. Each preset folder must hold at
// least kMinCasesPerPreset cases, so deleting cases fails as well.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "fusion/json_io.h"
#include "fusion/planner.h"
#include "fusion/verify.h"

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;
using Groups = std::vector<std::vector<std::string>>;  // each group sorted, the list sorted

constexpr std::size_t kMinCasesPerPreset = 25;  // tvm, xla, inductor (docs/strategies.md)
constexpr std::size_t kMinClassicCases = 8;     // xla-classic keeps the older XLA tests

// A case file that does not follow the format above (a bug in the case, not in the planner).
struct BadCase : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void require(bool ok, const std::string& what) {
  if (!ok) throw BadCase(what);
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// The *.json files of one preset folder, by name.
std::vector<fs::path> case_files(std::string_view preset) {
  std::vector<fs::path> files;
  const fs::path folder = fs::path(PEER_CASES) / preset;
  if (!fs::is_directory(folder)) return files;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

void require_only_keys(const json& object, std::initializer_list<std::string_view> keys, const std::string& where) {
  require(object.is_object(), where + " must be an object");
  for (const auto& [key, value] : object.items())
    require(std::find(keys.begin(), keys.end(), key) != keys.end(), where + " has an unknown key \"" + key + "\"");
}

// "peer" must name the repository, file and test it re-states, and say what that test asserts.
void check_peer(const json& peer) {
  require_only_keys(peer, {"repo", "path", "test", "note"}, "\"peer\"");
  for (const char* key : {"repo", "path", "test", "note"})
    require(peer.contains(key) && peer[key].is_string() && !peer[key].get<std::string>().empty(),
            std::string("\"peer\" needs a non-empty string \"") + key + "\"");
}

Groups normalized(Groups groups) {
  for (auto& group : groups) std::sort(group.begin(), group.end());
  std::sort(groups.begin(), groups.end());
  return groups;
}

std::string describe(const Groups& groups) {
  if (groups.empty()) return "(none)";
  std::string out;
  for (const auto& group : groups) {
    out += out.empty() ? "{" : " {";
    for (std::size_t i = 0; i < group.size(); ++i) out += (i ? ", " : "") + group[i];
    out += "}";
  }
  return out;
}

// Op name -> id; every op of a case must be named so that expectations can refer to it.
std::map<std::string, fusion::OpId> names_of(const fusion::FusionGraph& graph) {
  std::map<std::string, fusion::OpId> ids;
  for (fusion::OpId id = 0; id < static_cast<fusion::OpId>(graph.size()); ++id) {
    require(!graph.op(id).name.empty(), "op " + std::to_string(id) + " has no name");
    ids[graph.op(id).name] = id;
  }
  return ids;
}

Groups expected_groups(const json& expect, const std::map<std::string, fusion::OpId>& ids) {
  require(expect.contains("groups") && expect["groups"].is_array(), "\"expect\" needs a \"groups\" list");
  Groups groups;
  for (const json& group : expect["groups"]) {
    require(group.is_array() && group.size() >= 2, "each expected group lists two or more op names");
    auto& names = groups.emplace_back();
    for (const json& name : group) {
      require(name.is_string() && ids.count(name.get<std::string>()), "expected group names no op: " + name.dump());
      names.push_back(name.get<std::string>());
    }
  }
  return normalized(std::move(groups));
}

// Multi-op groups of a plan (recomputed members included), as names.
Groups actual_groups(const fusion::FusionGraph& graph, const fusion::FusionPlan& plan) {
  Groups groups;
  for (const fusion::FusionGroup& group : plan.groups) {
    if (group.ops.size() < 2) continue;
    auto& names = groups.emplace_back();
    for (fusion::OpId id : group.ops) names.push_back(graph.op(id).name);
  }
  return normalized(std::move(groups));
}

// The case's options with its strategy, read as any options are (the preset's rules, then "rules" overrides).
fusion::PlannerOptions case_options(const json& doc) {
  json options = doc.value("options", json::object());
  require(options.is_object(), "\"options\" must be an object");
  options["strategy"] = doc["strategy"];
  fusion::Expected<fusion::PlannerOptions> read = fusion::read_options_json(options.dump());
  require(read.ok(), "options: " + (read.ok() ? std::string() : read.errors().front().message));
  return *read;
}

// Problems with the listed reasons of unfused edges ("producer->consumer": reason).
std::vector<std::string> reason_problems(const json& reasons, const std::map<std::string, fusion::OpId>& ids,
                                         const fusion::FusionPlan& plan) {
  require(reasons.is_object(), "\"reasons\" must be an object");
  std::vector<std::string> problems;
  for (const auto& [edge, want] : reasons.items()) {
    const std::size_t arrow = edge.find("->");
    require(arrow != std::string::npos, "reason key \"" + edge + "\" is not \"producer->consumer\"");
    const std::string producer = edge.substr(0, arrow), consumer = edge.substr(arrow + 2);
    require(ids.count(producer) && ids.count(consumer), "reason key \"" + edge + "\" names no op");
    require(want.is_string() && fusion::parse_edge_reason(want.get<std::string>()), "unknown reason " + want.dump());
    const auto it = std::find_if(plan.edges.begin(), plan.edges.end(), [&](const fusion::EdgeDecision& e) {
      return e.producer == ids.at(producer) && e.consumer == ids.at(consumer);
    });
    if (it == plan.edges.end())
      problems.push_back("edge " + edge + " is not in the plan");
    else if (it->fused)
      problems.push_back("edge " + edge + " is fused; expected unfused (" + want.get<std::string>() + ")");
    else if (fusion::to_string(it->reason) != want.get<std::string>())
      problems.push_back("edge " + edge + ": reason " + fusion::to_string(it->reason) + ", expected " +
                         want.get<std::string>());
  }
  return problems;
}

template <typename T>
void compare_total(const json& expect, const char* key, T actual, std::vector<std::string>& problems) {
  if (!expect.contains(key)) return;
  require(expect[key].is_number_unsigned(), std::string("\"") + key + "\" must be a non-negative integer");
  if (expect[key].get<T>() != actual)
    problems.push_back(std::string(key) + ": " + std::to_string(actual) + ", expected " + expect[key].dump());
}

// An empty string when the case passes; otherwise a report naming the file, the peer test and the groups.
std::string check_case(const json& doc, std::string_view preset, const std::string& label) {
  std::vector<std::string> problems;
  std::string expected_text = "?", actual_text = "?";
  try {
    require_only_keys(doc, {"peer", "strategy", "options", "graph", "expect"}, "the case");
    check_peer(doc.value("peer", json()));
    require(doc.value("strategy", json()) == json(preset), "\"strategy\" must be \"" + std::string(preset) + "\"");
    require_only_keys(doc.value("expect", json()), {"groups", "reasons", "kernels_fused", "bytes_fused"},
                      "\"expect\"");
    fusion::Expected<fusion::FusionGraph> graph = fusion::read_graph_json(doc.value("graph", json()).dump());
    require(graph.ok(), "graph: " + (graph.ok() ? std::string() : graph.errors().front().message));
    const auto ids = names_of(*graph);
    const json& expect = doc["expect"];
    const Groups expected = expected_groups(expect, ids);
    expected_text = describe(expected);
    fusion::Expected<fusion::FusionPlan> plan = fusion::FusionPlanner(case_options(doc)).plan(*graph);
    if (!plan.ok()) {
      problems.push_back("planning failed: " + plan.errors().front().message);
    } else {
      const Groups actual = actual_groups(*graph, *plan);
      actual_text = describe(actual);
      if (actual != expected) problems.push_back("groups differ");
      for (std::string& p : reason_problems(expect.value("reasons", json::object()), ids, *plan))
        problems.push_back(std::move(p));
      compare_total(expect, "kernels_fused", static_cast<std::uint64_t>(plan->kernels_fused), problems);
      compare_total(expect, "bytes_fused", plan->bytes_fused, problems);
      for (const fusion::Violation& v : fusion::verify_plan(*graph, plan->options, *plan))
        problems.push_back("verifier: " + v.code + ": " + v.message);
    }
  } catch (const std::exception& error) {  // BadCase, or a JSON type error in the case
    problems.push_back(std::string("malformed case: ") + error.what());
  }
  if (problems.empty()) return {};
  std::ostringstream report;
  const json peer = doc.is_object() ? doc.value("peer", json::object()) : json::object();
  report << label << "\n  peer: " << peer.value("repo", "?") << " " << peer.value("path", "?")
         << " :: " << peer.value("test", "?") << "\n  expected groups: " << expected_text
         << "\n  actual groups:   " << actual_text;
  for (const std::string& p : problems) report << "\n  - " << p;
  return report.str();
}

std::string check_file(const fs::path& file, std::string_view preset) {
  json doc;
  try {
    doc = json::parse(read_text(file));
  } catch (const json::exception& error) {
    return file.string() + "\n  - malformed case: " + error.what();
  }
  return check_case(doc, preset, file.string());
}

void replay_preset(std::string_view preset, std::size_t min_cases = kMinCasesPerPreset) {
  const std::vector<fs::path> files = case_files(preset);
  CHECK_MESSAGE(files.size() >= min_cases, "tests/core/data/peers/" << preset << " holds " << files.size()
                                                                    << " cases; at least " << min_cases
                                                                    << " are required");
  std::size_t passed = 0;
  for (const fs::path& file : files) {
    const std::string report = check_file(file, preset);
    if (report.empty())
      ++passed;
    else
      FAIL_CHECK(report);
  }
  MESSAGE(preset << ": " << passed << " of " << files.size() << " peer-derived cases pass");
}

// x -> relu -> neg under seed: one group {relu, neg}; the checker is exercised on it below.
json tiny_case() {
  return json::parse(R"({
    "peer": {"repo": "example/repo", "path": "tests/fusion.py", "test": "test_chain", "note": "relu and neg fuse"},
    "strategy": "seed",
    "graph": {"ops": [
      {"name": "x", "kind": "input", "shape": [1024], "dtype": "f32"},
      {"name": "relu", "kind": "relu", "inputs": ["x"], "shape": [1024], "dtype": "f32"},
      {"name": "neg", "kind": "neg", "inputs": ["relu"], "shape": [1024], "dtype": "f32"}]},
    "expect": {"groups": [["relu", "neg"]], "reasons": {"x->relu": "source"}, "kernels_fused": 1}})");
}

}  // namespace

TEST_SUITE("peer-derived cases") {
  TEST_CASE("XLA-style plans group as XLA's own GPU fusion tests assert") { replay_preset("xla"); }
  TEST_CASE("xla-classic plans group as XLA's classic instruction-fusion tests assert") {
    replay_preset("xla-classic", kMinClassicCases);
  }
  TEST_CASE("TVM-style plans group as TVM's relay FuseOps tests assert") { replay_preset("tvm"); }
  TEST_CASE("Inductor-style plans group as Inductor's byte- and kernel-count tests assert") {
    replay_preset("inductor");
  }

  TEST_CASE("the case checker accepts a right case and reports every kind of wrong one") {
    CHECK(check_case(tiny_case(), "seed", "tiny").empty());
    SUBCASE("wrong groups") {
      json c = tiny_case();
      c["expect"]["groups"] = json::array();
      CHECK(check_case(c, "seed", "tiny").find("groups differ") != std::string::npos);
    }
    SUBCASE("wrong reason") {
      json c = tiny_case();
      c["expect"]["reasons"] = {{"relu->neg", "shape"}};
      CHECK(check_case(c, "seed", "tiny").find("edge relu->neg is fused") != std::string::npos);
    }
    SUBCASE("wrong kernel count") {
      json c = tiny_case();
      c["expect"]["kernels_fused"] = 2u;
      CHECK(check_case(c, "seed", "tiny").find("kernels_fused: 1, expected 2") != std::string::npos);
    }
    SUBCASE("a case without its peer test, or in the wrong folder") {
      json c = tiny_case();
      c["peer"].erase("test");
      CHECK(check_case(c, "seed", "tiny").find("malformed case") != std::string::npos);
      CHECK(check_case(tiny_case(), "xla", "tiny").find("\"strategy\" must be \"xla\"") != std::string::npos);
    }
  }
}
