// codegen/emit_c_kernel.cpp — one kernel as a C function (codegen/emit_c.h): loop stages, reductions, and the
// barrier kinds (matmul, conv, row ops, movement, pools, the stand-in).
#include <algorithm>

#include "codegen/emit_c.h"
#include "codegen/kernel_writer.h"
#include "codegen/semantics.h"
#include "fusion/strategy.h"

namespace fusion::codegen {
namespace {

constexpr Syntax kC{CodeDialect::c};

class KernelWriter : KernelWriterBase {
 public:
  KernelWriter(const GraphFacts& f, const Kernel& k, const std::string& prefix)
      : KernelWriterBase(f, k, 2, "//"), prefix_(prefix) {}

  std::string run() {
    header();
    if (k_.fill) fill_body();
    else
      for (const Stage& s : k_.stages) s.kind == StageKind::loop ? loop_stage(s) : barrier_stage(s.ops.front());
    out_ += "}\n";
    return out_;
  }

 private:
  std::string prefix_;  // before the kernel's name and the program's seed (CodegenOptions::prefix)
  // The arithmetic of the barrier being written (float or double; codegen/semantics.h CValue).
  CValue a_;
  Syntax syn_ = kC;

  void open(const std::string& code) {
    line(code + " {");
    ++depth_;
  }
  void close() {
    --depth_;
    line("}");
  }
  void loop(const std::string& var, std::uint64_t n) {
    open("for (int64_t " + var + " = 0; " + var + " < " + num(n) + "; ++" + var + ")");
  }

  // A literal or a math function of the current arithmetic: "1.0f" / "1.0", "expf" / "exp".
  std::string lit(const std::string& text) const { return syn_.literal(text); }
  std::string fn(const std::string& name) const { return syn_.function(name); }

  // Value of operand x (a member in scratch, or an input in memory) at flat index idx, on its own line, as a
  // `type` variable (C converts).
  void read_into(const std::string& var, OpId x, const std::string& idx, const std::string& type) {
    if (member(x) >= 0) {
      line("const " + type + " " + var + " = " + scratch(x) + "[" + idx + "];", "scratch (on chip): " + describe(g_, x));
      return;
    }
    if (elements(x) == 0) {
      line("const " + type + " " + var + " = 0;", load_comment(x) + " (no elements)");
      return;
    }
    line("const " + type + " " + var + " = " + load_fn(g_.op(x)) + "(" + buffer(x) + "[" + idx + "]);",
         load_comment(x));
  }
  void read_into(const std::string& var, OpId x, const std::string& idx) { read_into(var, x, idx, a_.arith()); }

  void header() {
    std::string params;
    auto add = [&](const std::string& p) { params += (params.empty() ? "" : ", ") + p; };
    for (OpId x : k_.inputs) add("const " + storage_of(g_.op(x)).c_type + " *restrict " + buffer(x));
    for (OpId x : k_.outputs) add(storage_of(g_.op(x)).c_type + " *restrict " + buffer(x));
    add("float *restrict ws");
    out_ += "// " + title() + "\n";
    out_ += "static void " + prefix_ + k_.name + "(" + params + ") {\n";
    line("(void)ws;");
    for (std::size_t i = 0; i < k_.members.size(); ++i) {
      if (!k_.in_scratch[i]) continue;
      const OpId x = k_.members[i];
      const std::string type = c_value(g_.op(x)).arith(), at = "ws + " + num(k_.scratch_at[i]);
      line(type + " *restrict " + scratch(x) + " = " + (type == "float" ? at : "(" + type + " *)(" + at + ")") + ";",
           "scratch for " + describe(g_, x));
    }
  }

  void fill_body() {
    for (OpId x : k_.members) {
      if (!k_.is_output(x)) continue;
      line("fill_" + storage_of(g_.op(x)).name + "(" + buffer(x) + ", " + num(elements(x)) + ", " + prefix_ +
               "seed + " + std::to_string(x) + ");",
           store_comment(x));
    }
  }

