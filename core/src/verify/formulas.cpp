// verify/formulas.cpp — the named-dimension part of a plan (docs/design.md §16): the values it was made with,
// and every byte formula, rebuilt from the verifier's own traffic (derive_group_io) as a sum of tensor terms and
// compared as polynomials, then evaluated at the values against the number beside it.
#include <optional>

#include "fusion/formula.h"
#include "verify/context.h"

namespace fusion::verifier {
namespace {

std::optional<Polynomial> tensor(const Context& c, OpId x) { return Polynomial::tensor_bytes_of(c.g.op(x)); }

bool writes_nothing(const Context& c, OpId x) { return c.options.resident_sources && c.g.op(x).is_source(); }

// Adds term into sum; false when either is missing or a coefficient overflows (the formula is then unchecked).
bool add(std::optional<Polynomial>& sum, const std::optional<Polynomial>& term, int sign = 1) {
  if (!sum || !term || !sum->add(*term, sign)) return sum.reset(), false;
  return true;
}

// A formula against the verifier's polynomial and the number beside it. An absent (null) formula is allowed
// only when the verifier cannot build the polynomial either.
void check_formula(Context& c, const std::optional<std::string>& text, const std::optional<Polynomial>& expected,
                   std::int64_t number, const std::string& what, std::optional<std::int64_t> group = {}) {
  if (!text) {
    if (expected) c.fail("formulas", what + " has no formula; expected \"" + expected->to_string() + "\"", group);
    return;
  }
  const std::optional<Polynomial> given = Polynomial::parse(*text);
  if (!given) return c.fail("formulas", what + " formula \"" + text->substr(0, 80) + "\" is not a polynomial in names", group);
  if (expected && !(*given == *expected))
    c.fail("formulas", what + " formula is \"" + *text + "\", but the groups give \"" + expected->to_string() + "\"", group);
  const std::optional<std::int64_t> value = given->evaluate(c.plan.dims);
  if (!value || *value != number)
    c.fail("formulas", what + " formula \"" + *text + "\" evaluates to " + (value ? std::to_string(*value) : "nothing") +
                           " at the plan's dims, not " + std::to_string(number),
           group);
}

std::optional<Polynomial> unfused_formula(const Context& c) {
  std::optional<Polynomial> total = Polynomial{};
  for (std::size_t x = 0; x < c.g.size(); ++x) {
    const OpId id = static_cast<OpId>(x);
    if (!writes_nothing(c, id)) add(total, tensor(c, id));
    for (OpId in : c.producers[x]) add(total, tensor(c, in));
  }
  return total;
}

}  // namespace

void check_formulas(Context& c) {
  if (!c.g.has_dim_names()) return;
  if (!c.plan.has_dims) return c.fail("formulas", "the graph names dimensions, but the plan has no \"dims\"");
  if (c.plan.dims != c.g.dims()) return c.fail("formulas", "the plan's \"dims\" are not the values the graph was bound with");
  std::optional<Polynomial> fused = Polynomial{};
  for (std::size_t k = 0; k < c.plan.groups.size() && k < c.io.size(); ++k) {
    const FusionGroup& group = c.plan.groups[k];
    std::optional<Polynomial> read = Polynomial{}, written = Polynomial{};
    for (OpId in : c.io[k].inputs) add(read, tensor(c, in));
    for (OpId out : c.io[k].outputs)
      if (!writes_nothing(c, out)) add(written, tensor(c, out));
    const auto id = static_cast<std::int64_t>(k);
    check_formula(c, group.bytes_read_formula, read, static_cast<std::int64_t>(group.bytes_read), "group " + std::to_string(k) + "'s bytes_read", id);
    check_formula(c, group.bytes_written_formula, written, static_cast<std::int64_t>(group.bytes_written),
                  "group " + std::to_string(k) + "'s bytes_written", id);
    add(fused, read);
    add(fused, written);
  }
  const std::optional<Polynomial> unfused = unfused_formula(c);
  std::optional<Polynomial> saved = unfused;
  add(saved, fused, -1);
  const auto unfused_bytes = static_cast<std::int64_t>(c.plan.bytes_unfused);
  const auto fused_bytes = static_cast<std::int64_t>(c.plan.bytes_fused);
  check_formula(c, c.plan.bytes_unfused_formula, unfused, unfused_bytes, "bytes_unfused");
  check_formula(c, c.plan.bytes_fused_formula, fused, fused_bytes, "bytes_fused");
  check_formula(c, c.plan.bytes_saved_formula, saved, unfused_bytes - fused_bytes, "bytes_saved");
}

}  // namespace fusion::verifier
