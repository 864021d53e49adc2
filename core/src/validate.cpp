// validate.cpp — every graph check of docs/design.md §3, each error naming its op and JSON path.
#include <string>
#include <unordered_map>

#include "detail/topology.h"
#include "fusion/cost.h"
#include "fusion/dims.h"
#include "fusion/graph.h"

namespace fusion {
namespace {

std::string op_path(OpId id) { return "/ops/" + std::to_string(id); }

class ErrorList {
 public:
  void add(ErrorCode code, std::string message, std::optional<OpId> op, std::string path) {
    ++total_;
    if (errors_.size() < kMaxReportedErrors)
      errors_.push_back(Error{code, std::move(message),
                              op ? std::optional<std::int64_t>(*op) : std::nullopt, std::move(path), {}, {}});
  }
  bool empty() const { return total_ == 0; }
  std::vector<Error> take() {
    if (total_ > errors_.size())
      errors_.back().message += " (and " + std::to_string(total_ - errors_.size()) + " more problems)";
    return std::move(errors_);
  }

 private:
  std::vector<Error> errors_;
  std::size_t total_ = 0;
};

void check_inputs(const FusionGraph& g, OpId id, ErrorList& errors) {
  const FusionOp& op = g.op(id);
  if (is_source_kind(op.kind) && !op.inputs.empty())
    errors.add(ErrorCode::source_with_inputs,
               describe_op(g, id) + " has kind '" + std::string(to_string(op.kind)) +
                   "', a source, but lists inputs; remove its inputs or give it a computing kind",
               id, op_path(id) + "/inputs");
  for (std::size_t slot = 0; slot < op.inputs.size(); ++slot) {
    const OpId in = op.inputs[slot];
    if (in < 0 || static_cast<std::size_t>(in) >= g.size())
      errors.add(ErrorCode::unknown_input,
                 "input " + std::to_string(slot) + " of " + describe_op(g, id) + " is " + std::to_string(in) +
                     ", which is not an op (ids run from 0 to " + std::to_string(g.size() - 1) + ")",
                 id, op_path(id) + "/inputs/" + std::to_string(slot));
  }
}

// " (with N = 8, seq = 128)" for a graph bound from names (fusion/dims.h), else "".
std::string binding_note(const FusionGraph& g) {
  const std::string binding = describe_binding(g);
  return binding.empty() ? "" : " (with " + binding + ")";
}

// dim_names is empty or names each dimension ("" for a number); C++ callers can get it wrong.
bool check_dim_names(const FusionGraph& g, OpId id, ErrorList& errors) {
  const FusionOp& op = g.op(id);
  if (op.dim_names.empty()) return true;
  if (op.dim_names.size() != op.shape.size()) {
    errors.add(ErrorCode::invalid_dimension,
               describe_op(g, id) + " has " + std::to_string(op.dim_names.size()) + " dimension names for " +
                   std::to_string(op.shape.size()) + " dimensions; give one per dimension (\"\" for a number)",
               id, op_path(id) + "/shape");
    return false;
  }
  for (std::size_t d = 0; d < op.dim_names.size(); ++d)
    if (!op.dim_names[d].empty() && !parse_dim_product(op.dim_names[d])) {
      errors.add(ErrorCode::invalid_dimension,
                 "dimension " + std::to_string(d) + " of " + describe_op(g, id) + " is named '" +
                     op.dim_names[d].substr(0, 40) + "', which is not a name ([A-Za-z_][A-Za-z0-9_]*) or a product of names and numbers",
                 id, op_path(id) + "/shape/" + std::to_string(d));
      return false;
    }
  return true;
}

void check_shape_and_dtype(const FusionGraph& g, OpId id, ErrorList& errors) {
  const FusionOp& op = g.op(id);
  bool dims_ok = check_dim_names(g, id, errors);
  for (std::size_t d = 0; d < op.shape.size(); ++d) {
    const std::int64_t dim = op.shape[d];
    if (dim < 0 || static_cast<std::uint64_t>(dim) > kMaxExactBytes) {
      dims_ok = false;
      errors.add(ErrorCode::invalid_dimension,
                 "dimension " + std::to_string(d) + " of " + describe_op(g, id) + " is " + std::to_string(dim) +
                     "; dimensions must be integers from 0 to 2^53 - 1",
                 id, op_path(id) + "/shape/" + std::to_string(d));
    }
  }
  if (op.dtype_bytes <= 0) {
    errors.add(ErrorCode::invalid_dtype_bytes,
               "dtype_bytes of " + describe_op(g, id) + " is " + std::to_string(op.dtype_bytes) +
                   "; it must be a positive number of bytes per element (e.g. 4 for f32)",
               id, op_path(id) + "/dtype_bytes");
    return;
  }
  if (dims_ok && !tensor_bytes(op.shape, op.dtype_bytes))
    errors.add(ErrorCode::byte_overflow,
               "the output of " + describe_op(g, id) + " (" + shape_to_string(op.shape) + " x " +
                   std::to_string(op.dtype_bytes) + " bytes)" + (op.dim_names.empty() ? "" : binding_note(g)) +
                   " exceeds 2^53 - 1 bytes, the largest exact count",
               id, op_path(id) + "/shape");
}

void check_names(const FusionGraph& g, ErrorList& errors) {
  std::unordered_map<std::string_view, OpId> first_with_name;
  for (std::size_t x = 0; x < g.size(); ++x) {
    const auto id = static_cast<OpId>(x);
    const std::string& name = g.op(id).name;
    if (name.empty()) continue;
    auto [it, inserted] = first_with_name.emplace(name, id);
    if (!inserted)
      errors.add(ErrorCode::duplicate_name,
                 "ops " + std::to_string(it->second) + " and " + std::to_string(id) + " are both named '" + name +
                     "'; names must be unique",
                 id, op_path(id) + "/name");
  }
}

void check_cycle(const FusionGraph& g, ErrorList& errors) {
  if (detail::ids_are_topological(g)) return;  // the common case (every builder graph): no cycle possible
  const std::vector<OpId> cycle = detail::find_cycle(g, detail::build_consumers(g));
  if (cycle.empty()) return;
  std::string ops;
  constexpr std::size_t kShown = 8;  // a long cycle is shown by its ends
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    if (cycle.size() > 2 * kShown && i == kShown) {
      ops += "... (" + std::to_string(cycle.size() - 2 * kShown) + " more) -> ";
      i = cycle.size() - kShown;
    }
    ops += describe_op(g, cycle[i]) + " -> ";
  }
  ops += describe_op(g, cycle.front());
  // Point at the edge that closes the cycle: the first op's input slot naming the last op.
  const OpId head = cycle.front();
  const OpId tail = cycle.back();
  std::size_t slot = 0;
  while (g.op(head).inputs[slot] != tail) ++slot;
  errors.add(ErrorCode::cycle, "the ops form a cycle: " + ops + "; a graph must be acyclic", head,
             op_path(head) + "/inputs/" + std::to_string(slot));
}

}  // namespace

std::vector<Error> validate(const FusionGraph& g) {
  ErrorList errors;
  for (std::size_t x = 0; x < g.size(); ++x) {
    check_inputs(g, static_cast<OpId>(x), errors);
    check_shape_and_dtype(g, static_cast<OpId>(x), errors);
  }
  check_names(g, errors);
  if (!errors.empty()) return errors.take();  // the checks below need well-formed ops
  check_cycle(g, errors);
  if (!errors.empty()) return errors.take();
  if (!unfused_bytes(g, /*resident_sources=*/false))
    errors.add(ErrorCode::byte_overflow,
               "the graph moves more than 2^53 - 1 bytes in total" + (g.has_dim_names() ? binding_note(g) : "") +
                   ", the largest exact count; use smaller shapes",
               std::nullopt, "/ops");
  return errors.take();
}

}  // namespace fusion