  // ---- loop stages ----

  struct LoopState {
    const Stage* stage;
    std::uint64_t inner;       // row length when the loop is nested (o, j), else 0
    std::vector<OpId> loaded;  // inputs loaded in this loop iteration
  };

  // A loop over a shape of two or more dimensions runs as rows (o) of its last dimension (j): the common
  // broadcasts then index by o or j, which compilers vectorise, instead of a division per element.
  static std::uint64_t row_length(const Shape& s) {
    if (s.size() < 2 || s.back() <= 1) return 0;
    const std::uint64_t n = shape_elements(s).value_or(0);
    return n > static_cast<std::uint64_t>(s.back()) ? static_cast<std::uint64_t>(s.back()) : 0;
  }

  // Operand p of a loop member as a value of the member's arithmetic type `to` ("float" or "double"): a register
  // of this loop, a member in scratch, or an input loaded once per iteration in its own register type.
  std::string operand_in_loop(LoopState& st, OpId p, const std::string& to) {
    const Shape& loop_shape = st.stage->shape;
    const CValue pv = c_value(g_.op(p));
    const std::int64_t i = member(p);
    if (i >= 0) {
      const auto ui = static_cast<std::size_t>(i);
      if (&k_.stages[static_cast<std::size_t>(k_.stage_of[ui])] == st.stage && is_fusible(g_.op(p).kind))
        return converted(ident('v', p), pv.reg, to);
      if (elements(p) == 0) return to == "float" ? "0.0f" : "0.0";
      return converted(scratch(p) + "[" + broadcast_index(g_.op(p).shape, loop_shape, "i", kC, st.inner) + "]",
                       pv.arith(), to);
    }
    if (std::find(st.loaded.begin(), st.loaded.end(), p) == st.loaded.end()) {
      st.loaded.push_back(p);
      read_into(ident('x', p), p,
                elements(p) == 0 ? "0" : broadcast_index(g_.op(p).shape, loop_shape, "i", kC, st.inner), pv.reg);
    }
    return converted(ident('x', p), pv.reg, to);
  }

  static std::string converted(const std::string& value, const std::string& from, const std::string& to) {
    return from == to ? value : "(" + to + ")" + value;
  }

  std::string reduction_init(OpKind kind) const {
    if (kind == OpKind::reduce_max) return "-INFINITY";
    if (kind == OpKind::reduce_min) return "INFINITY";
    return lit(kind == OpKind::reduce_prod ? "1.0" : "0.0");
  }

  void arithmetic_of(OpId x) {
    a_ = c_value(g_.op(x));
    syn_ = Syntax{CodeDialect::c, a_.wide};
  }

  void loop_stage(const Stage& s) {
    for (OpId r : s.ops)
      if (is_reduction_kind(g_.op(r).kind)) {
        arithmetic_of(r);
        line("// " + describe(g_, r) + ": accumulate over " + shape_to_string(s.shape));
        loop("j", elements(r));
        line(scratch(r) + "[j] = " + reduction_init(g_.op(r).kind) + ";");
        close();
      }
    const std::uint64_t n = shape_elements(s.shape).value_or(0), inner = row_length(s.shape);
    LoopState st{&s, inner, {}};
    if (inner > 0) {
      loop("o", n / inner);
      loop("j", inner);
      line("const int64_t i = o * " + num(inner) + " + j;");
    } else {
      loop("i", n);
    }
    for (OpId x : s.ops) {
      const FusionOp& op = g_.op(x);
      arithmetic_of(x);
      std::vector<std::string> operands;
      for (OpId p : op.inputs) operands.push_back(operand_in_loop(st, p, a_.arith()));
      if (is_reduction_kind(op.kind)) {
        accumulate(x, operands.front(), s.shape, inner);
        continue;
      }
      const std::string v = ident('v', x), value = elementwise_expr(op.kind, operands, syn_);
      line("const " + a_.reg + " " + v + " = " + (a_.rounds() ? a_.round_fn() + "(" + value + ")" : value) + ";",
           describe(g_, x));
      const auto i = static_cast<std::size_t>(member(x));
      if (k_.in_scratch[i]) line(scratch(x) + "[i] = " + v + ";", "keep on chip (scratch, 0 B in the model)");
      if (k_.is_output(x))
        line(buffer(x) + "[i] = " + store_fn(op) + "(" + v + ");", store_comment(x));
    }
    close();
    if (inner > 0) close();
    for (OpId r : s.ops)
      if (is_reduction_kind(g_.op(r).kind)) finish_reduction(r, s.shape);
  }

