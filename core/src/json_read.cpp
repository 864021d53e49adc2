// json_read.cpp — the graph document into a FusionGraph, streamed: nlohmann's SAX events go straight
// into ops, so no JSON tree is built (a 1,000,000-op file needs no more memory than its ops) and
// nothing can run out of memory in a destructor. Every problem is collected with its op and path.
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "detail/json_text.h"
#include "fusion/dims.h"
#include "fusion/json_io.h"

namespace fusion {
namespace {

using json = nlohmann::json;
using detail::make_error;

constexpr std::array<std::string_view, 9> kOpFields = {"name",        "kind",   "inputs", "shape", "dtype",
                                                       "dtype_bytes", "output", "region", "label"};
constexpr std::array<std::string_view, 5> kTopFields = {"ops", "name", "description", "$schema", "dims"};

template <std::size_t N>
bool is_one_of(std::string_view key, const std::array<std::string_view, N>& allowed) {
  for (std::string_view a : allowed)
    if (a == key) return true;
  return false;
}

// A short quotation of a JSON scalar for messages.
std::string quoted(std::string_view text) {
  std::string out(1, '"');
  out.append(text.substr(0, 40));
  out.append(text.size() > 40 ? "...\"" : "\"");
  return out;
}

// Where the reader is: one frame per open object or array.
enum class Frame { top, ops, op, inputs, shape, dims, skip };

// One scalar JSON value as the handlers see it.
struct Scalar {
  enum Type { null, boolean, integer, unsigned_integer, floating, string } type;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  std::string_view text;  // the literal for floats, booleans and null; the contents of strings

  // The value as a count 0..2^53-1, or nullopt.
  std::optional<std::int64_t> count() const {
    if (type == unsigned_integer && u <= kMaxExactBytes) return static_cast<std::int64_t>(u);
    if (type == integer && i >= 0) return i;
    return std::nullopt;
  }
  std::string describe() const {
    if (type == string) return quoted(text);
    if (type == integer) return std::to_string(i);
    if (type == unsigned_integer) return std::to_string(u);
    return std::string(text);
  }
};

// An op being read, with what it still lacks.
struct OpDraft {
  FusionOp op;
  bool has_kind = false, has_shape = false, dtype_reported = false;
  std::optional<std::int64_t> dtype_from_name, dtype_from_bytes;
  std::vector<std::pair<std::size_t, std::string>> named_inputs;  // (slot, name), resolved at the end
};

class GraphSax : public nlohmann::json_sax<json> {
 public:
  explicit GraphSax(std::string_view text) : text_(text) {}

  Expected<FusionGraph> finish() {
    if (syntax_error_) return std::move(*syntax_error_);
    if (!saw_ops_) add(ErrorCode::missing_field, "the graph has no \"ops\" list", "/ops");
    resolve_inputs();
    if (!errors_.empty()) return std::move(errors_);
    std::vector<FusionOp> ops;
    ops.reserve(drafts_.size());
    for (OpDraft& d : drafts_) ops.push_back(std::move(d.op));
    return FusionGraph::from_ops(std::move(ops), std::move(dims_));
  }

  // --- SAX events ---------------------------------------------------------------------------------
  bool null() override { return scalar({Scalar::null, 0, 0, "null"}); }
  bool boolean(bool v) override { return scalar({Scalar::boolean, 0, 0, v ? "true" : "false"}); }
  bool number_integer(number_integer_t v) override { return scalar({Scalar::integer, v, 0, {}}); }
  bool number_unsigned(number_unsigned_t v) override { return scalar({Scalar::unsigned_integer, 0, v, {}}); }
  bool number_float(number_float_t, const string_t& literal) override {
    return scalar({Scalar::floating, 0, 0, literal});
  }
  bool string(string_t& v) override { return scalar({Scalar::string, 0, 0, v}); }
  bool binary(binary_t&) override { return scalar({Scalar::null, 0, 0, "binary"}); }

