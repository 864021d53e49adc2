// generators.cpp — the benchmark graph shapes of generators.h.
#include "generators.h"

#include <algorithm>
#include <random>

namespace fusion::bench {
namespace {

using K = OpKind;

FusionGraph chain(std::int64_t ops) {
  FusionGraph g;
  OpId last = g.add_op(K::input, {}, {1024}, 4);
  for (std::int64_t i = 1; i < ops; ++i) last = g.add_op(i % 2 ? K::relu : K::exp, {last}, {1024}, 4);
  return g;
}

// One source feeding `width` elementwise ops, summed back pairwise in a tree, repeated.
FusionGraph fan(std::int64_t ops) {
  FusionGraph g;
  OpId x = g.add_op(K::input, {}, {256, 64}, 4);
  const int width = 64;
  while (static_cast<std::int64_t>(g.size()) + 2 * width < ops) {
    std::vector<OpId> level;
    for (int i = 0; i < width; ++i) level.push_back(g.add_op(i % 2 ? K::sigmoid : K::tanh, {x}, {256, 64}, 4));
    while (level.size() > 1) {
      std::vector<OpId> next;
      for (std::size_t i = 0; i + 1 < level.size(); i += 2) next.push_back(g.add_op(K::add, {level[i], level[i + 1]}, {256, 64}, 4));
      level = next;
    }
    x = g.add_op(K::reduce_max, {level[0]}, {256, 64}, 4);
  }
  return g;
}

FusionGraph diamonds(std::int64_t ops) {
  FusionGraph g;
  OpId x = g.add_op(K::input, {}, {512, 512}, 2);
  while (static_cast<std::int64_t>(g.size()) + 4 <= ops) {
    const OpId a = g.add_op(K::exp, {x}, {512, 512}, 2);
    const OpId b = g.add_op(K::neg, {x}, {512, 512}, 2);
    x = g.add_op(K::mul, {a, b}, {512, 512}, 2);
    if (g.size() % 40 == 0) x = g.add_op(K::transpose, {x}, {512, 512}, 2);
  }
  return g;
}

// matmul -> bias -> gelu -> matmul -> residual add -> layernorm as reduce + scale.
FusionGraph transformer(std::int64_t ops) {
  FusionGraph g;
  const std::int64_t t = 2048, d = 1024, f = 4096;
  OpId h = g.add_op(K::input, {}, {t, d}, 2);
  while (static_cast<std::int64_t>(g.size()) + 12 <= ops) {
    const OpId w1 = g.add_op(K::constant, {}, {d, f}, 2), b1 = g.add_op(K::constant, {}, {f}, 2);
    const OpId w2 = g.add_op(K::constant, {}, {f, d}, 2), b2 = g.add_op(K::constant, {}, {d}, 2);
    const OpId m1 = g.add_op(K::matmul, {h, w1}, {t, f}, 2);
    const OpId a1 = g.add_op(K::gelu, {g.add_op(K::add, {m1, b1}, {t, f}, 2)}, {t, f}, 2);
    const OpId m2 = g.add_op(K::matmul, {a1, w2}, {t, d}, 2);
    const OpId r = g.add_op(K::add, {g.add_op(K::add, {m2, b2}, {t, d}, 2), h}, {t, d}, 2);
    const OpId mean = g.add_op(K::reduce_mean, {r}, {t, 1}, 2);
    h = g.add_op(K::mul, {g.add_op(K::sub, {r, mean}, {t, d}, 2), b2}, {t, d}, 2);
  }
  return g;
}

// Random DAG: ~15% sources, ~10% barriers; 90% of inputs from the last 32 ops, the rest from the last
// `reach` ops (skip connections), or from anywhere before when reach is 0.
FusionGraph random_dag(std::int64_t ops, std::uint64_t seed, std::int64_t reach) {
  static const std::vector<Shape> shapes = {{64, 128}, {128}, {1, 128}, {64, 1}, {32, 128}, {}};
  static const std::vector<K> elementwise = {K::add, K::mul, K::relu, K::exp, K::sub, K::gelu, K::where};
  static const std::vector<K> barriers = {K::matmul, K::reduce_sum, K::transpose, K::softmax};
  std::mt19937_64 rng(seed);
  auto below = [&rng](std::uint64_t n) { return rng() % n; };
  FusionGraph g;
  for (std::int64_t i = 0; i < ops; ++i) {
    const auto roll = below(100);
    if (i < 2 || roll < 15) {
      g.add_op(K::input, {}, shapes[below(shapes.size())], 4);
      continue;
    }
    const K kind = roll < 25 ? barriers[below(barriers.size())] : elementwise[below(elementwise.size())];
    std::vector<OpId> inputs;
    const int arity = kind == K::where ? 3 : 1 + static_cast<int>(below(2));
    for (int k = 0; k < arity; ++k)
      inputs.push_back(static_cast<OpId>(std::max<std::int64_t>(
          0, i - 1 - static_cast<std::int64_t>(below(below(10) < 9 ? 32 : static_cast<std::uint64_t>(reach ? reach : i))))));
    const Shape shape = below(10) < 7 ? g.op(inputs[0]).shape : shapes[below(shapes.size())];
    g.add_op(kind, std::move(inputs), shape, 4);
  }
  return g;
}

// Every elementwise op e_i = add(e_{i-1}, t_i) where t_i = transpose(e_{i-2}): merging e_{i-1} into
// e_i is legal edge by edge, but each candidate has a barrier path beside it.
FusionGraph adversarial(std::int64_t ops) {
  FusionGraph g;
  OpId before = g.add_op(K::input, {}, {256}, 4);
  OpId last = g.add_op(K::relu, {before}, {256}, 4);
  while (static_cast<std::int64_t>(g.size()) + 2 <= ops) {
    const OpId t = g.add_op(K::transpose, {before}, {256}, 4);
    before = last;
    last = g.add_op(K::add, {last, t}, {256}, 4);
  }
  return g;
}

}  // namespace

std::vector<std::string> generator_names() { return {"chain", "fan", "diamonds", "transformer", "random", "random_uniform", "adversarial"}; }

FusionGraph generate(const std::string& name, std::int64_t ops, std::uint64_t seed) {
  if (name == "chain") return chain(ops);
  if (name == "fan") return fan(ops);
  if (name == "diamonds") return diamonds(ops);
  if (name == "transformer") return transformer(ops);
  if (name == "random") return random_dag(ops, seed, 4096);
  if (name == "random_uniform") return random_dag(ops, seed, 0);
  if (name == "adversarial") return adversarial(ops);
  return {};
}

std::string graph_to_json(const FusionGraph& g) {
  std::string out = "{\"ops\":[\n";
  for (std::size_t i = 0; i < g.size(); ++i) {
    const FusionOp& op = g.op(static_cast<OpId>(i));
    out += "{\"kind\":\"" + std::string(to_string(op.kind)) + "\"";
    if (!op.inputs.empty()) {
      out += ",\"inputs\":[";
      for (std::size_t k = 0; k < op.inputs.size(); ++k) out += (k ? "," : "") + std::to_string(op.inputs[k]);
      out += ']';
    }
    out += ",\"shape\":" + shape_to_string(op.shape) + ",\"dtype_bytes\":" + std::to_string(op.dtype_bytes) + "}";
    out += i + 1 < g.size() ? ",\n" : "\n";
  }
  return out + "]}\n";
}

}  // namespace fusion::bench
