// json_read_options.cpp — the options document: broadcast, resident_sources, strategy, hardware, rule
// overrides (docs/strategies.md), dimension values (docs/design.md §16) and plan search (§17), into resolved PlannerOptions with
// located errors.
//
// The strategy's preset fills the rules first, then "rules" overrides them one by one, whatever the key
// order in the text; a rule the strategy does not accept is refused (invalid_options naming both). Unknown strategy or hardware names pass through: the planner reports them.
#include <algorithm>

#include <nlohmann/json.hpp>

#include "detail/json_text.h"
#include "fusion/dims.h"
#include "fusion/json_io.h"
#include "fusion/strategy.h"

namespace fusion {
namespace {

using json = nlohmann::json;
using detail::make_error;

bool is_blank(std::string_view text) { return text.find_first_not_of(" \t\r\n") == std::string_view::npos; }

std::optional<Error> option_error(const std::string& message, const std::string& path) {
  return make_error(ErrorCode::invalid_options, message, path);
}

std::optional<Error> read_count(const json& value, std::int64_t& into, const std::string& name, const std::string& path) {
  if (!value.is_number_integer() || value.get<std::int64_t>() < 0 || value.get<std::int64_t>() > (std::int64_t{1} << 53))
    return option_error("rule '" + name + "' must be a whole number from 0 (no limit) to 2^53", path);
  into = value.get<std::int64_t>();
  return std::nullopt;
}

std::optional<Error> read_bool(const json& value, bool& into, const std::string& name, const std::string& path) {
  if (!value.is_boolean()) return option_error("rule '" + name + "' must be true or false", path);
  into = value.get<bool>();
  return std::nullopt;
}

std::optional<Error> read_movement(const json& value, std::vector<OpKind>& into, const std::string& path) {
  const std::string expected = "rule 'movement' must be a list of kinds from reshape, broadcast, slice, concat, "
                               "transpose, gather, pad";
  if (!value.is_array()) return option_error(expected, path);
  into.clear();
  for (std::size_t i = 0; i < value.size(); ++i) {
    const auto kind = value[i].is_string() ? parse_op_kind(value[i].get<std::string>()) : std::nullopt;
    if (!kind || !is_movement_kind(*kind)) return option_error(expected, path + "/" + std::to_string(i));
    if (std::find(into.begin(), into.end(), *kind) == into.end()) into.push_back(*kind);
  }
  return std::nullopt;
}

std::optional<Error> read_passes(const json& value, std::uint8_t& into, const std::string& path) {
  const std::string expected = "rule 'passes' must be a list of XLA passes from priority, multi_output, horizontal";
  if (!value.is_array()) return option_error(expected, path);
  into = 0;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::uint8_t bit = value[i].is_string() ? xla_pass_bit(value[i].get<std::string>()) : 0;
    if (bit == 0) return option_error(expected, path + "/" + std::to_string(i));
    into |= bit;
  }
  return std::nullopt;
}

// A rule the strategy does not accept (docs/strategies.md lists each preset's rules).
std::optional<Error> inapplicable(const std::string& name, const std::string& strategy, const std::string& path) {
  const std::span<const std::string_view> accepted = strategy_rule_names(strategy);
  if (accepted.empty() || std::find(accepted.begin(), accepted.end(), name) != accepted.end()) return std::nullopt;
  std::string list;
  for (std::string_view rule : accepted) list += (list.empty() ? "" : ", ") + std::string(rule);
  return option_error("rule '" + name + "' does not apply to strategy '" + strategy + "'; its rules are " + list,
                      path);
}

std::optional<Error> read_rule(const std::string& name, const json& value, StrategyRules& r, const std::string& path) {
  std::int64_t count = 0;
  if (name == "passes") return read_passes(value, r.passes, path);
  if (name == "max_depth") return read_count(value, r.max_depth, name, path);
  if (name == "max_pointwise_cat_inputs") return read_count(value, r.max_pointwise_cat_inputs, name, path);
  if (name == "horizontal") return read_bool(value, r.horizontal, name, path);
  if (name == "epilogue") return read_bool(value, r.epilogue, name, path);
  if (name == "reduction_prologue") return read_bool(value, r.reduction_prologue, name, path);
  if (name == "reduction_epilogue") return read_bool(value, r.reduction_epilogue, name, path);
  if (name == "refuse_unprofitable") return read_bool(value, r.refuse_unprofitable, name, path);
  if (name == "horizontal_max_ops") return read_count(value, r.horizontal_max_ops, name, path);
  if (name == "max_group_ops") return read_count(value, r.max_group_ops, name, path);
  if (name == "max_group_operands") return read_count(value, r.max_group_operands, name, path);
  if (name == "max_live_values") return read_count(value, r.max_live_values, name, path);
  if (name == "horizontal_small_bytes") {
    if (auto e = read_count(value, count, name, path)) return e;
    r.horizontal_small_bytes = static_cast<std::uint64_t>(count);
    return std::nullopt;
  }
  if (name == "recompute") {
    const auto parsed = value.is_string() ? parse_recompute(value.get<std::string>()) : std::nullopt;
    if (!parsed) return option_error("rule 'recompute' must be \"none\", \"cheap\" or \"all\"", path);
    r.recompute = *parsed;
    return std::nullopt;
  }
  if (name == "movement") return read_movement(value, r.movement, path);
  std::string known;
  for (std::string_view rule : rule_names()) known += (known.empty() ? "" : ", ") + std::string(rule);
  return option_error("unknown rule '" + name + "'; rules are " + known, path);
}

std::optional<Error> read_rules(const json& rules, const std::string& strategy, StrategyRules& into) {
  if (!rules.is_object()) return option_error("option 'rules' must be an object of rule overrides", "/rules");
  for (const auto& [name, value] : rules.items()) {
    if (auto e = read_rule(name, value, into, "/rules/" + name)) return e;
    if (auto e = inapplicable(name, strategy, "/rules/" + name)) return e;
  }
  return std::nullopt;
}

// "dims": {"N": 8, ...}, values of named dimensions (docs/design.md §16).
std::optional<Error> read_dims(const json& dims, DimValues& into) {
  if (!dims.is_object()) return option_error("option 'dims' must be an object such as {\"N\": 8}", "/dims");
  for (const auto& [name, value] : dims.items()) {
    if (!is_dim_name(name))
      return option_error("dimension name '" + std::string(name.substr(0, 40)) +
                              "' in 'dims' is not a name ([A-Za-z_][A-Za-z0-9_]*, at most 64 bytes)",
                          "/dims/" + name);
    const bool whole = value.is_number_integer() && (value.is_number_unsigned() || value.get<std::int64_t>() >= 0);
    if (!whole || value.get<std::uint64_t>() > kMaxExactBytes)
      return option_error("dimension '" + name + "' is bound to " + value.dump().substr(0, 40) +
                              "; a value is a whole number from 0 to 2^53 - 1",
                          "/dims/" + name);
    into[name] = value.get<std::int64_t>();
  }
  return std::nullopt;
}

// "search": "greedy" | "optimal" | {"mode": ..., "budget_nodes": N, "budget_ms": M} (docs/design.md §17). A
// budget above kMaxSearchNodes or kMaxSearchMs (up to 2^53) is capped, and the plan says so in a warning. A time
// budget becomes nodes at the fixed rate kSearchNodesPerMs; with both, the smaller node budget wins.
std::optional<Error> read_search_mode(const json& value, SearchSettings& into, const std::string& path) {
  const std::string mode = value.is_string() ? value.get<std::string>() : "";
  if (mode != "greedy" && mode != "optimal")
    return option_error("search mode must be \"greedy\" or \"optimal\"", path);
  into.mode = mode == "optimal" ? SearchMode::optimal : SearchMode::greedy;
  return std::nullopt;
}

// A whole number from 1 to 2^53 - 1 at /search/<key>, capped at `cap` (capped says so).
std::optional<Error> read_search_budget(const json& value, const std::string& key, const char* unit, std::int64_t cap,
                                        std::int64_t& into, bool& capped) {
  const bool whole = value.is_number_integer() &&
                     (value.is_number_unsigned() ? value.get<std::uint64_t>() > 0 : value.get<std::int64_t>() > 0);
  if (!whole || value.get<std::uint64_t>() > kMaxExactBytes)
    return option_error("'" + key + "' must be a whole number of " + unit + " from 1 to 2^53 - 1 (values above " +
                            std::to_string(cap) + " are capped)",
                        "/search/" + key);
  capped = value.get<std::uint64_t>() > static_cast<std::uint64_t>(cap);
  into = capped ? cap : value.get<std::int64_t>();
  return std::nullopt;
}

std::optional<Error> read_search(const json& value, SearchSettings& into) {
  if (value.is_string()) return read_search_mode(value, into, "/search");
  if (!value.is_object())
    return option_error("option 'search' must be \"greedy\", \"optimal\" or {\"mode\": \"optimal\", \"budget_nodes\": N, "
                        "\"budget_ms\": M}",
                        "/search");
  bool nodes_given = false;
  for (const auto& [key, field] : value.items()) {
    std::optional<Error> error;
    if (key == "mode") {
      error = read_search_mode(field, into, "/search/mode");
    } else if (key == "budget_nodes") {
      error = read_search_budget(field, key, "search nodes", kMaxSearchNodes, into.budget_nodes, into.budget_capped);
      nodes_given = true;
    } else if (key == "budget_ms") {
      error = read_search_budget(field, key, "milliseconds", kMaxSearchMs, into.budget_ms, into.budget_ms_capped);
    } else {
      error = option_error("unknown search field '" + key + "'; search has mode, budget_nodes and budget_ms",
                           "/search/" + key);
    }
    if (error) return error;
  }
  if (into.budget_ms > 0)
    into.budget_nodes = nodes_given ? std::min(into.budget_nodes, nodes_for_ms(into.budget_ms)) : nodes_for_ms(into.budget_ms);
  return std::nullopt;
}

// "numerics": true | false | {"evaluate": bool, "parity": bool, "seed": N, "max_elements": N} (docs/design.md §18).
std::optional<Error> read_numerics(const json& value, NumericsSettings& into) {
  if (value.is_boolean()) {
    into.enabled = value.get<bool>();
    return std::nullopt;
  }
  if (!value.is_object())
    return option_error("option 'numerics' must be true, false or {\"evaluate\": true, \"parity\": false, \"seed\": 0, "
                        "\"max_elements\": 65536}",
                        "/numerics");
  into.enabled = true;
  for (const auto& [key, field] : value.items()) {
    const std::string path = "/numerics/" + key;
    if (key == "evaluate" || key == "parity") {
      if (!field.is_boolean()) return option_error("numerics '" + key + "' must be true or false", path);
      (key == "evaluate" ? into.evaluate : into.parity) = field.get<bool>();
    } else if (key == "seed") {
      const bool whole = field.is_number_integer() && (field.is_number_unsigned() || field.get<std::int64_t>() >= 0);
      if (!whole || field.get<std::uint64_t>() > kMaxExactBytes)
        return option_error("numerics 'seed' must be a whole number from 0 to 2^53 - 1", path);
      into.seed = field.get<std::uint64_t>();
    } else if (key == "max_elements") {
      const bool whole = field.is_number_integer() && !field.is_number_unsigned() ? field.get<std::int64_t>() >= 1
                                                                                 : field.is_number_unsigned();
      if (!whole || field.get<std::uint64_t>() < 1 || field.get<std::uint64_t>() > static_cast<std::uint64_t>(kMaxNumericsElements))
        return option_error("numerics 'max_elements' must be a whole number from 1 to " +
                                std::to_string(kMaxNumericsElements) + " (elements evaluated per tensor)",
                            path);
      into.max_elements = field.get<std::int64_t>();
    } else {
      return option_error("unknown numerics field '" + key + "'; numerics has evaluate, parity, seed and max_elements",
                          path);
    }
  }
  return std::nullopt;
}

std::optional<Error> read_name(const json& value, std::string& into, const std::string& key) {
  if (!value.is_string()) return option_error("option '" + key + "' must be a string", "/" + key);
  into = value.get<std::string>();
  return std::nullopt;
}

}  // namespace