  void accumulate(OpId r, const std::string& value, const Shape& in, std::uint64_t inner) {
    const FusionOp& op = g_.op(r);
    if (elements(r) == 0) {
      line("// " + describe(g_, r) + " has no elements to accumulate into");
      return;
    }
    const std::string o = scratch(r) + "[" + reduce_index(in, op.shape, "i", kC, inner) + "]";
    std::string update;
    if (op.kind == OpKind::reduce_max) update = "(" + value + " > " + o + " ? " + value + " : " + o + ")";
    else if (op.kind == OpKind::reduce_min) update = "(" + value + " < " + o + " ? " + value + " : " + o + ")";
    else if (op.kind == OpKind::reduce_prod) update = o + " * " + value;
    else update = o + " + " + value;
    line(o + " = " + update + ";", describe(g_, r));
  }

  void finish_reduction(OpId r, const Shape& in) {
    arithmetic_of(r);
    const FusionOp& op = g_.op(r);
    const std::uint64_t n_in = shape_elements(in).value_or(0), n_out = elements(r);
    if (op.kind == OpKind::reduce_mean && n_out > 0) {
      const double count = static_cast<double>(n_in) / static_cast<double>(n_out);
      loop("j", n_out);
      line(scratch(r) + "[j] = " + scratch(r) + "[j] / " + real(count) + ";", "mean");
      close();
    }
    finish(r);
  }

  // A number as a literal of the current arithmetic.
  std::string real(double v) const {
    char buf[40];
    std::snprintf(buf, sizeof buf, a_.wide ? "%.17g" : "%.9g", v);
    std::string s = buf;
    if (s.find_first_of(".en") == std::string::npos) s += ".0";
    return lit(s);
  }

  // A result computed into scratch: rounded to its integer or bool type in place (the evaluator's rounding of
  // every result), then stored when it leaves the kernel.
  void finish(OpId x) {
    if (a_.rounds() && elements(x) > 0) {
      loop("j", elements(x));
      line(scratch(x) + "[j] = " + a_.round_fn() + "(" + scratch(x) + "[j]);", "rounded to " + std::string(to_string(a_.compute)));
      close();
    }
    store_scratch(x);
  }

  // A result in scratch that leaves the kernel: one store loop.
  void store_scratch(OpId x) {
    if (!k_.is_output(x)) return;
    loop("j", elements(x));
    const CValue v = c_value(g_.op(x));  // an integer's cv_T again: 2^63 in a double saturates to INT64_MAX
    const std::string value = scratch(x) + "[j]";
    line(buffer(x) + "[j] = " + store_fn(g_.op(x)) + "(" + (v.rounds() ? v.round_fn() + "(" + value + ")" : value) + ");",
         store_comment(x));
    close();
  }

  // ---- barrier stages ----

  void barrier_stage(OpId b) {
    const FusionOp& op = g_.op(b);
    arithmetic_of(b);
    line("// " + describe(g_, b));
    std::size_t used = 0;
    if (elements(b) > 0) used = barrier_main(b);
    for (std::size_t k = used; k < op.inputs.size() && elements(b) > 0; ++k) add_extra(b, op.inputs[k]);
    if (elements(b) == 0)
      for (OpId p : op.inputs)
        if (member(p) < 0) line("// reads nothing of " + describe(g_, p), load_comment(p) + " (no output elements)");
    finish(b);
  }

