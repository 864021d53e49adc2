// verify/search.cpp — the certificate of a searched plan (docs/design.md §17), checked for consistency with the
// plan's own bytes: status "optimal" or "bounded"; lower_bound <= bytes_fused; optimal means lower_bound ==
// bytes_fused and gap 0; gap = (bytes_fused - lower_bound) / bytes_fused (0 when bytes_fused is 0, relative
// tolerance 1e-9); bytes_fused <= greedy_bytes_fused (a search never answers worse than greedy). Whether the
// bound is true (no legal plan moves fewer bytes) is beyond a checker; tests/core/search.test.cpp shows it against
// a brute-force enumerator. Plans without a certificate pass.
#include <cmath>

#include "verify/context.h"

namespace fusion::verifier {

void check_search(Context& c) {
  const SearchCertificate& s = c.plan.search;
  if (!s.present) return;
  const std::uint64_t bytes = c.plan.bytes_fused;
  const std::string figures = " (bytes_fused " + std::to_string(bytes) + ", lower_bound " +
                              std::to_string(s.lower_bound) + ")";
  if (s.status != "optimal" && s.status != "bounded")
    c.fail("search", "search status '" + s.status + "' is neither optimal nor bounded");
  if (s.lower_bound > bytes) c.fail("search", "the search's lower bound is above the plan's bytes" + figures);
  if (s.status == "optimal" && (s.lower_bound != bytes || s.gap != 0.0))
    c.fail("search", "an optimal plan must meet its lower bound with gap 0" + figures);
  const double gap = bytes == 0 || s.lower_bound > bytes
                         ? 0.0
                         : static_cast<double>(bytes - s.lower_bound) / static_cast<double>(bytes);
  if (std::abs(s.gap - gap) > 1e-9 * std::max(1.0, gap))
    c.fail("search", "search gap " + std::to_string(s.gap) + " is not (bytes_fused - lower_bound) / bytes_fused" + figures);
  if (bytes > s.greedy_bytes_fused)
    c.fail("search", "a searched plan moves more bytes (" + std::to_string(bytes) + ") than the greedy plan (" +
                         std::to_string(s.greedy_bytes_fused) + ")");
}

}  // namespace fusion::verifier
