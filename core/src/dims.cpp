// dims.cpp — binding named dimensions (fusion/dims.h).
#include "fusion/dims.h"

#include <algorithm>

#include "detail/json_text.h"

namespace fusion {
namespace {

bool is_name_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }

// The value of `name`: the override, else the graph's default, else nothing.
const std::int64_t* value_of(std::string_view name, const DimValues& overrides, const DimValues& defaults) {
  if (const auto it = overrides.find(name); it != overrides.end()) return &it->second;
  if (const auto it = defaults.find(name); it != defaults.end()) return &it->second;
  return nullptr;
}

Error unbound(const FusionGraph& graph, OpId x, std::size_t d, const std::string& name) {
  return detail::make_error(ErrorCode::unbound_dim,
                            "dimension '" + name + "' has no value: " + describe_op(graph, x) + " uses it as dimension " +
                                std::to_string(d) + "; give it in the graph's \"dims\" or the options' \"dims\" (CLI --dim " +
                                name + "=...)",
                            "/ops/" + std::to_string(x) + "/shape/" + std::to_string(d), x);
}

Error negative(const std::string& name, std::int64_t value) {
  return detail::make_error(ErrorCode::invalid_dimension,
                            "dimension '" + name + "' is bound to " + std::to_string(value) +
                                "; values are whole numbers from 0 to 2^53 - 1",
                            "/dims/" + name);
}

}  // namespace

bool is_dim_name(std::string_view text) {
  return !text.empty() && text.size() <= kMaxDimNameBytes && is_name_start(text.front()) &&
         std::all_of(text.begin(), text.end(), is_name_char);
}

std::vector<std::string> used_dim_names(const FusionGraph& graph) {
  std::vector<std::string> names;
  for (const FusionOp& op : graph.ops())
    for (const std::string& name : op.dim_names)
      if (!name.empty()) names.push_back(name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

Expected<FusionGraph> bind_dims(const FusionGraph& graph, const DimValues& overrides) {
  std::vector<Error> errors;
  DimValues used;
  std::vector<FusionOp> ops = graph.ops();
  for (std::size_t x = 0; x < ops.size() && errors.size() < kMaxReportedErrors; ++x) {
    FusionOp& op = ops[x];
    for (std::size_t d = 0; d < op.dim_names.size() && d < op.shape.size(); ++d) {
      const std::string& name = op.dim_names[d];
      if (name.empty()) continue;
      const std::int64_t* value = value_of(name, overrides, graph.dims());
      if (!value) {
        if (used.emplace(name, -1).second) errors.push_back(unbound(graph, static_cast<OpId>(x), d, name));
        continue;
      }
      if (*value < 0 && used.emplace(name, *value).second) errors.push_back(negative(name, *value));
      used.emplace(name, *value);
      op.shape[d] = *value;
    }
  }
  if (!errors.empty()) return errors;
  return FusionGraph::from_ops(std::move(ops), std::move(used));
}

std::vector<std::string> unused_dims(const FusionGraph& graph, const DimValues& overrides) {
  const std::vector<std::string> used = used_dim_names(graph);
  std::vector<std::string> unused;
  for (const auto& [name, value] : overrides)
    if (!std::binary_search(used.begin(), used.end(), name)) unused.push_back(name);
  return unused;
}

std::string describe_binding(const FusionGraph& bound) {
  std::string text;
  for (const auto& [name, value] : bound.dims()) text += (text.empty() ? "" : ", ") + name + " = " + std::to_string(value);
  return text;
}

}  // namespace fusion
