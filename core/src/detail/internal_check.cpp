// internal_check.cpp — the failing side of FUSION_CHECK.
#include "detail/internal_check.h"

namespace fusion::detail {

void internal_failure(const char* invariant, const char* file, int line) {
  throw InternalError(invariant, std::string(file) + ":" + std::to_string(line));
}

}  // namespace fusion::detail
