// verify/code.cpp — the generated code's byte annotations against the plan (docs/design.md §11, §19).
//
// Every group is emitted in both dialects (fusion/codegen.h) and the `load N B` / `store N B` comments of its
// kernel are summed: they must equal the group's bytes_read and bytes_written. Skipped when an earlier stage found
// a broken partition, copy or cycle (code generation needs a valid partition); a wrong byte count in the plan is
// reported here too, beside check_bytes's `bytes`. Violation code `code`.
#include <algorithm>
#include <cstring>

#include "codegen/emit_c.h"
#include "codegen/emit_triton.h"
#include "codegen/kernel.h"
#include "fusion/codegen.h"
#include "verify/context.h"

namespace fusion::verifier {

void check_code(Context& c) {
  const bool broken = std::any_of(c.out.begin(), c.out.end(), [](const Violation& v) {
    return v.code == "partition" || v.code == "recompute" || v.code == "cycle";
  });
  if (broken) return;
  const codegen::GraphFacts facts(c.g);
  const std::vector<bool> read = codegen::read_from_memory(facts, c.plan);
  for (const FusionGroup& group : c.plan.groups) {
    codegen::Kernel kernel = codegen::group_kernel(facts, c.plan, group.id, read);
    kernel.resident_sources = c.options.resident_sources;
    const std::pair<const char*, std::string> texts[] = {{"C", codegen::emit_c_kernel(facts, kernel)},
                                                         {"Triton", codegen::emit_triton_kernel(facts, kernel)}};
    for (const auto& [dialect, text] : texts) {
      const AnnotatedBytes sum = annotated_bytes(text);
      if (sum.loaded == group.bytes_read && sum.stored == group.bytes_written) continue;
      c.fail("code",
             std::string("the generated ") + dialect + " kernel of group " + std::to_string(group.id) + " loads " +
                 std::to_string(sum.loaded) + " B and stores " + std::to_string(sum.stored) +
                 " B, but the plan says bytes_read " + std::to_string(group.bytes_read) + " and bytes_written " +
                 std::to_string(group.bytes_written),
             group.id);
    }
  }
}

}  // namespace fusion::verifier
