// json_read.cpp — the graph document into a validated FusionGraph, with located errors.
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "detail/json_text.h"
#include "fusion/json_io.h"

namespace fusion {
namespace {

using json = nlohmann::json;
using detail::make_error;
using detail::parse_text;

std::string type_name(const json& v) { return v.type_name(); }

// A non-negative integer up to 2^53 - 1, read from a JSON number.
std::optional<std::int64_t> exact_count(const json& v) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u <= kMaxExactBytes) return static_cast<std::int64_t>(u);
    return std::nullopt;
  }
  if (v.is_number_integer()) {
    const auto i = v.get<std::int64_t>();
    if (i >= 0) return i;
  }
  return std::nullopt;
}

constexpr std::array<std::string_view, 6> kOpFields = {"name", "kind", "inputs", "shape", "dtype", "dtype_bytes"};
constexpr std::array<std::string_view, 4> kTopFields = {"ops", "name", "description", "$schema"};

template <std::size_t N>
bool is_one_of(std::string_view key, const std::array<std::string_view, N>& allowed) {
  for (std::string_view a : allowed)
    if (a == key) return true;
  return false;
}

class GraphReader {
 public:
  Expected<FusionGraph> read(const json& doc) {
    if (!doc.is_object())
      return make_error(ErrorCode::invalid_type,
                        "the graph must be a JSON object {\"ops\": [...]}, not " + type_name(doc), "");
    for (const auto& [key, value] : doc.items())
      if (!is_one_of(key, kTopFields))
        add(ErrorCode::unknown_field, "unknown top-level field '" + key + "'; a graph has \"ops\"", "/" + key);
    const auto ops = doc.find("ops");
    if (ops == doc.end()) add(ErrorCode::missing_field, "the graph has no \"ops\" list", "/ops");
    else if (!ops->is_array())
      add(ErrorCode::invalid_type, "\"ops\" must be a list of ops, not " + type_name(*ops), "/ops");
    if (!errors_.empty()) return std::move(errors_);
    ops_count_ = ops->size();
    index_names(*ops);
    std::vector<FusionOp> parsed;
    parsed.reserve(ops->size());
    for (std::size_t i = 0; i < ops->size(); ++i) parsed.push_back(read_op((*ops)[i], static_cast<std::int64_t>(i)));
    if (!errors_.empty()) return std::move(errors_);
    return FusionGraph::from_ops(std::move(parsed));
  }

 private:
  void add(ErrorCode code, std::string message, std::string path, std::optional<std::int64_t> op = {}) {
    if (errors_.size() < kMaxReportedErrors) errors_.push_back(make_error(code, std::move(message), std::move(path), op));
  }

