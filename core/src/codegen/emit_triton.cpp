// codegen/emit_triton.cpp — Triton-style kernels (codegen/emit_triton.h).
#include "codegen/emit_triton.h"

#include <algorithm>

#include "codegen/kernel_writer.h"
#include "codegen/semantics.h"
#include "fusion/strategy.h"

namespace fusion::codegen {
namespace {

constexpr Syntax kPy{CodeDialect::triton};

class TritonWriter : KernelWriterBase {
 public:
  TritonWriter(const GraphFacts& f, const Kernel& k) : KernelWriterBase(f, k, 4, "#") {}

  std::string run() {
    header();
    if (k_.fill) {
      for (OpId x : k_.outputs)
        line("# the driver fills " + describe(g_, x) + " with seeded data", store_comment(x));
      if (k_.outputs.empty()) line("pass");
      return out_;
    }
    const bool single = k_.stages.size() == 1 && k_.stages.front().kind == StageKind::loop;
    for (const Stage& s : k_.stages) s.kind == StageKind::loop ? loop_stage(s, single) : barrier_stage(s.ops.front());
    return out_;
  }

 private:
  void header() {
    std::string params;
    for (OpId x : k_.inputs) params += buffer(x) + ", ";
    for (OpId x : k_.outputs) params += buffer(x) + ", ";
    out_ += "# " + title() + "\n";
    out_ += "@triton.jit\ndef " + k_.name + "(" + params + "ws, BLOCK: tl.constexpr):\n";
    for (std::size_t i = 0; i < k_.members.size(); ++i)
      if (k_.in_scratch[i])
        line(scratch(k_.members[i]) + " = ws + " + num(k_.scratch_at[i]), "scratch (on chip) for " + describe(g_, k_.members[i]));
  }

  std::string load_expr(OpId x, const std::string& idx, const std::string& mask) {
    return "tl.load(" + buffer(x) + " + " + idx + ", mask=" + mask + ").to(tl.float32)";
  }

  void loop_stage(const Stage& s, bool single) {
    const std::uint64_t n = shape_elements(s.shape).value_or(0);
    line("# loop over " + shape_to_string(s.shape) + ": " + num(n) + " elements");
    for (OpId r : s.ops)
      if (is_reduction_kind(g_.op(r).kind))
        line("# " + describe(g_, r) + ": " + scratch(r) + " starts at its identity, accumulated atomically");
    if (single) {
      line("i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)");
    } else {
      line("for start in range(0, " + num(n) + ", BLOCK):");
      ++depth_;
      line("i = start + tl.arange(0, BLOCK)");
    }
    line("mask = i < " + num(n));
    std::vector<OpId> loaded;
    for (OpId x : s.ops) {
      const FusionOp& op = g_.op(x);
      std::vector<std::string> operands;
      for (OpId p : op.inputs) {
        const std::int64_t m = member(p);
        if (m >= 0 && &k_.stages[static_cast<std::size_t>(k_.stage_of[static_cast<std::size_t>(m)])] == &s &&
            is_fusible(g_.op(p).kind)) {
          operands.push_back(ident('v', p));
        } else if (m >= 0) {
          operands.push_back(elements(p) == 0 ? "0.0"
                                              : "tl.load(" + scratch(p) + " + " +
                                                    broadcast_index(g_.op(p).shape, s.shape, "i", kPy) + ", mask=mask)");
        } else {
          if (std::find(loaded.begin(), loaded.end(), p) == loaded.end()) {
            loaded.push_back(p);
            const std::string idx = elements(p) == 0 ? "0" : broadcast_index(g_.op(p).shape, s.shape, "i", kPy);
            line(ident('x', p) + " = " + (elements(p) == 0 ? std::string("0.0") : load_expr(p, idx, "mask")),
                 load_comment(p));
          }
          operands.push_back(ident('x', p));
        }
      }
      if (is_reduction_kind(op.kind)) {
        const char* atomic = op.kind == OpKind::reduce_max ? "tl.atomic_max" : op.kind == OpKind::reduce_min ? "tl.atomic_min"
                             : op.kind == OpKind::reduce_prod ? "atomic_mul" : "tl.atomic_add";
        if (elements(x) > 0)
          line(std::string(atomic) + "(" + scratch(x) + " + " + reduce_index(s.shape, op.shape, "i", kPy) + ", " +
                   operands.front() + ", mask=mask)",
               describe(g_, x));
        continue;
      }
      const std::string v = ident('v', x);
      line(v + " = " + elementwise_expr(op.kind, operands, kPy), describe(g_, x));
      if (k_.in_scratch[static_cast<std::size_t>(member(x))])
        line("tl.store(" + scratch(x) + " + i, " + v + ", mask=mask)", "keep on chip (scratch, 0 B in the model)");
      if (k_.is_output(x))
        line("tl.store(" + buffer(x) + " + i, " + v + ".to(" + triton_dtype(op) + "), mask=mask)", store_comment(x));
    }
    if (!single) --depth_;
    for (OpId r : s.ops)
      if (is_reduction_kind(g_.op(r).kind)) {
        if (g_.op(r).kind == OpKind::reduce_mean) line("# " + scratch(r) + " /= its count (mean)");
        store_scratch(r);
      }
  }