  bool start_object(std::size_t) override { return open(false); }
  bool start_array(std::size_t) override { return open(true); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& k) override {
    key_ = k;
    skip_value_ = false;
    if (frames_.back() == Frame::top) {
      if (!is_one_of(key_, kTopFields)) {
        add(ErrorCode::unknown_field, "unknown top-level field '" + key_ + "'; a graph has \"ops\" (and \"dims\")",
            "/" + key_);
      }
      skip_value_ = key_ != "ops" && key_ != "dims";
    } else if (frames_.back() == Frame::dims && !is_dim_name(key_)) {
      add(ErrorCode::invalid_name,
          "\"dims\" has the key \"" + key_.substr(0, 40) + "\", which is not a dimension name ([A-Za-z_][A-Za-z0-9_]*)",
          "/dims/" + key_);
      skip_value_ = true;
    } else if (frames_.back() == Frame::op && !is_one_of(key_, kOpFields)) {
      add_op_error(ErrorCode::unknown_field,
                   "op " + std::to_string(op_index()) + " has an unknown field '" + key_ +
                       "'; ops have name, kind, inputs, shape, dtype or dtype_bytes, output, region, label",
                   "/" + key_);
      skip_value_ = true;
    }
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
    syntax_error_ = detail::syntax_error(text_, position, e.what());
    return false;
  }

 private:
  // --- structure ----------------------------------------------------------------------------------
  bool open(bool array) {
    if (frames_.empty()) {
      if (array) {
        add(ErrorCode::invalid_type, "the graph must be a JSON object {\"ops\": [...]}, not a list", "");
        return false;
      }
      frames_.push_back(Frame::top);
      element_.push_back(0);
      return true;
    }
    const Frame parent = frames_.back();
    const std::string what = array ? "a list" : "an object";
    if (parent == Frame::skip || skip_value_) {
      skip_value_ = false;
      frames_.push_back(Frame::skip);
    } else if (parent == Frame::top && key_ == "dims") {
      if (array) add(ErrorCode::invalid_type, "\"dims\" must be an object such as {\"N\": 8}, not a list", "/dims");
      frames_.push_back(array ? Frame::skip : Frame::dims);
    } else if (parent == Frame::dims) {
      dim_value_error(what);
      frames_.push_back(Frame::skip);
    } else if (parent == Frame::top) {  // key "ops"
      saw_ops_ = true;
      if (!array) add(ErrorCode::invalid_type, "\"ops\" must be a list of ops, not an object", "/ops");
      frames_.push_back(array ? Frame::ops : Frame::skip);
    } else if (parent == Frame::ops) {
      drafts_.emplace_back();
      if (array) {
        add_op_error(ErrorCode::invalid_type, "op " + std::to_string(op_index()) + " must be an object, not a list", "");
        drafts_.back().dtype_reported = drafts_.back().has_kind = drafts_.back().has_shape = true;
      }
      frames_.push_back(array ? Frame::skip : Frame::op);
    } else if (parent == Frame::op) {
      if (key_ == "dtype" || key_ == "dtype_bytes") {
        op_field(Scalar{Scalar::null, 0, 0, what});  // reported as a bad dtype, not a missing one
        frames_.push_back(Frame::skip);
      } else if (array && key_ == "inputs") frames_.push_back(Frame::inputs);
      else if (array && key_ == "shape") {
        draft().has_shape = true;
        frames_.push_back(Frame::shape);
      } else {
        field_type_error(what);
        frames_.push_back(Frame::skip);
      }
    } else {  // an element of inputs or shape
      element_error(Scalar{Scalar::null, 0, 0, what});
      frames_.push_back(Frame::skip);
    }
    element_.push_back(0);
    return true;
  }

  bool close() {
    const Frame done = frames_.back();
    frames_.pop_back();
    element_.pop_back();
    if (done == Frame::op) finish_op();
    if (!element_.empty()) ++element_.back();
    return true;
  }