Expected<PlannerOptions> read_options_json(std::string_view text) {
  PlannerOptions options;
  if (is_blank(text)) return options;
  Expected<json> doc = detail::parse_text(text);
  if (!doc) return doc.errors();
  if (!doc->is_object())
    return make_error(ErrorCode::invalid_options,
                      "options must be a JSON object like {\"broadcast\": true, \"strategy\": \"seed\"}", "");
  const json* rules = nullptr;
  for (const auto& [key, value] : doc->items()) {
    std::optional<Error> error;
    if (key == "broadcast" || key == "resident_sources") {
      if (!value.is_boolean()) return make_error(ErrorCode::invalid_options, "option '" + key + "' must be true or false", "/" + key);
      (key == "broadcast" ? options.broadcast : options.resident_sources) = value.get<bool>();
    } else if (key == "strategy" || key == "hardware") {
      error = read_name(value, key == "strategy" ? options.strategy : options.hardware, key);
    } else if (key == "rules") {
      rules = &value;
    } else if (key == "dims") {
      error = read_dims(value, options.dims);
    } else if (key == "search") {
      error = read_search(value, options.search);
    } else if (key == "numerics") {
      error = read_numerics(value, options.numerics);
    } else {
      error = option_error("unknown option '" + key +
                               "'; options are broadcast, resident_sources, strategy, hardware, rules, dims, search and numerics",
          "/" + key);
    }
    if (error) return *error;
  }
  options.rules = preset_rules(options.strategy).value_or(StrategyRules{});
  if (rules)
    if (auto error = read_rules(*rules, options.strategy, options.rules)) return *error;
  return options;
}

