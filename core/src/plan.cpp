// plan.cpp — the stable names of edge reasons.
#include "fusion/plan.h"

#include <array>
#include <utility>

namespace fusion {
namespace {
constexpr std::array<std::pair<EdgeReason, const char*>, 17> kReasons = {{
    {EdgeReason::none, "none"},
    {EdgeReason::source, "source"},
    {EdgeReason::barrier_producer, "barrier_producer"},
    {EdgeReason::barrier_consumer, "barrier_consumer"},
    {EdgeReason::shape, "shape"},
    {EdgeReason::cycle, "cycle"},
    {EdgeReason::anchor, "anchor"},
    {EdgeReason::layout, "layout"},
    {EdgeReason::multi_pass, "multi_pass"},
    {EdgeReason::limit, "limit"},
    {EdgeReason::unprofitable, "unprofitable"},
    {EdgeReason::region, "region"},
    {EdgeReason::post_dominator, "post_dominator"},
    {EdgeReason::output, "output"},
    {EdgeReason::consumers, "consumers"},
    {EdgeReason::range, "range"},
    {EdgeReason::numerics, "numerics"},
}};
static_assert([] {
  for (std::size_t i = 0; i < kReasons.size(); ++i)
    if (static_cast<std::size_t>(kReasons[i].first) != i) return false;
  return true;
}(), "kReasons must list reasons in declaration order");
}  // namespace

const char* to_string(EdgeReason reason) { return kReasons[static_cast<std::size_t>(reason)].second; }

std::optional<EdgeReason> parse_edge_reason(std::string_view name) {
  for (const auto& [reason, text] : kReasons)
    if (name == text) return reason;
  return std::nullopt;
}

}  // namespace fusion
