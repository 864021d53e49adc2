// const-fold.js — values of small tensors computed from constant inputs, so that a shape computed in the model
// (Shape → Gather → Unsqueeze → Concat → Reshape, as PyTorch exports `x.view(x.size(0), -1)`) is known.
//
// Contract: foldValue(opType, ctx, out) → the elements of output 0 as numbers, or null when the op is not
// foldable here, an input value is unknown, or the output has more than ctx.valueCap elements. `out` is the
// inferred {shape, dtype} of output 0. A node whose value folds becomes a `constant` (lower.js), which ops
// downstream read as data or, by operands.js, as part of themselves. Integer results are truncated as ONNX
// integer ops do. Values may hold dimension names and products of names (Shape of a tensor with named dims,
// dim-names.js): moving ops (Identity, Reshape, Squeeze, Unsqueeze, Concat, Gather, Slice, Cast to an integer
// type) carry them; Mul is a product ("batch" × "seq" = "batch*seq", with no warning) and Div an exact quotient
// (dim-algebra.js), Add a sum ("seq" + "seq" = "2*seq") and Sub an exact difference; what no product can say (a
// sum of unlike terms, a quotient or difference that is not exact) is a derived name, with a warning where an op
// first uses it. Equal, Less, Greater, Where fold when the answer does not depend on the name's value (a dimension
// is never negative: Equal(n, -1) is 0, as in PyTorch's `view(-1)` exports); any other op of a name does not
// fold. An output whose shape has a name has no value. Tested by tests/onnx/onnx-shapes.test.mjs (the PyTorch view
// pattern) and tests/onnx/onnx-dims.test.mjs.

import { differenceDim, knownProduct, liftDim, productDim, quotientDim, sumDim } from './dim-algebra.js';
import { isName } from './dim-names.js';
import { isIntegral } from './dtypes.js';
import { ShapeError } from './errors.js';
import { sliceLength, sliceParams } from './shape-inference.js';
import { dimsOf } from './shape-util.js';

// Flat index into `shape` (broadcast against `out`) of output element i.
function broadcastIndex(shape, out, i) {
  let index = 0;
  let stride = 1;
  let rest = i;
  for (let k = out.length - 1, j = shape.length - 1; k >= 0; k--, j--) {
    const coord = rest % out[k];
    rest = Math.floor(rest / out[k]);
    if (j >= 0) {
      index += (shape[j] === 1 ? 0 : coord) * stride;
      stride *= shape[j];
    }
  }
  return index;
}

// An elementwise op over broadcast inputs; `named(t, ...args)` computes an element when an argument is a name
// (undefined: not foldable), and without it an op of a name does not fold.
const elementwise =
  (f, named = null) =>
  (ctx, out) => {
    const ins = ctx.inputs.filter(Boolean);
    if (!ins.every((v) => v.value)) return null;
    const n = knownProduct(out.shape);
    const trunc = isIntegral(out.dtype);
    const values = Array.from({ length: n }, (_, i) => {
      const args = ins.map((v) => v.value[broadcastIndex(v.shape, out.shape, i)]);
      if (args.some(isName)) return named ? named(dimsOf(ctx), ...args) : undefined;
      const r = f(...args);
      return trunc && Number.isFinite(r) ? Math.trunc(r) : r;
    });
    return values.includes(undefined) ? null : values;
  };

const b = (x) => (x ? 1 : 0);
const same = (ctx) => ctx.inputs[0]?.value ?? null;

function cast(ctx, out) {
  const v = ctx.inputs[0]?.value;
  if (!v) return null;
  if (v.some(isName) && (!isIntegral(out.dtype) || out.dtype === 9)) return null; // a name's truth is unknown
  if (out.dtype === 9) return v.map((x) => b(x !== 0));
  return isIntegral(out.dtype) ? v.map((x) => (Number.isFinite(x) ? Math.trunc(x) : x)) : v;
}