  void store_scratch(OpId x) {
    if (!k_.is_output(x)) return;
    line("for start in range(0, " + num(elements(x)) + ", BLOCK):");
    ++depth_;
    line("j = start + tl.arange(0, BLOCK)");
    line("tl.store(" + buffer(x) + " + j, tl.load(" + scratch(x) + " + j, mask=j < " + num(elements(x)) + ").to(" +
             triton_dtype(g_.op(x)) + "), mask=j < " + num(elements(x)) + ")",
         store_comment(x));
    --depth_;
  }

  std::string operand(OpId p) {
    if (member(p) >= 0) return scratch(p);
    return buffer(p);
  }

  void barrier_stage(OpId b) {
    const FusionOp& op = g_.op(b);
    line("# " + describe(g_, b));
    if (op.kind == OpKind::matmul && op.inputs.size() >= 2 && elements(b) > 0) {
      const Shape& so = op.shape;
      const std::string M = so.size() >= 2 ? num(static_cast<std::uint64_t>(so[so.size() - 2])) : "1";
      const std::string N = so.empty() ? "1" : num(static_cast<std::uint64_t>(so.back()));
      const Shape& sa = g_.op(op.inputs[0]).shape;
      const std::string K = sa.empty() ? "1" : num(static_cast<std::uint64_t>(sa.back()));
      line("for m0 in range(0, " + M + ", BLOCK_M):");
      ++depth_;
      line("for n0 in range(0, " + N + ", BLOCK_N):");
      ++depth_;
      line("rm, rn = m0 + tl.arange(0, BLOCK_M), n0 + tl.arange(0, BLOCK_N)");
      line("acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)");
      line("for k0 in range(0, " + K + ", BLOCK_K):");
      ++depth_;
      line("rk = k0 + tl.arange(0, BLOCK_K)");
      line("a = tl.load(" + operand(op.inputs[0]) + " + rm[:, None] * " + K + " + rk[None, :], mask=(rm[:, None] < " + M +
               ") & (rk[None, :] < " + K + "))",
           member(op.inputs[0]) >= 0 ? "scratch (on chip)" : load_comment(op.inputs[0]));
      line("b = tl.load(" + operand(op.inputs[1]) + " + rk[:, None] * " + N + " + rn[None, :], mask=(rk[:, None] < " + K +
               ") & (rn[None, :] < " + N + "))",
           member(op.inputs[1]) >= 0 ? "scratch (on chip)" : load_comment(op.inputs[1]));
      line("acc += tl.dot(a, b)");
      --depth_;
      for (std::size_t k = 2; k < op.inputs.size(); ++k)
        line("acc += tl.load(" + operand(op.inputs[k]) + " + rn[None, :])",
             member(op.inputs[k]) >= 0 ? "scratch (on chip)" : load_comment(op.inputs[k]));
      line("tl.store(" + scratch(b) + " + rm[:, None] * " + N + " + rn[None, :], acc, mask=(rm[:, None] < " + M +
               ") & (rn[None, :] < " + N + "))",
           "scratch (on chip)");
      depth_ -= 2;
    } else {
      std::string call = "_";  // appended piece by piece: gcc 12 misreads the one-expression form (-Wrestrict)
      call.append(to_string(op.kind)).append("(").append(scratch(b)).append(",  # into scratch (on chip), ");
      line(call + shape_to_string(op.shape));
      ++depth_;
      for (OpId p : op.inputs) line(operand(p) + ",", member(p) >= 0 ? "scratch (on chip): " + describe(g_, p) : load_comment(p));
      line("BLOCK)");
      --depth_;
    }
    store_scratch(b);
  }
};

}  // namespace

std::string emit_triton_kernel(const GraphFacts& f, const Kernel& k) { return TritonWriter(f, k).run(); }

std::string emit_triton_program(const GraphFacts& f, const FusionPlan& plan) {
  std::string out =
      "# Generated by fusion-plan --emit triton (docs/design.md §19): Triton-style kernels for reading, one per group.\n"
      "# Pointers t<id> are tensors in memory, w<id> scratch that stays on chip; values are f32 in registers.\n"
      "import triton\nimport triton.language as tl\n\n";
  const std::vector<bool> read = read_from_memory(f, plan);
  for (std::size_t i = 0; i < plan.groups.size(); ++i)
    out += emit_triton_kernel(f, group_kernel(f, plan, static_cast<std::int32_t>(i), read)) + "\n";
  return out;
}

}  // namespace fusion::codegen
