// internal_check.test.cpp — a broken invariant is a bug, reported as internal_error with the invariant named,
// never as a user error code.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <new>
#include <stdexcept>
#include <string>

#include "detail/internal_check.h"
#include "fusion/api.h"

using json = nlohmann::json;

TEST_SUITE("internal checks") {
  TEST_CASE("a check that holds does nothing") { CHECK_NOTHROW(FUSION_CHECK(1 + 1 == 2, "arithmetic works")); }

  TEST_CASE("a check that fails throws InternalError naming the invariant and the source line") {
    const int line = __LINE__ + 2;
    try {
      FUSION_CHECK(false, "every op is a member of some group");
      FAIL("FUSION_CHECK(false) did not throw");
    } catch (const fusion::InternalError& e) {
      CHECK(e.invariant() == "every op is a member of some group");
      CHECK(e.where() == "tests/core/internal_check.test.cpp:" + std::to_string(line));
      CHECK(std::string(e.what()) ==
            "internal error (please report it): every op is a member of some group (" + e.where() + ")");
    }
  }

  TEST_CASE("the API facade reports an InternalError as internal_error with the invariant, never a user code") {
    const json out = json::parse(fusion::api::detail::guard([]() -> std::string {
      FUSION_CHECK(false, "the group graph is acyclic");
      return "{}";
    }));
    CHECK(out["ok"] == false);
    CHECK(out["error"]["code"] == "internal_error");
    CHECK(out["error"]["internal"] == true);
    CHECK(out["error"]["invariant"] == "the group graph is acyclic");
    CHECK(out["error"]["where"].get<std::string>().rfind("tests/core/internal_check.test.cpp:", 0) == 0);
    CHECK(out["errors"].size() == 1);
    const json catalog = json::parse(fusion::api::catalog());
    for (const json& user : catalog["errors"]["user"]) CHECK(user != "internal_error");
  }

  TEST_CASE("out of memory and other escaped exceptions have their own codes") {
    CHECK(json::parse(fusion::api::detail::guard([]() -> std::string { throw std::bad_alloc(); }))["error"]["code"] ==
          "out_of_memory");
    const json other =
        json::parse(fusion::api::detail::guard([]() -> std::string { throw std::runtime_error("boom"); }));
    CHECK(other["error"]["code"] == "internal_error");
    CHECK(other["error"]["message"] == "internal error (please report it): boom");
    CHECK_FALSE(other["error"].contains("invariant"));
    CHECK_FALSE(json::parse(fusion::api::plan("[", ""))["error"].contains("internal"));  // a user error
  }

  TEST_CASE("the guard passes a good answer through unchanged") {
    CHECK(fusion::api::detail::guard([] { return std::string("{\"ok\":true}"); }) == "{\"ok\":true}");
  }
}