  // Computes the barrier's main result into scratch; returns how many leading operands it used.
  std::size_t barrier_main(OpId b) {
    const FusionOp& op = g_.op(b);
    switch (op.kind) {
      case OpKind::matmul: return matmul(b);
      case OpKind::conv: if (conv(b)) return op.inputs.size() > 2 ? 3 : 2; break;
      case OpKind::softmax: case OpKind::layer_norm: case OpKind::cumsum: {
        const std::size_t used = row_op(b);
        if (used > 0) return used;
        break;
      }
      case OpKind::transpose: return transpose(b);
      case OpKind::reshape: case OpKind::broadcast: case OpKind::slice: case OpKind::pad:
        return gather_like(b);
      case OpKind::concat: if (concat(b)) return op.inputs.size(); break;
      case OpKind::max_pool: case OpKind::avg_pool: if (pool(b)) return 1; break;
      default: break;
    }
    return stand_in(b);
  }

  // An operand the kind does not use: added at its broadcast index, so it is read.
  void add_extra(OpId b, OpId p) {
    if (elements(p) == 0) {
      if (member(p) < 0) line("// " + describe(g_, p) + " is empty", load_comment(p));
      return;
    }
    line("// an operand " + std::string(to_string(g_.op(b).kind)) + " does not use, added so it is read");
    loop("i", elements(b));
    read_into("e", p, broadcast_index(g_.op(p).shape, g_.op(b).shape, "i", kC));
    line(scratch(b) + "[i] += e;");
    close();
  }

  std::size_t stand_in(OpId b) {
    const FusionOp& op = g_.op(b);
    line("// stand-in for " + std::string(to_string(op.kind)) + ": the sum of its inputs, each at i mod its size");
    loop("i", elements(b));
    line(a_.arith() + " acc = " + lit("0.0") + ";");
    for (std::size_t k = 0; k < op.inputs.size(); ++k) {
      const OpId p = op.inputs[k];
      if (elements(p) == 0) {
        if (member(p) < 0) line("// " + describe(g_, p) + " is empty", load_comment(p));
        continue;
      }
      read_into(ident('a', k), p, "i % " + num(elements(p)));
      line("acc += a" + std::to_string(k) + ";");
    }
    line(scratch(b) + "[i] = acc;");
    close();
    return op.inputs.size();
  }

  // Dimension d from the right (1 when missing).
  static std::uint64_t dim_r(const Shape& s, std::size_t d) {
    return d < s.size() ? static_cast<std::uint64_t>(s[s.size() - 1 - d]) : 1;
  }