// Arithmetic and comparisons of dimension names (see the header); undefined when it does not fold.
const negative = (x) => !isName(x) && x < 0;
const NAMED = {
  Add: (t, x, y) => sumDim(t, [x, y]),
  Sub: (t, x, y) => differenceDim(t, x, y) ?? liftDim(t, 'minus', [x, y], (p, q) => p - q),
  Mul: (t, x, y) => productDim(t, [x, y]),
  Div: (t, x, y) => quotientDim(t, x, y) ?? liftDim(t, 'div', [x, y], (p, q) => Math.trunc(p / q)),
  Equal: (t, x, y) => (x === y ? 1 : negative(x) || negative(y) ? 0 : undefined),
  Less: (t, x, y) => (x === y || negative(y) ? 0 : negative(x) ? 1 : undefined),
  Greater: (t, x, y) => (x === y || negative(x) ? 0 : negative(y) ? 1 : undefined),
  Where: (t, c, x, y) => (isName(c) ? undefined : c ? x : y),
};

// Concatenation along axis 0 is concatenation of the flat element lists.
function concat(ctx) {
  const ins = ctx.inputs.filter(Boolean);
  const axis = ctx.attrs.get('axis');
  if (!ins.every((v) => v.value) || !(axis === 0 || (axis === -1 && ins[0].shape.length === 1))) return null;
  return ins.flatMap((v) => v.value);
}

function gather(ctx) {
  const [data, indices] = ctx.inputs;
  if (!data?.value || !indices?.value || data.shape.length !== 1) return null;
  const n = data.shape[0];
  if (indices.value.some(isName)) return null;
  const picked = indices.value.map((i) => data.value[i < 0 ? i + n : i]);
  return picked.every((x) => x !== undefined) ? picked : null;
}

function slice(ctx) {
  const data = ctx.inputs[0];
  if (!data?.value || data.shape.length !== 1) return null;
  const p = sliceParams(ctx, 1);
  if (p.axes.length !== 1) return p.axes.length === 0 ? data.value : null;
  if ([p.starts[0], p.ends[0]].some(isName)) return null;
  const { start, length } = sliceLength(data.shape[0], p.starts[0], p.ends[0], p.steps[0]);
  return Array.from({ length }, (_, i) => data.value[start + i * p.steps[0]]);
}

const FOLD = {
  Identity: same,
  Reshape: same,
  Flatten: same,
  Squeeze: same,
  Unsqueeze: same,
  Cast: cast,
  CastLike: cast,
  Concat: concat,
  Gather: gather,
  Slice: slice,
  Expand: (ctx, out) =>
    elementwise(
      (x) => x,
      (t, x) => x,
    )({ ...ctx, inputs: [ctx.inputs[0]] }, out),
  Add: elementwise((x, y) => x + y, NAMED.Add),
  Sub: elementwise((x, y) => x - y, NAMED.Sub),
  Mul: elementwise((x, y) => x * y, NAMED.Mul),
  Div: elementwise((x, y) => x / y, NAMED.Div),
  Mod: elementwise((x, y) => x % y),
  Neg: elementwise((x) => -x),
  Abs: elementwise(Math.abs),
  Max: elementwise(Math.max),
  Min: elementwise(Math.min),
  Equal: elementwise((x, y) => b(x === y), NAMED.Equal),
  Less: elementwise((x, y) => b(x < y), NAMED.Less),
  Greater: elementwise((x, y) => b(x > y), NAMED.Greater),
  Not: elementwise((x) => b(!x)),
  And: elementwise((x, y) => b(x && y)),
  Or: elementwise((x, y) => b(x || y)),
  Where: elementwise((c, x, y) => (c ? x : y), NAMED.Where),
};

export function foldValue(opType, ctx, out) {
  const fold = FOLD[opType];
  const n = out && knownProduct(out.shape);
  if (!fold || n === null || !(n <= ctx.valueCap)) return null;
  try {
    return fold(ctx, out);
  } catch (error) {
    if (error instanceof ShapeError) return null; // e.g. non-constant slice bounds: the value stays unknown
    throw error;
  }
}