  // --- values -------------------------------------------------------------------------------------
  bool scalar(const Scalar& v) {
    if (frames_.empty()) {
      add(ErrorCode::invalid_type, "the graph must be a JSON object {\"ops\": [...]}, not " + v.describe(), "");
      return false;
    }
    const Frame frame = frames_.back();
    if (skip_value_ || frame == Frame::skip) {
      skip_value_ = false;
    } else if (frame == Frame::top && key_ == "dims") {
      add(ErrorCode::invalid_type, "\"dims\" must be an object such as {\"N\": 8}, not " + v.describe(), "/dims");
    } else if (frame == Frame::dims) {
      if (const auto value = v.count()) dims_[key_] = *value;
      else dim_value_error(v.describe());
    } else if (frame == Frame::top) {
      saw_ops_ = true;
      add(ErrorCode::invalid_type, "\"ops\" must be a list of ops, not " + v.describe(), "/ops");
    } else if (frame == Frame::ops) {
      drafts_.emplace_back();
      drafts_.back().dtype_reported = drafts_.back().has_kind = drafts_.back().has_shape = true;
      add_op_error(ErrorCode::invalid_type, "op " + std::to_string(op_index()) + " must be an object, not " + v.describe(), "");
    } else if (frame == Frame::op) {
      op_field(v);
    } else {
      element_error(v);
    }
    ++element_.back();
    return true;
  }

  void op_field(const Scalar& v) {
    OpDraft& d = draft();
    if (key_ == "name") {
      if (v.type != Scalar::string) return field_type_error(v.describe());
      d.op.name = std::string(v.text);
      if (d.op.name.empty())
        add_op_error(ErrorCode::invalid_name, "the name of op " + std::to_string(op_index()) + " is empty; omit it or give a label", "/name");
      else if (d.op.name.size() > kMaxNameBytes)
        add_op_error(ErrorCode::invalid_name, "the name of op " + std::to_string(op_index()) + " is " +
                                                  std::to_string(d.op.name.size()) + " bytes long; names are at most " +
                                                  std::to_string(kMaxNameBytes),
                     "/name");
      else
        first_with_name_.emplace(d.op.name, static_cast<OpId>(op_index()));
    } else if (key_ == "kind") {
      d.has_kind = true;
      if (v.type != Scalar::string) return field_type_error(v.describe());
      const auto kind = parse_op_kind(v.text);
      if (!kind)
        return add_op_error(ErrorCode::unknown_kind,
                            where() + " has unknown kind '" + std::string(v.text.substr(0, 40)) + "'" +
                                "; use an elementwise kind (add, mul, relu, ...), a barrier (matmul, reduce_sum, ...), "
                                "input or constant, or 'opaque' for anything else",
                            "/kind");
      d.op.kind = *kind;
    } else if (key_ == "dtype") {
      d.dtype_from_name = v.type == Scalar::string ? dtype_size(v.text) : std::nullopt;
      if (d.dtype_from_name) d.op.dtype = v.text;
      if (!d.dtype_from_name) {
        d.dtype_reported = true;
        add_op_error(ErrorCode::unknown_dtype,
                     where() + " has dtype " + v.describe() +
                         "; use f32, f16, bf16, f64, f8, i8, i16, i32, i64, u8, u16, u32, u64 or bool, or give dtype_bytes",
                     "/dtype");
      }
    } else if (key_ == "dtype_bytes") {
      d.dtype_from_bytes = v.count();
      if (!d.dtype_from_bytes || *d.dtype_from_bytes == 0) {
        d.dtype_reported = true;
        d.dtype_from_bytes.reset();
        add_op_error(ErrorCode::invalid_dtype_bytes,
                     "dtype_bytes of " + where() + " is " + v.describe() + "; it must be a positive whole number of bytes per element",
                     "/dtype_bytes");
      }
    } else if (key_ == "output") {
      if (v.type != Scalar::boolean) return field_type_error(v.describe());
      d.op.output = v.text == "true";
    } else if (key_ == "region" || key_ == "label") {
      if (v.type != Scalar::string) return field_type_error(v.describe());
      if (v.text.size() > kMaxNameBytes)
        return add_op_error(ErrorCode::invalid_name, "the " + key_ + " of " + where() + " is longer than " +
                                                         std::to_string(kMaxNameBytes) + " bytes", "/" + key_);
      (key_ == "region" ? d.op.region : d.op.label) = std::string(v.text);
    } else {  // inputs or shape given as a scalar
      if (key_ == "shape") d.has_shape = true;
      field_type_error(v.describe());
    }
  }

