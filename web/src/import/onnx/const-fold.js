// const-fold.js — values of small tensors computed from constant inputs, so that a shape computed in the model
// (Shape → Gather → Unsqueeze → Concat → Reshape, as PyTorch exports `x.view(x.size(0), -1)`) is known.
//
// Contract: foldValue(opType, ctx, out) → the elements of output 0 as numbers, or null when the op is not
// foldable here, an input value is unknown, or the output has more than ctx.valueCap elements. `out` is the
// inferred {shape, dtype} of output 0. A node whose value folds becomes a `constant` (lower.js), which ops
// downstream read as data or, by operands.js, as part of themselves. Integer results are truncated as ONNX
// integer ops do. Tested by tests/onnx/onnx-shapes.test.mjs (the PyTorch view pattern).

import { isIntegral } from './dtypes.js';
import { ShapeError } from './errors.js';
import { sliceLength, sliceParams } from './shape-inference.js';
import { product } from './shape-util.js';

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

// An elementwise op over broadcast inputs.
const elementwise = (f) => (ctx, out) => {
  const ins = ctx.inputs.filter(Boolean);
  if (!ins.every((v) => v.value)) return null;
  const n = product(out.shape);
  const trunc = isIntegral(out.dtype);
  return Array.from({ length: n }, (_, i) => {
    const r = f(...ins.map((v) => v.value[broadcastIndex(v.shape, out.shape, i)]));
    return trunc && Number.isFinite(r) ? Math.trunc(r) : r;
  });
};

const b = (x) => (x ? 1 : 0);
const same = (ctx) => ctx.inputs[0]?.value ?? null;

function cast(ctx, out) {
  const v = ctx.inputs[0]?.value;
  if (!v) return null;
  if (out.dtype === 9) return v.map((x) => b(x !== 0));
  return isIntegral(out.dtype) ? v.map((x) => (Number.isFinite(x) ? Math.trunc(x) : x)) : v;
}

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
  const picked = indices.value.map((i) => data.value[i < 0 ? i + n : i]);
  return picked.every((x) => x !== undefined) ? picked : null;
}

function slice(ctx) {
  const data = ctx.inputs[0];
  if (!data?.value || data.shape.length !== 1) return null;
  const p = sliceParams(ctx, 1);
  if (p.axes.length !== 1) return p.axes.length === 0 ? data.value : null;
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
  Expand: (ctx, out) => elementwise((x) => x)({ ...ctx, inputs: [ctx.inputs[0]] }, out),
  Add: elementwise((x, y) => x + y),
  Sub: elementwise((x, y) => x - y),
  Mul: elementwise((x, y) => x * y),
  Div: elementwise((x, y) => x / y),
  Mod: elementwise((x, y) => x % y),
  Neg: elementwise((x) => -x),
  Abs: elementwise(Math.abs),
  Max: elementwise(Math.max),
  Min: elementwise(Math.min),
  Equal: elementwise((x, y) => b(x === y)),
  Less: elementwise((x, y) => b(x < y)),
  Greater: elementwise((x, y) => b(x > y)),
  Not: elementwise((x) => b(!x)),
  And: elementwise((x, y) => b(x && y)),
  Or: elementwise((x, y) => b(x || y)),
  Where: elementwise((c, x, y) => (c ? x : y)),
};

export function foldValue(opType, ctx, out) {
  const fold = FOLD[opType];
  if (!fold || !out || product(out.shape) > ctx.valueCap) return null;
  try {
    return fold(ctx, out);
  } catch (error) {
    if (error instanceof ShapeError) return null; // e.g. non-constant slice bounds: the value stays unknown
    throw error;
  }
}
