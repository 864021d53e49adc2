// byte_notes.cpp — the load and store comments of byte_notes.h.
#include "codegen/byte_notes.h"

#include <algorithm>

#include "codegen/semantics.h"

namespace fusion::codegen {

ByteNotes::ByteNotes(const GraphFacts& facts, const Kernel& kernel)
    : f_(facts), k_(kernel), counted_(kernel.inputs.size(), false) {}

std::string ByteNotes::load(OpId x) {
  const auto i = static_cast<std::size_t>(std::lower_bound(k_.inputs.begin(), k_.inputs.end(), x) - k_.inputs.begin());
  const bool first = !counted_[i];
  counted_[i] = true;
  return "load " + num(first ? f_.bytes(x) : 0) + " B: " + describe(f_.g, x) + (first ? "" : " (again)");
}

std::string ByteNotes::store(OpId x) const {
  const bool resident = k_.resident_sources && f_.g.op(x).inputs.empty();
  return "store " + num(resident ? 0 : f_.bytes(x)) + " B: " + describe(f_.g, x) + (resident ? " (resident source)" : "");
}

}  // namespace fusion::codegen
