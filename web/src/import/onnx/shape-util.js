// shape-util.js — the small pieces shape rules share: typed attribute access, required and constant inputs,
// axes, broadcasting, and the geometry of matmul and sliding windows (convolution, pooling).
//
// Contract: every helper either returns a well-formed value or throws ShapeError (code 'shape_inference',
// 'not_constant' when a value the rule needs is not known statically, 'bad_attribute' for an attribute of the
// wrong type or range). A rule context is {inputs, attrs, outputs, opset, dims}: inputs are {shape, dtype, value}
// or null for an absent optional input; attrs a Map from tensor.js attributes(); dims the import's DimTable
// (dim-names.js; dimsOf(ctx) makes a scratch one when a caller gave none). A dimension, in a shape or in the
// value of a shape tensor (Shape of a tensor with named dims), is a number, a name or a product of names
// ("batch*seq", dim-names.js): the helpers here carry them through (dim-algebra.js) and never turn one into a
// number they do not know. Tested through
// tests/onnx/onnx-shapes.test.mjs and tests/onnx/onnx-dims.test.mjs.

import { allNumbers, broadcastDim, liftDim, sameDim } from './dim-algebra.js';
import { DimTable, isName } from './dim-names.js';
import { ShapeError } from './errors.js';
import { toNumber } from './tensor.js';

// The import's DimTable, or a scratch one (rules called on their own, as the tests do).
export function dimsOf(ctx) {
  if (!ctx.dims) ctx.dims = new DimTable();
  return ctx.dims;
}

const badAttr = (name, what) => new ShapeError(`attribute '${name}' ${what}`, 'bad_attribute');

export function intAttr(ctx, name, fallback) {
  const v = ctx.attrs.get(name);
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw badAttr(name, 'must be an int');
  return v;
}

export function intsAttr(ctx, name, fallback) {
  const v = ctx.attrs.get(name);
  if (v === undefined) return fallback;
  if (!Array.isArray(v) || !v.every((x) => Number.isInteger(x))) throw badAttr(name, 'must be a list of ints');
  return v;
}

export function floatsAttr(ctx, name, fallback) {
  const v = ctx.attrs.get(name);
  if (v === undefined) return fallback;
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'number')) throw badAttr(name, 'must be a list of floats');
  return v;
}

export function stringAttr(ctx, name, fallback) {
  const v = ctx.attrs.get(name);
  if (v === undefined) return fallback;
  if (typeof v !== 'string') throw badAttr(name, 'must be a string');
  return v;
}

// A TENSOR attribute (a TensorProto), or the fallback when absent.
export function tensorAttr(ctx, name, fallback) {
  const v = ctx.attrs.get(name);
  if (v === undefined) return fallback;
  if (v?.$typeName !== 'onnx.TensorProto') throw badAttr(name, 'must be a tensor');
  return v;
}

// Input i, which the op requires.
export function need(ctx, i) {
  const v = ctx.inputs[i];
  if (!v) throw new ShapeError(`input ${i} is required but missing`);
  return v;
}

export const has = (ctx, i) => Boolean(ctx.inputs[i]);

// The values of input i as integers (shape, axes, pads, ...), which must be known statically; a shape tensor's
// entries may be dimension names (see constDims).
export function constInts(ctx, i, what) {
  const v = need(ctx, i);
  if (!v.value) {
    throw new ShapeError(
      `${what} (input ${i}) is computed at run time, not a constant, so the output shape is ` +
        'unknown; give the model value_info for the output (onnx.shape_inference.infer_shapes) or fold it',
      'not_constant',
    );
  }
  return v.value.map((x) => (Number.isFinite(x) ? Math.trunc(x) : x));
}

// As constInts, for values that must be plain numbers (axes, pads, repeats of a kind that is no dimension).
export function constNumbersOnly(ctx, i, what) {
  const values = constInts(ctx, i, what);
  if (!allNumbers(values)) {
    throw new ShapeError(`${what} (input ${i}) holds a dimension name [${values}], not numbers`, 'not_constant');
  }
  return values;
}

// The values of input i as numbers (scales), known statically.
export function constNumbers(ctx, i, what) {
  const v = need(ctx, i);
  if (!v.value) throw new ShapeError(`${what} (input ${i}) is not a constant`, 'not_constant');
  return v.value;
}

// axis in [-rank, rank) → [0, rank).
export function axisIn(axis, rank, what = 'axis') {
  if (!Number.isInteger(axis) || axis < -rank || axis >= rank) {
    throw new ShapeError(`${what} ${axis} is out of range for rank ${rank}`, 'bad_attribute');
  }
  return axis < 0 ? axis + rank : axis;
}

// Distinct normalized axes.
export function axesIn(axes, rank, what = 'axes') {
  const out = axes.map((a) => axisIn(a, rank, what));
  if (new Set(out).size !== out.length) throw new ShapeError(`${what} [${axes}] repeat an axis`, 'bad_attribute');
  return out;
}

// The number of elements; NaN when a dimension is a name (knownProduct in dim-algebra.js says null instead).
export const product = (dims) => dims.reduce((a, b) => a * b, 1);
export const sameShape = (a, b) => a.length === b.length && a.every((d, i) => d === b[i]);

