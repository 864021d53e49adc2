// fusion/dims.h — named dimensions (docs/design.md §16): binding names to values before planning.
//
// A shape entry may be a name ([A-Za-z_][A-Za-z0-9_]*) instead of a number, or a product of names and whole numbers
// ("batch*seq", "2*seq": what a reshape or a concat makes of named sizes); FusionOp::dim_names holds its canonical
// text per dimension ("" for a number) and FusionOp::shape the bound value. `bind_dims` gives every named dimension its
// value — the override when one is given, else the graph's default — and returns the bound graph, whose dims()
// are the values used for the names it uses; names stay in dim_names, so formulas can still be written. A name
// with no value is `unbound_dim` at its first use (in op order, then dimension order). Range checks of the values
// are the readers' (JSON) or validate's (bytes); a negative value is `invalid_dimension`. Bindings for names the
// graph does not use are not errors: `unused_dims` lists them, for warnings. Binding is pure and O(ops + dims).
// Shown by tests/core/dims.test.cpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fusion/error.h"
#include "fusion/graph.h"

namespace fusion {

// Dimension names are at most this long (docs/design.md §15).
inline constexpr std::size_t kMaxDimNameBytes = 64;

// Is `text` a dimension name: [A-Za-z_][A-Za-z0-9_]*, at most kMaxDimNameBytes long?
bool is_dim_name(std::string_view text);

// A shape entry that is not a number: a coefficient times names (at least one name).
struct DimProduct {
  std::int64_t coefficient = 1;
  std::vector<std::string> names;  // ascending, a name repeated for a power
};

// Reads factors joined by '*', each a name or a whole number, at least one a name ("seq", "batch*seq", "2*seq");
// nullopt for anything else, or a coefficient above 2^53 - 1.
std::optional<DimProduct> parse_dim_product(std::string_view text);
// The canonical text: the coefficient first when it is not 1, then the names ascending ("2*batch*seq").
std::string dim_product_text(const DimProduct& product);
// The value of a product at `values`; nullopt when a name has no value or the value passes 2^53 - 1.
std::optional<std::int64_t> dim_product_value(const DimProduct& product, const DimValues& values);

// The names the graph's shapes use, ascending (each name of a product counts).
std::vector<std::string> used_dim_names(const FusionGraph& graph);

// The graph with every named dimension set to its value (overrides first, then graph.dims()), or the errors.
Expected<FusionGraph> bind_dims(const FusionGraph& graph, const DimValues& overrides);

// The names in `overrides` that the graph does not use, ascending.
std::vector<std::string> unused_dims(const FusionGraph& graph, const DimValues& overrides);

// "N = 8, seq = 128" for the names the graph uses, for messages; "" when it uses none.
std::string describe_binding(const FusionGraph& bound);

}  // namespace fusion