  std::size_t matmul(OpId b) {
    const FusionOp& op = g_.op(b);
    if (op.inputs.size() < 2) return stand_in(b);
    const OpId a = op.inputs[0], bm = op.inputs[1];
    const Shape &sa = g_.op(a).shape, &sb = g_.op(bm).shape;
    const std::uint64_t M = dim_r(op.shape, 1), N = dim_r(op.shape, 0), batch = elements(b) / (M * N);
    const std::uint64_t K = dim_r(sa, 0), MA = sa.size() >= 2 ? dim_r(sa, 1) : 1;
    const std::uint64_t KB = sb.size() >= 2 ? dim_r(sb, 1) : dim_r(sb, 0), NB = sb.size() >= 2 ? dim_r(sb, 0) : 1;
    if (K == 0 || MA == 0 || KB == 0 || NB == 0 || elements(a) == 0 || elements(bm) == 0) return stand_in(b);
    const std::uint64_t batch_a = elements(a) / (MA * K), batch_b = elements(bm) / (KB * NB);
    line("// naive matmul: [" + num(batch) + "] x [" + num(M) + ", " + num(K) + "] x [" + num(K) + ", " + num(N) +
         "], k ascending");
    loop("bm", batch * M);
    line("const int64_t bi = bm / " + num(M) + ", m = bm % " + num(M) + ";");
    line(a_.arith() + " *restrict row = " + scratch(b) + " + bm * " + num(N) + ";");
    loop("n", N);
    line("row[n] = " + lit("0.0") + ";");
    close();
    loop("k", K);
    // Batch and row terms, leaving out what is always 0 or needs no modulo.
    const auto term = [](const std::string& v, std::uint64_t mod, std::uint64_t range, std::uint64_t stride) {
      if (mod == 1) return std::string();
      const std::string c = range <= mod ? v : "(" + v + " % " + num(mod) + ")";
      return (stride == 1 ? c : c + " * " + num(stride)) + " + ";
    };
    read_into("av", a, term("bi", batch_a, batch, MA * K) + term("m", MA, M, K) + "k");
    line("const int64_t base = " + term("bi", batch_b, batch, KB * NB) + term("k", KB, K, NB) + "0;");
    loop("n", N);
    read_into("bv", bm, NB == N ? "base + n" : "base + n % " + num(NB));
    line("row[n] += av * bv;");
    close();
    close();
    close();
    return 2;
  }

  bool conv(OpId b) {
    const FusionOp& op = g_.op(b);
    if (op.inputs.size() < 2) return false;
    const OpId x = op.inputs[0], w = op.inputs[1];
    const Shape &sx = g_.op(x).shape, &sw = g_.op(w).shape, &so = op.shape;
    if (sx.size() != 4 || sw.size() != 4 || so.size() != 4 || elements(x) == 0 || elements(w) == 0) return false;
    const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
    const std::uint64_t N = u(sx[0]), C = u(sx[1]), H = u(sx[2]), W = u(sx[3]);
    const std::uint64_t O = u(so[1]), OH = u(so[2]), OW = u(so[3]), CG = u(sw[1]), KH = u(sw[2]), KW = u(sw[3]);
    const std::uint64_t WO = u(sw[0]);
    const std::uint64_t SH = std::max<std::uint64_t>(1, H / OH), SW = std::max<std::uint64_t>(1, W / OW);
    const auto pad = [](std::uint64_t out, std::uint64_t s, std::uint64_t k, std::uint64_t in) -> std::int64_t {
      const std::int64_t p = (static_cast<std::int64_t>((out - 1) * s + k) - static_cast<std::int64_t>(in) + 1) / 2;
      return std::max<std::int64_t>(0, p);
    };
    const std::int64_t PH = pad(OH, SH, KH, H), PW = pad(OW, SW, KW, W);
    std::uint64_t G = (CG > 0 && C % CG == 0) ? C / CG : 1;
    if (G == 0 || O % G != 0) G = 1;
    const std::uint64_t per_group = O / G;
    line("// naive conv: stride " + num(SH) + "x" + num(SW) + ", padding " + std::to_string(PH) + "x" +
         std::to_string(PW) + ", " + num(G) + (G == 1 ? " group" : " groups") + " (inferred from the shapes)");
    loop("q", elements(b));
    line("const int64_t ow = q % " + num(OW) + ", oh = (q / " + num(OW) + ") % " + num(OH) + ", o = (q / " +
         num(OW * OH) + ") % " + num(O) + ", nb = q / " + num(OW * OH * O) + ";");
    line("const int64_t cbase = (o / " + num(per_group) + ") * " + num(CG) + ";");
    line(a_.arith() + " acc = " + lit("0.0") + ";");
    loop("c", CG);
    loop("r", KH);
    line("const int64_t ih = oh * " + num(SH) + " - " + std::to_string(PH) + " + r;");
    line("if (ih < 0 || ih >= " + num(H) + ") continue;");
    loop("s", KW);
    line("const int64_t iw = ow * " + num(SW) + " - " + std::to_string(PW) + " + s;");
    line("if (iw < 0 || iw >= " + num(W) + ") continue;");
    read_into("xv", x, "(((nb % " + num(N) + ") * " + num(C) + " + (cbase + c) % " + num(C) + ") * " + num(H) +
                           " + ih) * " + num(W) + " + iw");
    read_into("wv", w, "(((o % " + num(WO) + ") * " + num(CG) + " + c) * " + num(KH) + " + r) * " + num(KW) + " + s");
    line("acc += xv * wv;");
    close();
    close();
    close();
    if (op.inputs.size() > 2 && elements(op.inputs[2]) > 0) {
      read_into("bias", op.inputs[2], "o % " + num(elements(op.inputs[2])));
      line("acc += bias;");
    } else if (op.inputs.size() > 2 && member(op.inputs[2]) < 0) {
      line("// " + describe(g_, op.inputs[2]) + " is empty", load_comment(op.inputs[2]));
    }
    line(scratch(b) + "[q] = acc;");
    close();
    return true;
  }

