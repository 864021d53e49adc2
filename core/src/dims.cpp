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

Error too_large(const FusionGraph& graph, OpId x, std::size_t d, const std::string& product) {
  return detail::make_error(ErrorCode::invalid_dimension,
                            "dimension " + std::to_string(d) + " of " + describe_op(graph, x) + " is " + product +
                                ", which passes 2^53 - 1 at the values given",
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

std::optional<DimProduct> parse_dim_product(std::string_view text) {
  if (is_dim_name(text)) return DimProduct{1, {std::string(text)}};  // the common case
  DimProduct product;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find('*', at), text.size());
    const std::string_view factor = text.substr(at, end - at);
    if (is_dim_name(factor)) {
      product.names.emplace_back(factor);
    } else {
      std::int64_t value = 0;
      if (factor.empty() || factor.size() > 16) return std::nullopt;
      for (char c : factor) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
      }
      if (__builtin_mul_overflow(product.coefficient, value, &product.coefficient) ||
          static_cast<std::uint64_t>(product.coefficient) > kMaxExactBytes)
        return std::nullopt;
    }
    at = end + 1;
  }
  if (product.names.empty()) return std::nullopt;
  std::sort(product.names.begin(), product.names.end());
  return product;
}

std::string dim_product_text(const DimProduct& product) {
  std::string text = product.coefficient == 1 ? "" : std::to_string(product.coefficient);
  for (const std::string& name : product.names) text += (text.empty() ? "" : "*") + name;
  return text;
}

std::optional<std::int64_t> dim_product_value(const DimProduct& product, const DimValues& values) {
  std::int64_t value = product.coefficient;
  for (const std::string& name : product.names) {
    const auto it = values.find(name);
    if (it == values.end() || __builtin_mul_overflow(value, it->second, &value) ||
        static_cast<std::uint64_t>(value) > kMaxExactBytes)
      return std::nullopt;
  }
  return value;
}

std::vector<std::string> used_dim_names(const FusionGraph& graph) {
  std::vector<std::string> names;
  for (const FusionOp& op : graph.ops())
    for (const std::string& entry : op.dim_names)
      if (const auto product = entry.empty() ? std::nullopt : parse_dim_product(entry))
        names.insert(names.end(), product->names.begin(), product->names.end());
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
      if (op.dim_names[d].empty()) continue;
      const std::optional<DimProduct> product = parse_dim_product(op.dim_names[d]);
      if (!product) continue;  // validate reports it
      bool bound = true;
      for (const std::string& name : product->names) {
        const std::int64_t* value = value_of(name, overrides, graph.dims());
        if (!value) {
          if (used.emplace(name, -1).second) errors.push_back(unbound(graph, static_cast<OpId>(x), d, name));
          bound = false;
        } else if (*value < 0) {
          if (used.emplace(name, *value).second) errors.push_back(negative(name, *value));
          bound = false;
        } else {
          used.emplace(name, *value);
        }
      }
      if (!bound) continue;
      const std::optional<std::int64_t> value = dim_product_value(*product, used);
      if (!value) errors.push_back(too_large(graph, static_cast<OpId>(x), d, op.dim_names[d]));
      else op.shape[d] = *value;
    }
  }
  if (!errors.empty()) return errors;
  return FusionGraph::from_ops(std::move(ops), std::move(used));
}

std::vector<std::string> unused_dims(const FusionGraph& graph, const DimValues& overrides) {
  if (overrides.empty()) return {};  // the common case: no walk over the ops
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