// NumPy (multidirectional) broadcasting of several shapes (names: broadcastDim of dim-algebra.js).
export function broadcastShapes(shapes, dims = null) {
  const rank = Math.max(0, ...shapes.map((s) => s.length));
  const out = new Array(rank).fill(1);
  for (const s of shapes) {
    for (let i = 0; i < s.length; i++) {
      const j = rank - s.length + i;
      const d = broadcastDim(dims, out[j], s[i]);
      if (d === null) {
        throw new ShapeError(`shapes ${shapes.map((x) => `[${x}]`).join(', ')} do not broadcast (dimension ${j})`);
      }
      out[j] = d;
    }
  }
  return out;
}

// Two dims that must be equal (an inner matmul dim, a concat's other axes): their shared dim, or ShapeError.
export function mustAgree(a, b, what) {
  const d = sameDim(a, b);
  if (d === null) throw new ShapeError(what);
  return d;
}

// Output length of a sliding window (convolution, pooling) along one axis.
export function windowLength(size, kernel, stride, dilation, padBegin, padEnd, ceil = false) {
  if (stride <= 0 || dilation <= 0 || kernel <= 0) {
    throw new ShapeError(
      `kernel ${kernel}, stride ${stride} and dilation ${dilation} must be positive`,
      'bad_attribute',
    );
  }
  const span = (kernel - 1) * dilation + 1;
  const room = size + padBegin + padEnd - span;
  if (room < 0) throw new ShapeError(`a window of ${span} does not fit in ${size} + padding ${padBegin}+${padEnd}`);
  let out = (ceil ? Math.ceil(room / stride) : Math.floor(room / stride)) + 1;
  if (ceil && (out - 1) * stride >= size + padBegin) out -= 1; // the last window must start inside the input
  return out;
}

// numpy.matmul: 1-D operands are promoted and the promoted axis dropped; batch dims broadcast.
export function matmulShape(a, b, dims = null) {
  if (a.length === 0 || b.length === 0) throw new ShapeError('MatMul operands must not be scalars');
  const a2 = a.length === 1 ? [1, a[0]] : a;
  const b2 = b.length === 1 ? [b[0], 1] : b;
  mustAgree(a2[a2.length - 1], b2[b2.length - 2], `inner dimensions differ: [${a}] × [${b}]`);
  const batch = broadcastShapes([a2.slice(0, -2), b2.slice(0, -2)], dims);
  return [...batch, ...(a.length === 1 ? [] : [a2[a2.length - 2]]), ...(b.length === 1 ? [] : [b2[b2.length - 1]])];
}

// Per spatial axis: kernel, stride, dilation, pad begin, pad end of a window op; x is [N, C, spatial...].
export function windows(ctx, x, kernel) {
  const n = x.length - 2;
  if (n < 1 || kernel.length !== n) throw new ShapeError(`a kernel of rank ${kernel.length} for input [${x}]`);
  const strides = intsAttr(ctx, 'strides', []);
  const dilations = intsAttr(ctx, 'dilations', []);
  const pads = intsAttr(ctx, 'pads', []);
  const auto = stringAttr(ctx, 'auto_pad', 'NOTSET');
  return kernel.map((k, i) => ({
    size: x[i + 2],
    k,
    s: strides[i] ?? 1,
    d: dilations[i] ?? 1,
    begin: auto === 'NOTSET' ? (pads[i] ?? 0) : 0,
    end: auto === 'NOTSET' ? (pads[i + n] ?? 0) : 0,
    same: auto === 'SAME_UPPER' || auto === 'SAME_LOWER',
  }));
}

// Spatial output lengths of a convolution or pooling; a named length stays itself when the window keeps every
// length (kernel 1, stride 1, no padding; or SAME padding with stride 1), else a derived name (liftDim).
export function spatial(ctx, x, kernel, ceil = false) {
  return windows(ctx, x, kernel).map((w) => {
    if (isName(w.size) && w.s === 1 && (w.same || (w.k - 1) * w.d === w.begin + w.end)) return w.size;
    if (w.same) return liftDim(dimsOf(ctx), 'window', [w.size, w.s], (n, s) => Math.ceil(n / s));
    const f = (n) => windowLength(n, w.k, w.s, w.d, w.begin, w.end, ceil);
    return liftDim(dimsOf(ctx), 'window', [w.size, w.k, w.s, w.d, w.begin, w.end, ceil ? 1 : 0], f);
  });
}

// Conv-like ops: X at input xi, W at input wi.
export function convShape(ctx, xi = 0, wi = 1) {
  const x = need(ctx, xi).shape;
  const w = need(ctx, wi).shape;
  if (w.length !== x.length) throw new ShapeError(`weight [${w}] and input [${x}] differ in rank`);
  const group = intAttr(ctx, 'group', 1);
  if (allNumbers([x[1], w[1]]) && x[1] !== w[1] * group)
    throw new ShapeError(`input channels ${x[1]} ≠ weight channels ${w[1]} × group ${group}`);
  const kernel = intsAttr(ctx, 'kernel_shape', w.slice(2));
  return [x[0], w[0], ...spatial(ctx, x, kernel)];
}

// Dims of a declared TensorShapeProto: numbers, symbol names (strings) or null; null when the rank is unknown.
export function declaredDims(shapeProto) {
  if (!shapeProto) return null;
  return shapeProto.dim.map((d) => {
    if (d.value.case === 'dimValue' && d.value.value >= 0n) return toNumber(d.value.value);
    if (d.value.case === 'dimParam' && d.value.value) return d.value.value;
    return null;
  });
}
