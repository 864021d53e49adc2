// dim_formulas.cpp — formulas and the independence proof of detail/dim_formulas.h.
#include "detail/dim_formulas.h"

#include <optional>

#include "detail/legality.h"
#include "fusion/formula.h"
#include "presets/tvm_patterns.h"

namespace fusion::detail {
namespace {

// A sum of polynomials that becomes nullopt for good once a coefficient overflows.
class FormulaSum {
 public:
  void add(const std::optional<Polynomial>& term, int sign = 1) {
    if (sum_ && (!term || !sum_->add(*term, sign))) sum_.reset();
  }
  void add(const FormulaSum& other, int sign = 1) { add(other.sum_, sign); }
  std::optional<std::string> text() const { return sum_ ? std::optional(sum_->to_string()) : std::nullopt; }

 private:
  std::optional<Polynomial> sum_ = Polynomial{};
};

std::vector<std::optional<Polynomial>> tensor_formulas(const FusionGraph& g) {
  std::vector<std::optional<Polynomial>> out;
  out.reserve(g.size());
  for (const FusionOp& op : g.ops()) out.push_back(Polynomial::tensor_bytes_of(op));
  return out;
}

bool writes_nothing(const FusionOp& op, bool resident_sources) { return resident_sources && op.is_source(); }

FormulaSum unfused_formula(const FusionGraph& g, const std::vector<std::optional<Polynomial>>& bytes, bool resident) {
  FormulaSum total;
  std::vector<OpId> last_reader(g.size(), -1);
  for (std::size_t x = 0; x < g.size(); ++x) {
    const FusionOp& op = g.op(static_cast<OpId>(x));
    if (!writes_nothing(op, resident)) total.add(bytes[x]);
    for (OpId in : op.inputs)
      if (last_reader[in] != static_cast<OpId>(x)) last_reader[in] = static_cast<OpId>(x), total.add(bytes[in]);
  }
  return total;
}

// The shape rule on one edge, over every value of every name.
enum class Decision { always, never, depends };

std::string name_at(const FusionOp& op, std::size_t d) { return d < op.dim_names.size() ? op.dim_names[d] : ""; }

Decision dimension_pair(const FusionOp& a, std::size_t da, const FusionOp& b, std::size_t db, bool broadcast) {
  const std::string na = name_at(a, da), nb = name_at(b, db);
  const std::int64_t va = a.shape[da], vb = b.shape[db];
  if (na.empty() && nb.empty()) return va == vb || (broadcast && (va == 1 || vb == 1)) ? Decision::always : Decision::never;
  if (na == nb) return Decision::always;
  if (broadcast && ((na.empty() && va == 1) || (nb.empty() && vb == 1))) return Decision::always;
  return Decision::depends;
}

Decision shape_rule(const FusionOp& producer, const FusionOp& consumer, bool broadcast) {
  const std::size_t pr = producer.shape.size(), cr = consumer.shape.size();
  if (!broadcast && pr != cr) return Decision::never;
  Decision result = Decision::always;
  for (std::size_t k = 1; k <= std::min(pr, cr); ++k) {
    const Decision pair = dimension_pair(producer, pr - k, consumer, cr - k, broadcast);
    if (pair == Decision::never) return Decision::never;
    if (pair == Decision::depends) result = Decision::depends;
  }
  return result;
}

// tvm decides on op kinds and the graph's structure, and on sizes only where a kBroadcast consumer reads an input
// of its own shape (an elementwise edge): each such comparison must come out the same for every value.
bool tvm_grouping_independent(const FusionGraph& g) {
  for (const FusionOp& consumer : g.ops()) {
    if (presets::tvm_pattern(consumer.kind) != presets::TvmPattern::broadcast) continue;
    for (OpId in : consumer.inputs)
      if (shape_rule(g.op(in), consumer, /*broadcast=*/false) == Decision::depends) return false;
  }
  return true;
}

bool grouping_independent(const FusionGraph& g, const PlannerOptions& options) {
  if (options.strategy == "tvm") return tvm_grouping_independent(g);
  if (options.strategy != "seed" || !(options.rules == StrategyRules{})) return false;
  for (const FusionOp& consumer : g.ops())
    for (OpId in : consumer.inputs) {
      const FusionOp& producer = g.op(in);
      if (!is_mergeable(producer) || !is_mergeable(consumer) || producer.region != consumer.region) continue;
      if (shape_rule(producer, consumer, options.broadcast) == Decision::depends) return false;
    }
  return true;
}

}  // namespace

void describe_dims(const FusionGraph& bound, FusionPlan& plan) {
  const bool resident = plan.options.resident_sources;
  const std::vector<std::optional<Polynomial>> bytes = tensor_formulas(bound);
  plan.has_dims = true;
  plan.dims = bound.dims();
  plan.grouping_independent_of_dims = grouping_independent(bound, plan.options);
  FormulaSum fused;
  for (FusionGroup& group : plan.groups) {
    FormulaSum read, written;
    for (OpId in : group.inputs) read.add(bytes[in]);
    for (OpId out : group.outputs)
      if (!writes_nothing(bound.op(out), resident)) written.add(bytes[out]);
    group.bytes_read_formula = read.text();
    group.bytes_written_formula = written.text();
    fused.add(read);
    fused.add(written);
  }
  const FormulaSum unfused = unfused_formula(bound, bytes, resident);
  FormulaSum saved = unfused;
  saved.add(fused, -1);
  plan.bytes_unfused_formula = unfused.text();
  plan.bytes_fused_formula = fused.text();
  plan.bytes_saved_formula = saved.text();
}

}  // namespace fusion::detail