  // softmax, layer_norm, cumsum along the last axis; 0 when the shapes do not fit that reading.
  std::size_t row_op(OpId b) {
    const FusionOp& op = g_.op(b);
    if (op.inputs.empty() || op.shape.empty() || elements(op.inputs[0]) != elements(b)) return 0;
    const OpId x = op.inputs[0];
    const std::uint64_t L = static_cast<std::uint64_t>(op.shape.back()), rows = elements(b) / L;
    const std::string w = scratch(b);
    line("// " + std::string(to_string(op.kind)) + " along the last axis: " + num(rows) + " rows of " + num(L));
    loop("r", rows);
    line(a_.arith() + " *restrict row = " + w + " + r * " + num(L) + ";");
    if (op.kind == OpKind::cumsum) {
      line(a_.arith() + " run = " + lit("0.0") + ";");
      loop("l", L);
      read_into("xv", x, "r * " + num(L) + " + l");
      line("run += xv;");
      line("row[l] = run;");
      close();
      close();
      return 1;
    }
    if (op.kind == OpKind::softmax) {
      line(a_.arith() + " top = -INFINITY, sum = " + lit("0.0") + ";");
      loop("l", L);
      read_into("xv", x, "r * " + num(L) + " + l");
      line("row[l] = xv;");
      line("top = xv > top ? xv : top;");
      close();
      loop("l", L);
      line("row[l] = " + fn("expf") + "(row[l] - top);");
      line("sum += row[l];");
      close();
      loop("l", L);
      line("row[l] = row[l] / sum;");
      close();
      close();
      return 1;
    }
    line(a_.arith() + " mean = " + lit("0.0") + ", var = " + lit("0.0") + ";");
    loop("l", L);
    read_into("xv", x, "r * " + num(L) + " + l");
    line("row[l] = xv;");
    line("mean += xv;");
    close();
    line("mean = mean / " + real(static_cast<double>(L)) + ";");
    loop("l", L);
    line("var += (row[l] - mean) * (row[l] - mean);");
    close();
    line("const " + a_.arith() + " inv = " + lit("1.0") + " / " + fn("sqrtf") + "(var / " + real(static_cast<double>(L)) + " + " + lit("1e-5") + ");");
    loop("l", L);
    std::string value = "(row[l] - mean) * inv";
    for (std::size_t k = 1; k < std::min<std::size_t>(3, op.inputs.size()); ++k) {
      const OpId p = op.inputs[k];
      if (elements(p) == 0) {
        if (member(p) < 0) line("// " + describe(g_, p) + " is empty", load_comment(p));
        continue;
      }
      read_into(k == 1 ? "scale" : "shift", p, "l % " + num(elements(p)));
      value = k == 1 ? "(" + value + ") * scale" : value + " + shift";
    }
    line("row[l] = " + value + ";");
    close();
    close();
    return std::min<std::size_t>(3, op.inputs.size());
  }

