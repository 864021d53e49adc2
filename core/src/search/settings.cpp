// search/settings.cpp — names of the search modes (fusion/search.h).
#include "fusion/search.h"

namespace fusion {

std::string_view to_string(SearchMode mode) { return mode == SearchMode::optimal ? "optimal" : "greedy"; }

}  // namespace fusion
