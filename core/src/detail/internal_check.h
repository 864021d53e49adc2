// detail/internal_check.h — internal checks: where the code trusts a precondition, say so, and fail loudly.
//
// FUSION_CHECK(condition, "invariant in words") throws fusion::InternalError (fusion/error.h) naming the
// invariant and the source line when condition is false; it costs one branch when it holds. Use it where a
// stage relies on what an earlier stage guarantees (a validated graph is acyclic, the group graph has a
// topological order, every op has a group), never for user input: user mistakes are Error values found by
// validation. The API facade reports an InternalError as "internal_error" with the invariant.
// Shown by tests/core/internal_check.test.cpp.
#pragma once

#include "fusion/error.h"

namespace fusion::detail {

// Throws InternalError for `invariant` at file:line. Out of line so the check stays one branch. __FILE__
// is relative to the repository root (core/CMakeLists.txt maps the prefix away): "core/src/planner.cpp".
[[noreturn]] void internal_failure(const char* invariant, const char* file, int line);

}  // namespace fusion::detail

#define FUSION_CHECK(condition, invariant) \
  ((condition) ? static_cast<void>(0) : ::fusion::detail::internal_failure((invariant), __FILE__, __LINE__))