  std::size_t transpose(OpId b) {
    const FusionOp& op = g_.op(b);
    if (op.inputs.empty() || elements(op.inputs[0]) == 0) return stand_in(b);
    const OpId x = op.inputs[0];
    const Shape &in = g_.op(x).shape, &out = op.shape;
    // perm[d]: the input axis output axis d reads; the last two swapped when that fits, else matched by size.
    std::vector<std::int64_t> perm(out.size(), -1);
    bool ok = in.size() == out.size();
    if (ok && in.size() >= 2 && in[in.size() - 1] == out[out.size() - 2] && in[in.size() - 2] == out[out.size() - 1]) {
      for (std::size_t d = 0; d < out.size(); ++d) perm[d] = static_cast<std::int64_t>(d);
      std::swap(perm[out.size() - 1], perm[out.size() - 2]);
      for (std::size_t d = 0; d + 2 < out.size(); ++d) ok = ok && in[d] == out[d];
    } else if (ok) {
      std::vector<bool> used(in.size(), false);
      for (std::size_t d = 0; d < out.size() && ok; ++d) {
        for (std::size_t e = 0; e < in.size() && perm[d] < 0; ++e)
          if (!used[e] && in[e] == out[d]) {
            used[e] = true;
            perm[d] = static_cast<std::int64_t>(e);
          }
        ok = perm[d] >= 0;
      }
    }
    if (!ok) return gather_like(b);
    std::vector<std::string> terms;
    for (std::size_t d = 0; d < out.size(); ++d) {
      const auto e = static_cast<std::size_t>(perm[d]);
      std::uint64_t in_stride = 1, out_stride = 1;
      for (std::size_t j = e + 1; j < in.size(); ++j) in_stride *= static_cast<std::uint64_t>(in[j]);
      for (std::size_t j = d + 1; j < out.size(); ++j) out_stride *= static_cast<std::uint64_t>(out[j]);
      if (out[d] == 1) continue;
      std::string c = out_stride == 1 ? "i" : "(i / " + num(out_stride) + ")";
      if (d > 0) c = "(" + c + " % " + num(static_cast<std::uint64_t>(out[d])) + ")";
      terms.push_back(in_stride == 1 ? c : c + " * " + num(in_stride));
    }
    std::string idx;
    for (const std::string& t : terms) idx += (idx.empty() ? "" : " + ") + t;
    line("// transpose: output axis d reads input axis (" + perm_text(perm) + ")[d]");
    loop("i", elements(b));
    read_into("xv", x, idx.empty() ? "0" : idx);
    line(scratch(b) + "[i] = xv;");
    close();
    return 1;
  }

  static std::string perm_text(const std::vector<std::int64_t>& perm) {
    std::string s;
    for (std::int64_t p : perm) s += (s.empty() ? "" : ", ") + std::to_string(p);
    return s;
  }

  // reshape (flat order), broadcast, slice and pad (the broadcast rule: each coordinate modulo the input's).
  std::size_t gather_like(OpId b) {
    const FusionOp& op = g_.op(b);
    if (op.inputs.empty() || elements(op.inputs[0]) == 0) return stand_in(b);
    const OpId x = op.inputs[0];
    const bool flat = op.kind == OpKind::reshape || op.kind == OpKind::transpose;
    line(flat ? "// reshape: the same elements in flat order (mod the input's size)"
              : "// " + std::string(to_string(op.kind)) + ": each coordinate modulo the input's dimension");
    loop("i", elements(b));
    read_into("xv", x, flat ? "i % " + num(elements(x)) : broadcast_index(g_.op(x).shape, op.shape, "i", kC));
    line(scratch(b) + "[i] = xv;");
    close();
    return 1;
  }

