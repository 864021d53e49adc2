// fusion/numerics.h — what fusion changes in the results (docs/design.md §18): static notes per group and a
// reference evaluator that measures the difference.
//
// Settings (PlannerOptions::numerics) turn both on. With them the planner adds, to every group, the notes of
// fusion_notes (rules in core/src/numerics/notes.h), and, unless `evaluate` is off, the report of
// evaluate_numerics (core/src/numerics/evaluate.h): the graph run twice on seeded random inputs, unfused and as
// the plan fuses it, compared per output op in the output's dtype. With `parity` ("eager parity") the seed
// planner refuses every merge that would remove a rounding point (edge reason `numerics`), so no group of the
// plan has a `rounding` note, and the evaluator contracts nothing.
//
// Element formats (numeric_type): the op's `dtype` name; when only dtype_bytes was given, 8 bytes are f64, 2
// are f16, 1 is f8, anything else f32. f8 is OCP E4M3FN (3 mantissa bits, largest 448, no infinities: an
// overflow is NaN). Rounding (round_to) is IEEE round-to-nearest-even from a double in one step, exact for every
// float format; integers truncate toward zero and saturate (NaN gives 0); bool is x != 0.
// Shown by tests/core/numerics.test.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fusion/graph.h"

namespace fusion {

struct FusionPlan;

enum class NumericType { f64, f32, f16, bf16, f8, i8, i16, i32, i64, u8, u16, u32, u64, boolean };

NumericType numeric_type(const FusionOp& op);
std::string_view to_string(NumericType type);
bool is_float(NumericType type);
bool is_low_precision_float(NumericType type);  // f16, bf16, f8: an f32 kernel rounds to them on every store
// The type a kernel computes in: f64 for f64, f32 for the other floats, the type itself for integers and bool.
NumericType compute_type(NumericType type);

// x rounded to the type (round-to-nearest-even for floats; see above for integers and bool).
double round_to_format(NumericType type, double x);
inline double round_to(NumericType type, double x) {
  if (type == NumericType::f32) return static_cast<double>(static_cast<float>(x));
  return type == NumericType::f64 ? x : round_to_format(type, x);
}
// The bit patterns of x rounded to f16 and bf16 (for tests and people).
std::uint16_t f16_bits(double x);
std::uint16_t bf16_bits(double x);
// Distance in units in the last place of the type between two values of it: how many representable values
// lie between them (the difference for integers). Infinite when exactly one is NaN or they are infinities of
// different sign.
double ulp_distance(NumericType type, double a, double b);

inline constexpr std::int64_t kDefaultNumericsElements = 65536;
inline constexpr std::int64_t kMaxNumericsElements = 1 << 24;

struct NumericsSettings {
  bool enabled = false;   // notes per group (and the evaluation unless `evaluate` is false)
  bool evaluate = true;   // run the reference evaluator
  bool parity = false;    // eager parity: refuse merges that remove a rounding point (seed only)
  std::uint64_t seed = 0; // the random inputs' seed
  std::int64_t max_elements = kDefaultNumericsElements;  // per tensor: the first N elements (row-major) are evaluated
  bool operator==(const NumericsSettings&) const = default;
};

// A note on one group: what running its ops as one kernel may change.
struct NumericsNote {
  std::string kind;      // rounding, contraction, reduction_order, nan, cast
  std::vector<OpId> ops; // the ops it is about, the one it is about first
  std::string message;   // plain words
  bool operator==(const NumericsNote&) const = default;
};

// Is op x a rounding point: a 16- or 8-bit float whose store rounds (it is not an exact op of inputs already of
// its type)? Fusing an edge out of it removes that rounding for the reader (docs/design.md §18).
bool is_rounding_point(const FusionGraph& graph, OpId x);

// The notes of every group of the plan, per group id (rules in core/src/numerics/notes.h).
std::vector<std::vector<NumericsNote>> fusion_notes(const FusionGraph& graph, const FusionPlan& plan);

struct NumericsOutput {
  OpId op = 0;
  NumericType type = NumericType::f32;
  std::int64_t elements = 0;   // elements compared (a prefix of at most max_elements)
  double max_abs = 0.0;        // max |fused - unfused| over elements where both are finite or equal
  double max_rel = 0.0;        // max |fused - unfused| / |unfused| over those with unfused != 0
  double max_ulp = 0.0;        // max ulp_distance in the op's type over those
  std::int64_t mismatched_special = 0;  // elements where one side is NaN or infinite and the other differs
  bool operator==(const NumericsOutput&) const = default;
};

struct NumericsSkipped {
  OpId op = 0;
  std::string reason;  // why the evaluator could not run it; its output was fresh seeded data in both runs
  bool operator==(const NumericsSkipped&) const = default;
};

struct NumericsReport {
  bool present = false;                 // numerics was on
  bool evaluated = false;               // the evaluator ran (outputs and skipped are its answer)
  std::int64_t parity_cost_bytes = 0;   // eager parity: bytes_fused minus the same plan's bytes without parity
  std::vector<NumericsOutput> outputs;  // per graph output (no consumers or "output": true), ascending op id
  std::vector<NumericsSkipped> skipped; // ascending op id
  bool operator==(const NumericsReport&) const = default;
};

// Runs the graph unfused and as the plan fuses it (core/src/numerics/evaluate.h). The graph validates and is
// bound; the plan is the planner's for it.
NumericsReport evaluate_numerics(const FusionGraph& graph, const FusionPlan& plan, const NumericsSettings& settings);

}  // namespace fusion