  void index_names(const json& ops) {
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (!ops[i].is_object()) continue;
      const auto name = ops[i].find("name");
      if (name != ops[i].end() && name->is_string())
        index_of_name_.emplace(name->get_ref<const std::string&>(), static_cast<OpId>(i));
    }
  }

  static std::string where(std::int64_t i, const std::string& name) {
    return "op " + std::to_string(i) + (name.empty() ? "" : " ('" + name + "')");
  }

  FusionOp read_op(const json& v, std::int64_t i) {
    FusionOp op;
    const std::string path = "/ops/" + std::to_string(i);
    if (!v.is_object()) {
      add(ErrorCode::invalid_type, "op " + std::to_string(i) + " must be an object, not " + type_name(v), path, i);
      return op;
    }
    for (const auto& [key, value] : v.items())
      if (!is_one_of(key, kOpFields))
        add(ErrorCode::unknown_field,
            "op " + std::to_string(i) + " has an unknown field '" + key +
                "'; ops have name, kind, inputs, shape, dtype or dtype_bytes",
            path + "/" + key, i);
    read_name(v, i, path, op);
    read_kind(v, i, path, op);
    read_inputs(v, i, path, op);
    read_shape(v, i, path, op);
    read_dtype(v, i, path, op);
    return op;
  }

  void read_name(const json& v, std::int64_t i, const std::string& path, FusionOp& op) {
    const auto it = v.find("name");
    if (it == v.end()) return;
    if (!it->is_string())
      return add(ErrorCode::invalid_type, "the name of op " + std::to_string(i) + " must be a string", path + "/name", i);
    op.name = it->get<std::string>();
    if (op.name.empty())
      add(ErrorCode::invalid_name, "the name of op " + std::to_string(i) + " is empty; omit it or give a label",
          path + "/name", i);
  }

  void read_kind(const json& v, std::int64_t i, const std::string& path, FusionOp& op) {
    const auto it = v.find("kind");
    if (it == v.end())
      return add(ErrorCode::missing_field, where(i, op.name) + " has no \"kind\" (e.g. \"add\", \"matmul\")",
                 path + "/kind", i);
    if (!it->is_string())
      return add(ErrorCode::invalid_type, "the kind of " + where(i, op.name) + " must be a string", path + "/kind", i);
    const auto kind = parse_op_kind(it->get_ref<const std::string&>());
    if (!kind)
      return add(ErrorCode::unknown_kind,
                 where(i, op.name) + " has unknown kind '" + it->get<std::string>() +
                     "'; use an elementwise kind (add, mul, relu, ...), a barrier (matmul, reduce_sum, ...), "
                     "input or constant, or 'opaque' for anything else",
                 path + "/kind", i);
    op.kind = *kind;
  }

  void read_inputs(const json& v, std::int64_t i, const std::string& path, FusionOp& op) {
    const auto it = v.find("inputs");
    if (it == v.end()) return;
    if (!it->is_array())
      return add(ErrorCode::invalid_type, "the inputs of " + where(i, op.name) + " must be a list", path + "/inputs", i);
    op.inputs.reserve(it->size());
    for (std::size_t k = 0; k < it->size(); ++k) {
      const json& ref = (*it)[k];
      const std::string at = path + "/inputs/" + std::to_string(k);
      if (ref.is_string()) {
        const auto found = index_of_name_.find(ref.get_ref<const std::string&>());
        if (found == index_of_name_.end()) {
          add(ErrorCode::unknown_input,
              "input " + std::to_string(k) + " of " + where(i, op.name) + " names '" + ref.get<std::string>() +
                  "', but no op has that name",
              at, i);
          continue;
        }
        op.inputs.push_back(found->second);
      } else if (ref.is_number_integer()) {
        const bool fits = ref.is_number_unsigned() ? ref.get<std::uint64_t>() <= INT32_MAX
                                                   : ref.get<std::int64_t>() >= 0 && ref.get<std::int64_t>() <= INT32_MAX;
        if (!fits) {
          add(ErrorCode::unknown_input,
              "input " + std::to_string(k) + " of " + where(i, op.name) + " is " + ref.dump() +
                  ", which is not an op index",
              at, i);
          continue;
        }
        const auto id = static_cast<OpId>(ref.get<std::int64_t>());
        if (static_cast<std::size_t>(id) >= ops_count_)
          add(ErrorCode::unknown_input,
              "input " + std::to_string(k) + " of " + where(i, op.name) + " is " + std::to_string(id) +
                  ", but the graph has ops 0 to " + std::to_string(static_cast<std::int64_t>(ops_count_) - 1),
              at, i);
        op.inputs.push_back(id);
      } else {
        add(ErrorCode::invalid_type,
            "input " + std::to_string(k) + " of " + where(i, op.name) + " must be an op index or an op name, not " +
                type_name(ref),
            at, i);
      }
    }
  }

  void read_shape(const json& v, std::int64_t i, const std::string& path, FusionOp& op) {
    const auto it = v.find("shape");
    if (it == v.end())
      return add(ErrorCode::missing_field, where(i, op.name) + " has no \"shape\" (use [] for a scalar)",
                 path + "/shape", i);
    if (!it->is_array())
      return add(ErrorCode::invalid_type, "the shape of " + where(i, op.name) + " must be a list of dimensions",
                 path + "/shape", i);
    op.shape.reserve(it->size());
    for (std::size_t d = 0; d < it->size(); ++d) {
      const auto dim = exact_count((*it)[d]);
      if (!dim) {
        add(ErrorCode::invalid_dimension,
            "dimension " + std::to_string(d) + " of " + where(i, op.name) + " is " + (*it)[d].dump() +
                "; dimensions must be integers from 0 to 2^53 - 1",
            path + "/shape/" + std::to_string(d), i);
        continue;
      }
      op.shape.push_back(*dim);
    }
  }

  void read_dtype(const json& v, std::int64_t i, const std::string& path, FusionOp& op) {
    const auto name = v.find("dtype");
    const auto bytes = v.find("dtype_bytes");
    std::optional<std::int64_t> from_name, from_bytes;
    if (name != v.end()) {
      if (name->is_string()) from_name = dtype_size(name->get_ref<const std::string&>());
      if (!from_name)
        return add(ErrorCode::unknown_dtype,
                   where(i, op.name) + " has dtype " + name->dump() +
                       "; use f32, f16, bf16, f64, f8, i8, i16, i32, i64, u8, u16, u32, u64 or bool, or give dtype_bytes",
                   path + "/dtype", i);
    }
    if (bytes != v.end()) {
      from_bytes = exact_count(*bytes);
      if (!from_bytes || *from_bytes == 0)
        return add(ErrorCode::invalid_dtype_bytes,
                   "dtype_bytes of " + where(i, op.name) + " is " + bytes->dump() +
                       "; it must be a positive whole number of bytes per element",
                   path + "/dtype_bytes", i);
    }
    if (!from_name && !from_bytes)
      return add(ErrorCode::missing_field, where(i, op.name) + " needs a \"dtype\" (e.g. \"f32\") or \"dtype_bytes\"",
                 path + "/dtype", i);
    if (from_name && from_bytes && *from_name != *from_bytes)
      return add(ErrorCode::invalid_dtype_bytes,
                 where(i, op.name) + " has dtype " + name->dump() + " (" + std::to_string(*from_name) +
                     " bytes) but dtype_bytes " + std::to_string(*from_bytes) + "; give one or make them agree",
                 path + "/dtype_bytes", i);
    op.dtype_bytes = from_name ? *from_name : *from_bytes;
  }

  std::vector<Error> errors_;
  std::unordered_map<std::string, OpId> index_of_name_;
  std::size_t ops_count_ = 0;
};

}  // namespace

std::optional<std::int64_t> dtype_size(std::string_view dtype) {
  static constexpr std::array<std::pair<std::string_view, std::int64_t>, 22> kSizes = {{
      {"f32", 4}, {"float32", 4}, {"float", 4}, {"f16", 2}, {"float16", 2}, {"half", 2}, {"bf16", 2},
      {"bfloat16", 2}, {"f64", 8}, {"float64", 8}, {"double", 8}, {"f8", 1}, {"i8", 1}, {"i16", 2},
      {"i32", 4}, {"i64", 8}, {"u8", 1}, {"u16", 2}, {"u32", 4}, {"u64", 8}, {"bool", 1}, {"int64", 8},
  }};
  for (const auto& [name, size] : kSizes)
    if (name == dtype) return size;
  return std::nullopt;
}

Expected<FusionGraph> read_graph_json(std::string_view text) {
  Expected<json> doc = parse_text(text);
  if (!doc) return doc.errors();
  return GraphReader().read(*doc);
}

}  // namespace fusion