Expected<SweepSpec> read_sweep_json(std::string_view text) {
  Expected<json> doc = detail::parse_text(text);
  if (!doc) return doc.errors();
  const auto error = [](const std::string& message, const std::string& field) {
    return make_error(ErrorCode::invalid_options, message, "/sweep" + field);
  };
  if (!doc->is_object()) return error("a sweep is an object such as {\"dim\": \"N\", \"from\": 1, \"to\": 4096}", "");
  SweepSpec spec;
  bool has_dim = false;
  for (const auto& [key, value] : doc->items()) {
    if (key == "dim") {
      if (!value.is_string()) return error("the swept \"dim\" must be a dimension name", "/dim");
      spec.dim = value.get<std::string>();
      has_dim = true;
    } else if (key == "from" || key == "to" || key == "step") {
      if (!value.is_number_integer() || value.get<std::int64_t>() < 0)
        return error("\"" + key + "\" must be a whole number from 0 to 2^53 - 1", "/" + key);
      (key == "from" ? spec.from : key == "to" ? spec.to : spec.step) = value.get<std::int64_t>();
    } else {
      return error("unknown sweep field '" + key + "'; a sweep has dim, from, to and step", "/" + key);
    }
  }
  if (!has_dim) return error("a sweep needs \"dim\", the name to sweep", "/dim");
  return spec;
}

}  // namespace fusion