  void element_error(const Scalar& v) {
    const std::size_t k = element_.back();
    const std::string at = "/" + key_ + "/" + std::to_string(k);
    if (frames_.back() == Frame::shape) {
      FusionOp& op = draft().op;
      if (auto dim = v.count()) return op.shape.push_back(*dim);
      if (const auto product = v.type == Scalar::string ? parse_dim_product(v.text) : std::nullopt) {
        op.dim_names.resize(op.shape.size());
        op.dim_names.push_back(dim_product_text(*product));
        return op.shape.push_back(0);  // bound before planning (fusion/dims.h)
      }
      return add_op_error(ErrorCode::invalid_dimension,
                          "dimension " + std::to_string(k) + " of " + where() + " is " + v.describe() +
                              "; a dimension is a whole number from 0 to 2^53 - 1 or a name such as \"N\" "
                              "([A-Za-z_][A-Za-z0-9_]*, at most 64 bytes), or a product such as \"batch*seq\"",
                          at);
    }
    OpDraft& d = draft();
    if (v.type == Scalar::string) {
      d.named_inputs.emplace_back(d.op.inputs.size(), std::string(v.text));
      d.op.inputs.push_back(-1);  // resolved in resolve_inputs()
    } else if (v.type == Scalar::integer || v.type == Scalar::unsigned_integer) {
      const bool fits = v.type == Scalar::unsigned_integer ? v.u <= INT32_MAX : v.i >= 0 && v.i <= INT32_MAX;
      if (!fits)
        return add_op_error(ErrorCode::unknown_input,
                            "input " + std::to_string(k) + " of " + where() + " is " + v.describe() + ", which is not an op index", at);
      d.op.inputs.push_back(static_cast<OpId>(v.type == Scalar::unsigned_integer ? static_cast<std::int64_t>(v.u) : v.i));
    } else {
      add_op_error(ErrorCode::invalid_type,
                   "input " + std::to_string(k) + " of " + where() + " must be an op index or an op name, not " + v.describe(), at);
    }
  }

  void dim_value_error(const std::string& what) {
    add(ErrorCode::invalid_dimension,
        "the value of dimension '" + key_ + "' is " + what + "; it must be a whole number from 0 to 2^53 - 1",
        "/dims/" + key_);
  }

  void field_type_error(const std::string& what) {
    const std::string expected = key_ == "name" || key_ == "kind" || key_ == "region" || key_ == "label" ? "a string"
                                 : key_ == "output"                                 ? "true or false"
                                 : key_ == "shape"                                  ? "a list of dimensions"
                                                                                    : "a list";
    if (key_ == "dtype" || key_ == "dtype_bytes") return;  // reported by op_field
    if (key_ == "kind") draft().has_kind = true;
    add_op_error(ErrorCode::invalid_type, "the " + key_ + " of " + where() + " must be " + expected + ", not " + what, "/" + key_);
  }

