// numerics/evaluate.h — the reference evaluator of docs/design.md §18 (fusion/numerics.h evaluate_numerics).
//
// Runs the graph twice on the same seeded inputs, in a topological order, and compares the graph's outputs:
//  - unfused: every op reads its inputs as stored (rounded to their types), computes in its compute type (f32
//    for f32, f16, bf16 and f8; f64 for f64; integers and bool as themselves) and stores the result rounded to its
//    own type;
//  - fused as planned: an op reads an input that is a member of its group (a fused edge) unrounded, as the
//    input's compute type held it, and every other input as stored; an add or sub with a contraction note (not
//    under eager parity) computes a*b + c with one rounding (fmaf); a reduction with a reduction_order note sums
//    into 32 lanes (element k into lane k mod 32) added pairwise, where the unfused one sums in order.
// Values: a source (and an op the evaluator cannot run, listed in `skipped` with the reason, program.h) gets
// fresh data from a splitmix64 stream seeded by (seed, op id), identical in both runs: floats uniform in [-1, 1)
// rounded to the type, signed integers in [-8, 8), unsigned in [0, 16), bool 0 or 1. A recomputed copy is taken
// to compute what its owner computes. NaN semantics are the same in both runs (nan notes are not modelled).
// Bounded work: a source's data has at most 16 x max_elements elements (so a weight a matmul reads is there in
// full); each other op evaluates at most max_elements output elements, the first ones in row-major order, and
// only those whose input elements lie within the inputs' evaluated prefixes (broadcasts, reductions and
// permutations keep that consistent: the same element of a tensor has the same value for all its readers); a
// matmul at most 256 x max_elements / K outputs (2^24 multiply-adds at the default). An op that reads the same arrays in both runs and computes them the same way
// is computed once. An op none of whose elements can be evaluated is skipped. Arrays are freed after
// their last reader. Deterministic: the same graph, plan and settings give the same report on every machine, up
// to the last bit of the double-precision libm functions rounded to f32 (exp, log, tanh, erf, ...).
// Shown by tests/core/numerics.test.cpp.
#pragma once

#include <memory>
#include <vector>

#include "fusion/numerics.h"
#include "fusion/plan.h"

namespace fusion::numerics {

// The fresh data of op `op` (a source, or an op the evaluator cannot run): its first `count` elements.
std::shared_ptr<const std::vector<double>> fresh_values(NumericType type, std::int64_t count, std::uint64_t seed,
                                                        OpId op);

}  // namespace fusion::numerics