  bool concat(OpId b) {
    const FusionOp& op = g_.op(b);
    const Shape& out = op.shape;
    if (op.inputs.empty()) return false;
    std::size_t axis = 0;
    const Shape& first = g_.op(op.inputs[0]).shape;
    if (first.size() != out.size()) return false;
    while (axis < out.size() && first[axis] == out[axis]) ++axis;
    if (axis == out.size()) axis = 0;
    std::uint64_t outer = 1, inner_out = 1, inner_sum = 0;
    for (std::size_t d = 0; d < axis; ++d) outer *= static_cast<std::uint64_t>(out[d]);
    for (std::size_t d = axis; d < out.size(); ++d) inner_out *= static_cast<std::uint64_t>(out[d]);
    std::vector<std::uint64_t> inner;
    for (OpId p : op.inputs) {
      const Shape& s = g_.op(p).shape;
      if (s.size() != out.size()) return false;
      std::uint64_t o = 1, i = 1;
      for (std::size_t d = 0; d < axis; ++d) o *= static_cast<std::uint64_t>(s[d]);
      for (std::size_t d = axis; d < s.size(); ++d) i *= static_cast<std::uint64_t>(s[d]);
      if (o != outer) return false;
      inner.push_back(i);
      inner_sum += i;
    }
    if (inner_sum != inner_out) return false;
    line("// concat along axis " + std::to_string(axis));
    loop("r", outer);
    std::uint64_t offset = 0;
    for (std::size_t k = 0; k < op.inputs.size(); ++k) {
      const OpId p = op.inputs[k];
      if (inner[k] == 0) {
        if (member(p) < 0) line("// " + describe(g_, p) + " is empty", load_comment(p));
        continue;
      }
      loop("j", inner[k]);
      read_into("xv", p, "r * " + num(inner[k]) + " + j");
      line(scratch(b) + "[r * " + num(inner_out) + " + " + num(offset) + " + j] = xv;");
      close();
      offset += inner[k];
    }
    close();
    return true;
  }

  bool pool(OpId b) {
    const FusionOp& op = g_.op(b);
    if (op.inputs.empty()) return false;
    const OpId x = op.inputs[0];
    const Shape &in = g_.op(x).shape, &out = op.shape;
    if (in.size() != 4 || out.size() != 4 || elements(x) == 0 || in[0] != out[0] || in[1] != out[1]) return false;
    const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
    const std::uint64_t H = u(in[2]), W = u(in[3]), OH = u(out[2]), OW = u(out[3]);
    const std::uint64_t SH = std::max<std::uint64_t>(1, H / OH), SW = std::max<std::uint64_t>(1, W / OW);
    const bool is_max = op.kind == OpKind::max_pool;
    line("// " + std::string(to_string(op.kind)) + ": " + num(SH) + "x" + num(SW) + " windows, stride = window");
    loop("q", elements(b));
    line("const int64_t ow = q % " + num(OW) + ", oh = (q / " + num(OW) + ") % " + num(OH) + ", nc = q / " +
         num(OW * OH) + ";");
    line(a_.arith() + " acc = " + (is_max ? std::string("-INFINITY") : lit("0.0")) + ";");
    loop("r", SH);
    loop("s", SW);
    line("const int64_t ih = (oh * " + num(SH) + " + r) % " + num(H) + ", iw = (ow * " + num(SW) + " + s) % " + num(W) + ";");
    read_into("xv", x, "(nc * " + num(H) + " + ih) * " + num(W) + " + iw");
    line(is_max ? "acc = xv > acc ? xv : acc;" : "acc += xv;");
    close();
    close();
    line(scratch(b) + "[q] = " + (is_max ? std::string("acc") : "acc / " + real(static_cast<double>(SH * SW))) + ";");
    close();
    return true;
  }
};

}  // namespace

std::string emit_c_kernel(const GraphFacts& facts, const Kernel& kernel, const std::string& prefix) {
  return KernelWriter(facts, kernel, prefix).run();
}

}  // namespace fusion::codegen