  void finish_op() {
    OpDraft& d = draft();
    if (!d.op.dim_names.empty()) d.op.dim_names.resize(d.op.shape.size());
    const std::string i = std::to_string(op_index());
    if (!d.has_kind) add_op_error(ErrorCode::missing_field, where() + " has no \"kind\" (e.g. \"add\", \"matmul\")", "/kind");
    if (!d.has_shape) add_op_error(ErrorCode::missing_field, where() + " has no \"shape\" (use [] for a scalar)", "/shape");
    if (d.dtype_reported) return;
    if (!d.dtype_from_name && !d.dtype_from_bytes)
      return add_op_error(ErrorCode::missing_field, where() + " needs a \"dtype\" (e.g. \"f32\") or \"dtype_bytes\"", "/dtype");
    if (d.dtype_from_name && d.dtype_from_bytes && *d.dtype_from_name != *d.dtype_from_bytes)
      return add_op_error(ErrorCode::invalid_dtype_bytes,
                          where() + " has a dtype of " + std::to_string(*d.dtype_from_name) + " bytes but dtype_bytes " +
                              std::to_string(*d.dtype_from_bytes) + "; give one or make them agree",
                          "/dtype_bytes");
    d.op.dtype_bytes = d.dtype_from_name ? *d.dtype_from_name : *d.dtype_from_bytes;
  }

  // Names may refer to ops further down, so they are resolved once every op is read.
  void resolve_inputs() {
    const std::size_t n = drafts_.size();
    for (std::size_t x = 0; x < n; ++x) {
      FusionOp& op = drafts_[x].op;
      for (const auto& [slot, name] : drafts_[x].named_inputs) {
        const auto found = first_with_name_.find(name);
        if (found == first_with_name_.end())
          add(ErrorCode::unknown_input,
              "input " + std::to_string(slot) + " of " + where(x) + " names '" + name.substr(0, 40) +
                  "', but no op has that name",
              "/ops/" + std::to_string(x) + "/inputs/" + std::to_string(slot), static_cast<std::int64_t>(x));
        else
          op.inputs[slot] = found->second;
      }
      for (std::size_t slot = 0; slot < op.inputs.size(); ++slot)
        if (op.inputs[slot] >= 0 && static_cast<std::size_t>(op.inputs[slot]) >= n)
          add(ErrorCode::unknown_input,
              "input " + std::to_string(slot) + " of " + where(x) + " is " + std::to_string(op.inputs[slot]) +
                  ", but the graph has ops 0 to " + std::to_string(static_cast<std::int64_t>(n) - 1),
              "/ops/" + std::to_string(x) + "/inputs/" + std::to_string(slot), static_cast<std::int64_t>(x));
    }
  }

  // --- helpers ------------------------------------------------------------------------------------
  OpDraft& draft() { return drafts_.back(); }
  std::size_t op_index() const { return drafts_.size() - 1; }
  std::string where(std::size_t x) const {
    const std::string& name = drafts_[x].op.name;
    return "op " + std::to_string(x) + (name.empty() ? "" : " ('" + name + "')");
  }
  std::string where() const { return where(op_index()); }

  void add(ErrorCode code, std::string message, std::string path, std::optional<std::int64_t> op = {}) {
    if (errors_.size() < kMaxReportedErrors) errors_.push_back(make_error(code, std::move(message), std::move(path), op));
  }
  void add_op_error(ErrorCode code, std::string message, const std::string& subpath) {
    add(code, std::move(message), "/ops/" + std::to_string(op_index()) + subpath, static_cast<std::int64_t>(op_index()));
  }

  std::string_view text_;
  std::vector<Frame> frames_;
  std::vector<std::size_t> element_;  // per open frame: index of the next element
  std::string key_;                   // the last key read in an object
  bool skip_value_ = false;           // the next value belongs to an ignored or unknown key
  bool saw_ops_ = false;
  std::vector<OpDraft> drafts_;
  DimValues dims_;  // the graph's "dims": default values of named dimensions
  std::unordered_map<std::string, OpId> first_with_name_;
  std::vector<Error> errors_;
  std::optional<Error> syntax_error_;
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
  if (const auto nul = text.find('\0'); nul != std::string_view::npos)
    return detail::syntax_error(text, nul + 1, "the text contains a NUL character, which JSON does not allow");
  GraphSax reader(text);
  json::sax_parse(text.begin(), text.end(), &reader);
  return reader.finish();
}

}  // namespace fusion
