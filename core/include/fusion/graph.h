// fusion/graph.h — the op graph of docs/design.md §2 and its validation (§3).
//
// A FusionGraph is an immutable-once-built list of ops; an op's id is its index. Two ways in:
//  - `add_op` (the C++ builder): inputs must name ops already added, so ids are a topological order.
//    A bad input id throws BuildError (a programming mistake in the caller, like vector::at).
//  - `FusionGraph::from_ops` (readers such as the JSON reader): ops in any order, unchecked; call
//    `validate` before planning.
// `validate` returns every graph problem of docs/design.md §3, each naming its op and JSON path: unknown
// inputs, cycles (with the ops on them), bad dimensions or dtype_bytes, inputs on source kinds, byte counts
// above 2^53 - 1 (per op and in total), duplicate names. An empty list means the graph is plannable.
// Shown by tests/core/graph.test.cpp.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "fusion/error.h"
#include "fusion/op_kind.h"
#include "fusion/shape.h"

namespace fusion {

using OpId = std::int32_t;

struct FusionOp {
  OpKind kind = OpKind::input;
  std::vector<OpId> inputs;  // producers, in order; a producer may repeat (x * x)
  Shape shape;               // output shape; [] is a scalar (for a named dimension: its bound value)
  std::int64_t dtype_bytes = 4;
  std::string name;          // optional; unique when given
  bool output = false;       // always written to memory, even when only its own group reads it
  std::string region;        // control-flow region ("" = top level); nothing fuses across regions
  std::string label;         // free text for people (e.g. the ONNX op type of an `opaque` op); never planned on
  std::vector<std::string> dim_names;  // per dimension of shape, its name or "" (docs/design.md §16); empty: no names
  std::string dtype;         // the dtype name as given ("f16"), "" when only dtype_bytes was (fusion/numerics.h)

  bool is_source() const { return inputs.empty(); }
};

class BuildError : public std::invalid_argument {
 public:
  explicit BuildError(Error error);
  const Error& error() const { return error_; }

 private:
  Error error_;
};

// Values of named dimensions, by name (docs/design.md §16).
using DimValues = std::map<std::string, std::int64_t, std::less<>>;

class FusionGraph {
 public:
  FusionGraph() = default;
  // `dims`: the values of named dimensions the graph carries (its defaults; after binding, the values used).
  static FusionGraph from_ops(std::vector<FusionOp> ops, DimValues dims = {});

  // Appends an op and returns its id. Throws BuildError when an input is not an existing op id.
  OpId add_op(FusionOp op);
  OpId add_op(OpKind kind, std::vector<OpId> inputs, Shape shape, std::int64_t dtype_bytes = 4,
              std::string name = {});

  std::size_t size() const { return ops_.size(); }
  const FusionOp& op(OpId id) const { return ops_[static_cast<std::size_t>(id)]; }
  const std::vector<FusionOp>& ops() const { return ops_; }
  const DimValues& dims() const { return dims_; }
  bool has_dim_names() const;  // some op's shape names a dimension

 private:
  std::vector<FusionOp> ops_;
  DimValues dims_;
};

// At most this many errors are collected by validate (the rest are counted in the last message).
inline constexpr std::size_t kMaxReportedErrors = 100;

std::vector<Error> validate(const FusionGraph& graph);

// "op 3 ('y')" or "op 3", for messages.
std::string describe_op(const FusionGraph& graph, OpId id);

}  // namespace fusion
