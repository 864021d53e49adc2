// numerics/evaluate.cpp — the two runs of evaluate.h and their comparison.
#include "numerics/evaluate.h"

#include <cmath>
#include <memory>

#include "detail/topology.h"
#include "numerics/elementwise.h"
#include "numerics/notes.h"
#include "numerics/program.h"

namespace fusion {
namespace {

using numerics::Form;
using numerics::Program;
using numerics::Walker;
using Values = std::shared_ptr<const std::vector<double>>;

constexpr std::int64_t kMatmulWorkPerElement = 256;  // multiply-adds per matmul and run: 256 x max_elements
constexpr int kLanes = 32;                                   // the fused reduction order's lanes
constexpr std::int64_t kSourceFactor = 16;                   // sources: up to 16 x max_elements elements

struct Slot {
  Values stored;  // rounded to the op's type
  Values reg;     // as its compute type holds it (the fused run's in-group readers); null: the same as stored
};

std::uint64_t next_random(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Sums, products and extremes in the compute type T, in order or in lanes.
template <typename T>
T sum_of(const std::vector<double>& v, bool lanes) {
  if (!lanes) {
    T acc = 0;
    for (double x : v) acc += static_cast<T>(x);
    return acc;
  }
  T lane[kLanes] = {};
  for (std::size_t k = 0; k < v.size(); ++k) lane[k % kLanes] += static_cast<T>(v[k]);
  for (int width = kLanes / 2; width > 0; width /= 2)
    for (int j = 0; j < width; ++j) lane[j] += lane[j + width];
  return lane[0];
}

template <typename T>
T product_of(const std::vector<double>& v, bool lanes) {
  if (!lanes) {
    T acc = 1;
    for (double x : v) acc *= static_cast<T>(x);
    return acc;
  }
  T lane[kLanes];
  for (T& l : lane) l = 1;
  for (std::size_t k = 0; k < v.size(); ++k) lane[k % kLanes] *= static_cast<T>(v[k]);
  for (int width = kLanes / 2; width > 0; width /= 2)
    for (int j = 0; j < width; ++j) lane[j] *= lane[j + width];
  return lane[0];
}

double extreme_of(const std::vector<double>& v, bool largest) {
  double acc = largest ? -HUGE_VAL : HUGE_VAL;
  for (double x : v) {
    if (std::isnan(x)) return x;
    acc = largest ? std::max(acc, x) : std::min(acc, x);
  }
  return acc;
}

class Evaluator {
 public:
  Evaluator(const FusionGraph& g, const FusionPlan& plan, const NumericsSettings& s)
      : g_(g), plan_(plan), s_(s), n_(g.size()), programs_(n_), contracted_(n_, -1), lanes_(n_, false),
        unfused_(n_), fused_(n_), remaining_(n_, 0), is_output_(n_, false) {}

  NumericsReport run() {
    prepare();
    const detail::Consumers consumers = detail::build_consumers(g_);
    const std::optional<std::vector<OpId>> order = detail::topological_order(g_, consumers);
    NumericsReport report;
    report.present = report.evaluated = true;
    if (!order) return report;
    for (OpId x : *order) {
      evaluate(x, report);
      if (is_output_[x]) report.outputs.push_back(compare(x));
      if (remaining_[x] == 0) unfused_[x] = {}, fused_[x] = {};
      release_inputs(x);
    }
    std::sort(report.outputs.begin(), report.outputs.end(), [](const auto& a, const auto& b) { return a.op < b.op; });
    std::sort(report.skipped.begin(), report.skipped.end(), [](const auto& a, const auto& b) { return a.op < b.op; });
    return report;
  }

 private:
  bool direct(OpId x) const { return !programs_[x].scalar.empty(); }

  const FusionGroup& group_of(OpId x) const { return plan_.groups[static_cast<std::size_t>(plan_.op_group[x])]; }
  bool fused_edge(OpId u, OpId v) const {
    return plan_.op_group[u] == plan_.op_group[v] || is_recomputed(group_of(v), u);
  }

  void prepare() {
    std::vector<bool> has_reader(n_, false);
    for (std::size_t v = 0; v < n_; ++v) {
      const OpId x = static_cast<OpId>(v);
      programs_[v] = numerics::make_program(g_, x, s_.max_elements);
      const FusionGroup& group = group_of(x);
      if (!s_.parity && programs_[v].form == Form::elementwise) {
        const OpId u = numerics::contracted_input(g_, group, x);
        if (u >= 0 && programs_[u].form == Form::elementwise && g_.op(u).inputs.size() == 2) contracted_[v] = u;
      }
      lanes_[v] = group.ops.size() > 1 && is_float(numeric_type(g_.op(x)));
      for (OpId u : distinct_reads(x)) ++remaining_[u], has_reader[u] = true;
    }
    for (std::size_t x = 0; x < n_; ++x)
      is_output_[x] = !g_.op(static_cast<OpId>(x)).is_source() && (!has_reader[x] || g_.op(static_cast<OpId>(x)).output);
  }

  // The ops x reads, each once: its inputs and, when it contracts a mul, the mul's inputs.
  std::vector<OpId> distinct_reads(OpId x) const {
    std::vector<OpId> reads(g_.op(x).inputs);
    if (contracted_[x] >= 0) reads.insert(reads.end(), g_.op(contracted_[x]).inputs.begin(), g_.op(contracted_[x]).inputs.end());
    std::sort(reads.begin(), reads.end());
    reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
    return reads;
  }

  void release_inputs(OpId x) {
    for (OpId u : distinct_reads(x))
      if (--remaining_[u] == 0) unfused_[u] = {}, fused_[u] = {};
  }

  const std::vector<double>& read(OpId u, OpId v, bool fused) const {
    const Slot& slot = fused ? fused_[u] : unfused_[u];
    return fused && slot.reg && fused_edge(u, v) ? *slot.reg : *slot.stored;
  }

  void evaluate(OpId x, NumericsReport& report) {
    const FusionOp& op = g_.op(x);
    const NumericType type = numeric_type(op);
    const std::int64_t limit = std::min<std::int64_t>(numerics::element_count(op.shape), s_.max_elements);
    const Program& p = programs_[x];
    std::string reason = p.skip_reason;
    if (p.form != Form::fresh) {
      std::vector<double> plain = compute(x, false);
      if (same_in_both_runs(x) && (!plain.empty() || limit == 0)) {  // the fused run would compute the same
        unfused_[x] = finish(type, std::move(plain));
        fused_[x] = unfused_[x];
        return;
      }
      std::vector<double> fused = compute(x, true);
      if (!plain.empty() || limit == 0) {
        const std::size_t count = std::min(plain.size(), fused.size());
        plain.resize(count), fused.resize(count);
        unfused_[x] = finish(type, std::move(plain));
        fused_[x] = finish(type, std::move(fused));
        return;
      }
      reason = "none of its elements has its inputs within the evaluated prefixes (max_elements)";
    }
    if (!op.is_source()) report.skipped.push_back({x, reason});
    // Sources (weights feeding a matmul above all) are generated further than computed tensors.
    const std::int64_t count = op.is_source() ? std::min<std::int64_t>(numerics::element_count(op.shape),
                                                                       s_.max_elements * kSourceFactor)
                                              : limit;
    const Values data = numerics::fresh_values(type, count, s_.seed, x);
    unfused_[x] = fused_[x] = Slot{data, nullptr};
  }

  // Does x read the same arrays in both runs and compute them the same way (no contraction, no lanes)?
  bool same_in_both_runs(OpId x) const {
    if (contracted_[x] >= 0 || (lanes_[x] && (programs_[x].form == Form::reduce || programs_[x].form == Form::rows)))
      return false;
    for (OpId u : g_.op(x).inputs)
      if (&read(u, x, false) != &read(u, x, true)) return false;
    return true;
  }

  static Slot finish(NumericType type, std::vector<double> reg) {
    if (compute_type(type) == type) return Slot{std::make_shared<std::vector<double>>(std::move(reg)), nullptr};
    auto stored = std::make_shared<std::vector<double>>(reg.size());
    for (std::size_t i = 0; i < reg.size(); ++i) (*stored)[i] = round_to(type, reg[i]);
    return Slot{std::move(stored), std::make_shared<std::vector<double>>(std::move(reg))};
  }

  std::vector<double> compute(OpId x, bool fused) const {
    const FusionOp& op = g_.op(x);
    std::vector<const std::vector<double>*> in;
    for (OpId u : op.inputs) in.push_back(&read(u, x, fused));
    const NumericType ct = compute_type(numeric_type(op));
    const std::int64_t limit = std::min<std::int64_t>(numerics::element_count(op.shape), s_.max_elements);
    const Program& p = programs_[x];
    switch (p.form) {
      case Form::elementwise: return elementwise(x, in, ct, limit, fused);
      case Form::reduce: return reduce(x, in, ct, limit, fused && lanes_[x]);
      case Form::rows: return rows(x, in, ct, limit, fused && lanes_[x]);
      case Form::matmul: return matmul(x, in, ct, limit);
      default: return gather(x, in, limit);
    }
  }

  std::vector<double> elementwise(OpId x, const std::vector<const std::vector<double>*>& in, NumericType ct,
                                  std::int64_t limit, bool fused) const {
    const FusionOp& op = g_.op(x);
    const Program& p = programs_[x];
    std::vector<numerics::Strides> projections = p.projections;
    const OpId mul = fused ? contracted_[x] : -1;
    std::size_t slot = 0;
    const std::vector<double>* factors[2] = {nullptr, nullptr};
    if (mul >= 0) {
      slot = static_cast<std::size_t>(std::find(op.inputs.begin(), op.inputs.end(), mul) - op.inputs.begin());
      for (std::size_t k = 0; k < 2; ++k) {
        const OpId w = g_.op(mul).inputs[k];
        projections.push_back(*numerics::broadcast_projection(g_.op(w).shape, op.shape));
        factors[k] = &read(w, mul, true);
      }
    }
    std::vector<double> out;
    out.reserve(static_cast<std::size_t>(limit));
    double args[5] = {};
    const std::size_t count = in.size();
    if (mul < 0 && direct(x)) {  // every input is read at i (same shape) or at 0 (one element)
      std::int64_t end = limit;
      for (std::size_t k = 0; k < count; ++k)
        if (programs_[x].scalar[k] ? in[k]->empty() : static_cast<std::int64_t>(in[k]->size()) < end)
          end = programs_[x].scalar[k] ? 0 : static_cast<std::int64_t>(in[k]->size());
      for (std::int64_t i = 0; i < end; ++i) {
        for (std::size_t k = 0; k < count; ++k) args[k] = (*in[k])[programs_[x].scalar[k] ? 0 : static_cast<std::size_t>(i)];
        out.push_back(round_to(ct, numerics::apply_elementwise(op.kind, args, count)));
      }
      return out;
    }
    Walker walk(p.walk, std::move(projections));
    for (std::int64_t i = 0; i < limit; ++i, walk.next()) {
      bool ok = true;
      for (std::size_t k = 0; k < count && ok; ++k) {
        const std::int64_t at = walk.offset(k);
        ok = at < static_cast<std::int64_t>(in[k]->size());
        if (ok) args[k] = (*in[k])[static_cast<std::size_t>(at)];
      }
      if (!ok) break;
      if (mul < 0) {
        out.push_back(round_to(ct, numerics::apply_elementwise(op.kind, args, count)));
        continue;
      }
      const std::int64_t a = walk.offset(count), b = walk.offset(count + 1);
      if (a >= static_cast<std::int64_t>(factors[0]->size()) || b >= static_cast<std::int64_t>(factors[1]->size())) break;
      double fa = (*factors[0])[static_cast<std::size_t>(a)], fb = (*factors[1])[static_cast<std::size_t>(b)];
      double other = args[1 - slot];
      if (op.kind == OpKind::sub) (slot == 0 ? other = -other : fa = -fa);
      out.push_back(ct == NumericType::f64 ? std::fma(fa, fb, other)
                                           : static_cast<double>(std::fmaf(static_cast<float>(fa), static_cast<float>(fb),
                                                                           static_cast<float>(other))));
    }
    return out;
  }

  template <typename T>
  static double reduce_in(OpKind kind, const std::vector<double>& v, bool lanes) {
    switch (kind) {
      case OpKind::reduce_max: return extreme_of(v, true);
      case OpKind::reduce_min: return extreme_of(v, false);
      case OpKind::reduce_prod: return static_cast<double>(product_of<T>(v, lanes));
      case OpKind::reduce_mean: return static_cast<double>(sum_of<T>(v, lanes) / static_cast<T>(v.size()));
      default: return static_cast<double>(sum_of<T>(v, lanes));
    }
  }

  std::vector<double> reduce(OpId x, const std::vector<const std::vector<double>*>& in, NumericType ct,
                             std::int64_t limit, bool lanes) const {
    const Program& p = programs_[x];
    Walker walk(p.walk, p.projections);
    std::vector<double> out, values(p.inner.size());
    const std::vector<double>& source = *in[0];
    const std::int64_t last = p.inner.empty() ? 0 : p.inner.back();
    for (std::int64_t i = 0; i < limit; ++i, walk.next()) {
      const std::int64_t base = walk.offset(0);
      if (base + last >= static_cast<std::int64_t>(source.size()) && !p.inner.empty()) break;
      for (std::size_t k = 0; k < p.inner.size(); ++k) values[k] = source[static_cast<std::size_t>(base + p.inner[k])];
      const OpKind kind = g_.op(x).kind;
      out.push_back(round_to(ct, ct == NumericType::f64 || !is_float(ct) ? reduce_in<double>(kind, values, lanes)
                                                                          : reduce_in<float>(kind, values, lanes)));
    }
    return out;
  }

  template <typename T>
  static void row_op(OpKind kind, const std::vector<double>& x, const double* scale, const double* bias, bool lanes,
                     std::vector<double>& out) {
    const std::size_t n = x.size();
    std::vector<double> work(n);
    if (kind == OpKind::cumsum) {
      T acc = 0;
      for (std::size_t k = 0; k < n; ++k) out.push_back(static_cast<double>(acc += static_cast<T>(x[k])));
      return;
    }
    if (kind == OpKind::softmax) {
      const T top = static_cast<T>(extreme_of(x, true));
      for (std::size_t k = 0; k < n; ++k) work[k] = static_cast<double>(static_cast<T>(std::exp(static_cast<double>(static_cast<T>(x[k]) - top))));
      const T total = sum_of<T>(work, lanes);
      for (std::size_t k = 0; k < n; ++k) out.push_back(static_cast<double>(static_cast<T>(work[k]) / total));
      return;
    }
    const T mean = sum_of<T>(x, lanes) / static_cast<T>(n);
    for (std::size_t k = 0; k < n; ++k) {
      const T d = static_cast<T>(x[k]) - mean;
      work[k] = static_cast<double>(d * d);
    }
    const T denominator = static_cast<T>(std::sqrt(static_cast<double>(sum_of<T>(work, lanes) / static_cast<T>(n) + static_cast<T>(1e-5))));
    for (std::size_t k = 0; k < n; ++k) {
      T y = (static_cast<T>(x[k]) - mean) / denominator;
      if (scale) y = y * static_cast<T>(scale[k]);
      if (bias) y = y + static_cast<T>(bias[k]);
      out.push_back(static_cast<double>(y));
    }
  }

  std::vector<double> rows(OpId x, const std::vector<const std::vector<double>*>& in, NumericType ct,
                           std::int64_t limit, bool lanes) const {
    const Program& p = programs_[x];
    const std::size_t params = p.projections.size();
    Walker walk(p.walk, p.projections);
    std::vector<double> out, row, scale, bias;
    for (std::int64_t start = 0; start + p.row <= limit; start += p.row) {
      row.clear(), scale.clear(), bias.clear();
      bool ok = true;
      for (std::int64_t k = 0; k < p.row && ok; ++k, walk.next()) {
        for (std::size_t q = 0; q < params && ok; ++q) ok = walk.offset(q) < static_cast<std::int64_t>(in[q]->size());
        if (!ok) break;
        row.push_back((*in[0])[static_cast<std::size_t>(walk.offset(0))]);
        if (params > 1) scale.push_back((*in[1])[static_cast<std::size_t>(walk.offset(1))]);
        if (params > 2) bias.push_back((*in[2])[static_cast<std::size_t>(walk.offset(2))]);
      }
      if (!ok) break;
      const OpKind kind = g_.op(x).kind;
      const double* s = params > 1 ? scale.data() : nullptr;
      const double* b = params > 2 ? bias.data() : nullptr;
      const std::size_t before = out.size();
      if (ct == NumericType::f64 || !is_float(ct)) row_op<double>(kind, row, s, b, lanes, out);
      else row_op<float>(kind, row, s, b, lanes, out);
      for (std::size_t k = before; k < out.size(); ++k) out[k] = round_to(ct, out[k]);
    }
    return out;
  }

  std::vector<double> matmul(OpId x, const std::vector<const std::vector<double>*>& in, NumericType ct,
                             std::int64_t limit) const {
    const Program& p = programs_[x];
    Walker walk(p.walk, p.projections);
    const std::int64_t k_size = p.row;
    limit = std::min(limit, k_size > 0 ? kMatmulWorkPerElement * s_.max_elements / k_size : limit);
    const std::vector<double>& a = *in[0];
    const std::vector<double>& b = *in[1];
    std::vector<double> out;
    const bool wide = ct == NumericType::f64 || !is_float(ct);
    for (std::int64_t i = 0; i < limit; ++i, walk.next()) {
      const std::int64_t a0 = walk.offset(0), b0 = walk.offset(1);
      if (k_size > 0 && (a0 + k_size - 1 >= static_cast<std::int64_t>(a.size()) ||
                         b0 + (k_size - 1) * p.b_step >= static_cast<std::int64_t>(b.size())))
        break;
      double wide_acc = 0.0;
      float acc = 0.0f;
      for (std::int64_t k = 0; k < k_size; ++k) {
        const double u = a[static_cast<std::size_t>(a0 + k)], v = b[static_cast<std::size_t>(b0 + k * p.b_step)];
        if (wide) wide_acc += u * v;
        else acc += static_cast<float>(u) * static_cast<float>(v);
      }
      out.push_back(round_to(ct, wide ? wide_acc : static_cast<double>(acc)));
    }
    return out;
  }

  // permute and flat: each output element is one input element.
  std::vector<double> gather(OpId x, const std::vector<const std::vector<double>*>& in, std::int64_t limit) const {
    Walker walk(programs_[x].walk, programs_[x].projections);
    std::vector<double> out;
    for (std::int64_t i = 0; i < limit; ++i, walk.next()) {
      const std::int64_t at = walk.offset(0);
      if (at >= static_cast<std::int64_t>(in[0]->size())) break;
      out.push_back((*in[0])[static_cast<std::size_t>(at)]);
    }
    return out;
  }

  NumericsOutput compare(OpId x) const {
    const NumericType type = numeric_type(g_.op(x));
    const std::vector<double>& u = *unfused_[x].stored;
    const std::vector<double>& f = *fused_[x].stored;
    NumericsOutput o;
    o.op = x;
    o.type = type;
    o.elements = static_cast<std::int64_t>(u.size());
    for (std::size_t i = 0; i < u.size(); ++i) {
      const double a = f[i], b = u[i];
      if (std::isnan(a) && std::isnan(b)) continue;
      if (!std::isfinite(a) || !std::isfinite(b)) {
        if (a != b) ++o.mismatched_special;
        continue;
      }
      const double diff = std::fabs(a - b);
      o.max_abs = std::max(o.max_abs, diff);
      if (b != 0.0) o.max_rel = std::max(o.max_rel, diff / std::fabs(b));
      o.max_ulp = std::max(o.max_ulp, ulp_distance(type, a, b));
    }
    return o;
  }

  const FusionGraph& g_;
  const FusionPlan& plan_;
  const NumericsSettings& s_;
  std::size_t n_;
  std::vector<Program> programs_;
  std::vector<OpId> contracted_;  // per add/sub: the mul it contracts with in the fused run, -1
  std::vector<bool> lanes_;       // per op: in a multi-op group (a reduction there sums in lanes)
  std::vector<Slot> unfused_, fused_;
  std::vector<std::int64_t> remaining_;  // reads still to come
  std::vector<bool> is_output_;
};

}  // namespace

namespace numerics {

std::shared_ptr<const std::vector<double>> fresh_values(NumericType type, std::int64_t count, std::uint64_t seed, OpId op) {
  std::uint64_t state = seed ^ (static_cast<std::uint64_t>(op) + 1) * 0xd1b54a32d192ed03ULL;
  auto out = std::make_shared<std::vector<double>>();
  out->reserve(static_cast<std::size_t>(count));
  const bool is_unsigned = type == NumericType::u8 || type == NumericType::u16 || type == NumericType::u32 ||
                           type == NumericType::u64;
  for (std::int64_t i = 0; i < count; ++i) {
    const std::uint64_t r = next_random(state);
    double v = 0.0;
    if (is_float(type)) v = static_cast<double>(r >> 11) * 0x1.0p-52 - 1.0;
    else if (type == NumericType::boolean) v = static_cast<double>(r >> 63);
    else v = static_cast<double>(r >> 60) - (is_unsigned ? 0.0 : 8.0);
    out->push_back(round_to(type, v));
  }
  return out;
}

}  // namespace numerics

NumericsReport evaluate_numerics(const FusionGraph& graph, const FusionPlan& plan, const NumericsSettings& settings) {
  return Evaluator(graph, plan, settings).run();
}

}  // namespace fusion
