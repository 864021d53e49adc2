// numerics/program.h — how the reference evaluator runs one op (docs/design.md §18), decided from the graph's
// shapes alone before any value is computed, or why it cannot.
//
// Forms: elementwise (every elementwise kind; inputs broadcast to the output by NumPy's rule, batch_norm's
// per-channel parameters [C] along dimension 1); reduce (reduce, reduce_sum, reduce_mean, reduce_max,
// reduce_min, reduce_prod: the reduced dimensions are those of input 0 that the output drops or keeps as 1,
// matched left to right); rows (softmax, layer_norm with optional scale and bias inputs, cumsum: along the
// last dimension, output shape = input shape); matmul ([..., M, K] x [..., K, N], or x [..., N, K] (a linear
// layer's weight) when only that fits; batch dimensions broadcast, a 1-D operand promoted); permute (transpose, when the shapes decide the permutation: no two input
// dimensions above 1 share a size); flat (reshape: the same elements in row-major order); and fresh (sources,
// and ops that cannot be evaluated: their output is fresh seeded data in both runs). Every other kind (conv,
// pooling, gather, scatter, slice, concat, pad, scan, sort, opaque) is fresh with a reason.
#pragma once

#include <string>
#include <vector>

#include "fusion/graph.h"
#include "numerics/layout.h"

namespace fusion::numerics {

enum class Form { fresh, elementwise, reduce, rows, matmul, permute, flat };

struct Program {
  Form form = Form::fresh;
  std::string skip_reason;           // fresh for a non-source: why
  std::vector<Strides> projections;  // per input read: offset of output index i's first element
  std::vector<std::int64_t> inner;   // reduce: offsets of the reduced elements from the base (row-major)
  std::int64_t row = 1;              // rows: the last dimension; matmul: K
  std::int64_t b_step = 0;           // matmul: B's stride along K (N)
  std::vector<bool> scalar;          // elementwise: per input, read at 0 (true) or at i; empty: use the projections
  Shape walk;                        // the output shape walked (matmul: a promoted 1-D operand's dimension as 1)
};

Program make_program(const FusionGraph& graph, OpId x, std::int64_t max_elements);

}  // namespace fusion::numerics
