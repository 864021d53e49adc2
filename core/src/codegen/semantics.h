// codegen/semantics.h — what each op computes in generated code (docs/design.md §19), in words both dialects
// share: index arithmetic, elementwise expressions, element storage, and safe comment text.
//
// Index rules: an elementwise op reads each input at its own output index, dimensions aligned from the right,
// each coordinate taken modulo the input's dimension (NumPy broadcasting when the shapes are compatible; a
// defined answer when they are not); missing leading dimensions read coordinate 0. A reduction's reduced axes
// come from its shapes: with equal ranks, the axes where the output is 1 and the input is not; with a lower
// output rank, the input axes left over when the output's dimensions are matched left to right (so [4, 3] ->
// [4] reduces the last axis); otherwise output element (flat input index mod output elements).
// Pure functions of shapes and kinds. Shown by tests/core/codegen.test.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fusion/codegen.h"
#include "fusion/graph.h"
#include "fusion/numerics.h"

namespace fusion::codegen {

struct Syntax {
  CodeDialect dialect = CodeDialect::c;
  bool wide = false;  // C arithmetic in double (f64, integer and bool ops) rather than float
  const char* div() const { return dialect == CodeDialect::c ? " / " : " // "; }
  const char* comment() const { return dialect == CodeDialect::c ? "// " : "# "; }
  // A C float literal or libm function in this arithmetic: literal("1.0") is "1.0f" in float, "1.0" in double
  // and Triton; function("expf") is "exp" in double.
  std::string literal(const std::string& text) const {
    return dialect == CodeDialect::c && !wide ? text + "f" : text;
  }
  std::string function(const std::string& float_name) const {
    return wide ? float_name.substr(0, float_name.size() - 1) : float_name;
  }
};

// How a C kernel holds and computes an op's values (docs/design.md §19 "Registers"), as the numerics evaluator
// does (§18): in its compute type. f32, f16, bf16 and f8 compute in float; f64 in double; an integer or bool op
// computes its expression in double and rounds the result to its type (truncate toward zero, saturate, NaN
// gives 0; bool x != 0) with `cv_T`, into a register of its own C type. Scratch holds `arith()` values.
struct CValue {
  NumericType compute = NumericType::f32;
  std::string reg = "float";  // the register's C type: float, double, int32_t, ..., uint8_t for bool
  bool wide = false;          // arithmetic (and scratch) in double
  std::string arith() const { return wide ? "double" : "float"; }
  bool rounds() const { return !is_float(compute); }  // integers and bool: cv_T after every result
  std::string round_fn() const { return "cv_" + std::string(to_string(compute)); }
};
CValue c_value(const FusionOp& op);
std::string register_type(NumericType compute);  // the C type of a register of this compute type

// The flat index into a tensor of shape `from` read at flat index `i` of a loop over `loop` (broadcast rule
// above). "0" for a one-element tensor, `i` for the same shape. Precondition: `from` has elements.
// `inner` > 0: the loop runs as `o` over rows of `inner` elements and `j` within a row (i = o * inner + j), and
// indexes that are just the row or the column are written `o` or `j`.
std::string broadcast_index(const Shape& from, const Shape& loop, const std::string& i, Syntax syntax,
                            std::uint64_t inner = 0);

// The flat output index of a reduction from `in` to `out` for flat input index `i` (rule above).
// Precondition: `out` has elements.
std::string reduce_index(const Shape& in, const Shape& out, const std::string& i, Syntax syntax,
                         std::uint64_t inner = 0);

// The value of an elementwise op from its operands' values (expressions in the syntax's arithmetic: float, or
// double when `wide`; Triton's are f32), as the reference evaluator computes it (numerics/elementwise.h): relu,
// max, min and clamp keep a NaN in C; clamp with one input is [0, 6], with two a lower bound only; batch_norm with
// all five inputs is (x - mean) / sqrt(var + 1e-5) * scale + bias, with fewer it passes x through. Extra operands
// are ignored, missing ones are 0.
std::string elementwise_expr(OpKind kind, const std::vector<std::string>& operands, Syntax syntax);

// Element storage (docs/design.md §19 "Storage"): the op's element type as fusion/numerics.h defines it
// (numeric_type), held in its own C type (f16, bf16 and f8 as their bits), or, when dtype_bytes is larger than
// the type, in a struct of dtype_bytes bytes carrying it. The C text of the helpers is codegen/storage_c.h.
struct Storage {
  NumericType type = NumericType::f32;
  std::int64_t bytes = 4;  // sizeof the C type: max(dtype_bytes, the type's size)
  std::string name;        // the helpers' suffix: "f16", or "f32_16" for a 16-byte struct carrying f32
  std::string c_type;      // "uint16_t", "float", "e_f32_16"
};
Storage storage_of(const FusionOp& op);
std::int64_t type_bytes(NumericType type);          // 1, 2, 4 or 8
std::string load_fn(const FusionOp& op);            // C function element -> float, e.g. "ld_f16"
std::string store_fn(const FusionOp& op);           // C function float -> element, e.g. "st_f16"
std::string triton_dtype(const FusionOp& op);       // "tl.float16", "tl.bfloat16", "tl.float8e4nv", ...

// "op 3 'y' add [4, 3] f32" with the name reduced to [A-Za-z0-9_.:-] (other bytes become '?', at most 40
// kept): safe inside a comment of either dialect.
std::string describe(const FusionGraph& g, OpId x);
std::string safe_text(const std::string& text);

// An identifier: a one-letter prefix and an id, e.g. ident('t', 3) == "t3".
std::string ident(char prefix, std::int64_t id);

// Decimal text of a count, e.g. "3145728".
std::string num(std::uint64_t value);

}  // namespace fusion::codegen
