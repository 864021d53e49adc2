// shape-rules-extra.js — shape rules for the less common ONNX ops and for the ops that become sources
// (Constant, Shape, Size, ConstantOfShape, Range, EyeLike), whose values are known statically.
//
// Contract: as RULES in shape-inference.js (which includes these): rule(ctx) → [{shape, dtype?, value?}], or
// ShapeError. A source rule also gives `value` (the elements as numbers) when there are at most ctx.valueCap of
// them, so that Reshape, Slice, Expand, ... downstream can read their constant inputs. Named dimensions as in
// shape-inference.js: Shape's value holds the names (and products) of its input's dims (so a shape computed from
// it can name them), Size's value is the product ("768*batch*seq", dim-algebra.js productDim), and a shape with a
// name has no value (its element count is unknown). Tested by tests/onnx/onnx-shapes.test.mjs and tests/onnx/onnx-dims.test.mjs.

import { allNumbers, broadcastDim, knownProduct, liftDim, productDim, quotientDim, sameDim } from './dim-algebra.js';
import { isName } from './dim-names.js';
import { BOOL, FLOAT, INT64, elementType } from './dtypes.js';
import { ShapeError } from './errors.js';
import {
  axesIn,
  axisIn,
  broadcastShapes,
  constInts,
  constNumbers,
  convShape,
  dimsOf,
  floatsAttr,
  has,
  intAttr,
  intsAttr,
  matmulShape,
  need,
  stringAttr,
  tensorAttr,
} from './shape-util.js';
import { tensorDims, tensorValues } from './tensor.js';

const INT32 = 6;
const UINT8 = 2;
const first = (ctx) => need(ctx, 0);
const present = (ctx) => ctx.inputs.filter(Boolean);
const withValue = (ctx, shape, dtype, make) => {
  const n = knownProduct(shape);
  return { shape, dtype, value: n !== null && n <= ctx.valueCap ? make(n) : null };
};

// Einsum: dims by letter, "..." broadcast across operands; implicit output = letters used once, sorted.
function einsum(ctx) {
  const equation = stringAttr(ctx, 'equation', '').replace(/\s/g, '');
  const [lhs, rhs, extra] = equation.split('->');
  const terms = lhs.split(',');
  const shapes = present(ctx).map((v) => v.shape);
  if (extra !== undefined || terms.length !== shapes.length) {
    throw new ShapeError(`equation '${equation}' does not fit ${shapes.length} inputs`, 'bad_attribute');
  }
  const sizes = new Map();
  const uses = new Map();
  let ellipsis = [];
  terms.forEach((term, k) => {
    const { letters, before, dots } = parseTerm(term, equation);
    const n = shapes[k].length - letters.length;
    if (n < 0 || (!dots && n !== 0)) throw new ShapeError(`term '${term}' does not fit input [${shapes[k]}]`);
    if (dots) ellipsis = broadcastShapes([ellipsis, shapes[k].slice(before, before + n)], dimsOf(ctx));
    letters.forEach((c, i) => {
      const d = shapes[k][i < before ? i : i + n];
      const seen = sizes.get(c);
      const both = seen === undefined ? d : broadcastDim(dimsOf(ctx), seen, d);
      if (both === null) throw new ShapeError(`'${c}' is both ${seen} and ${d}`);
      sizes.set(c, both);
      uses.set(c, (uses.get(c) ?? 0) + 1);
    });
  });
  const implicit = [...uses]
    .filter(([, n]) => n === 1)
    .map(([c]) => c)
    .sort()
    .join('');
  const out = parseTerm(rhs ?? (lhs.includes('...') ? `...${implicit}` : implicit), equation);
  const dims = out.letters.map((c) => {
    if (!sizes.has(c)) throw new ShapeError(`output letter '${c}' is in no input`, 'bad_attribute');
    return sizes.get(c);
  });
  return [{ shape: [...dims.slice(0, out.before), ...(out.dots ? ellipsis : []), ...dims.slice(out.before)] }];
}

function parseTerm(term, equation) {
  const parts = term.split('...');
  if (parts.length > 2 || !/^[a-zA-Z]*$/.test(parts.join(''))) {
    throw new ShapeError(`equation '${equation}' is not valid`, 'bad_attribute');
  }
  return { letters: [...parts.join('')], before: parts[0].length, dots: parts.length === 2 };
}

function topk(ctx) {
  const x = first(ctx).shape;
  const k = intAttr(ctx, 'k', null) ?? constInts(ctx, 1, 'K')[0];
  const axis = axisIn(intAttr(ctx, 'axis', -1), x.length);
  if (!isName(k) && !(k >= 0 && (isName(x[axis]) || k <= x[axis])))
    throw new ShapeError(`K = ${k} for an axis of ${x[axis]}`);
  const shape = x.map((d, i) => (i === axis ? k : d));
  return [{ shape }, { shape, dtype: INT64 }];
}

// RNN, GRU, LSTM: Y, Y_h (and LSTM's Y_c), for both layouts.
function rnn(ctx) {
  const x = first(ctx).shape;
  const hidden = intAttr(ctx, 'hidden_size');
  if (x.length !== 3 || !(hidden > 0)) throw new ShapeError(`needs a 3-D input and hidden_size, got [${x}], ${hidden}`);
  const dirs = stringAttr(ctx, 'direction', 'forward') === 'bidirectional' ? 2 : 1;
  const layout = intAttr(ctx, 'layout', 0);
  const [seq, batch] = layout ? [x[1], x[0]] : [x[0], x[1]];
  const y = layout ? [batch, seq, dirs, hidden] : [seq, dirs, batch, hidden];
  const h = layout ? [batch, dirs, hidden] : [dirs, batch, hidden];
  return [{ shape: y }, { shape: h }, { shape: h }];
}

// Resize (opset 10: X, scales; opset 11+: X, roi, scales, sizes; opset 18: axes, keep_aspect_ratio_policy).
function resize(ctx) {
  const x = first(ctx).shape;
  const axes = axesIn(
    intsAttr(
      ctx,
      'axes',
      x.map((_, i) => i),
    ),
    x.length,
  );
  const out = [...x];
  const sizes = ctx.inputs.length > 3 && has(ctx, 3) ? constInts(ctx, 3, 'sizes') : null;
  if (sizes && sizes.length) {
    if (sizes.length !== axes.length) throw new ShapeError(`${sizes.length} sizes for ${axes.length} axes`);
    const policy = stringAttr(ctx, 'keep_aspect_ratio_policy', 'stretch');
    if (policy === 'stretch') axes.forEach((a, i) => (out[a] = sizes[i]));
    else axes.forEach((a, i) => (out[a] = keepAspect(ctx, policy, axes, x, sizes, i)));
    return [{ shape: out }];
  }
  const scales = constNumbers(ctx, ctx.inputs.length === 2 ? 1 : 2, 'scales');
  if (scales.length !== axes.length) throw new ShapeError(`${scales.length} scales for ${axes.length} axes`);
  const crop = stringAttr(ctx, 'coordinate_transformation_mode', '') === 'tf_crop_and_resize';
  const roi = crop ? constNumbers(ctx, 1, 'roi') : null;
  axes.forEach((a, i) => {
    const extent = roi ? roi[i + axes.length] - roi[i] : 1;
    out[a] = scaled(ctx, x[a], extent * scales[i]);
  });
  return [{ shape: out }];
}

// Resize's size of axis axes[i] under 'not_larger' / 'not_smaller': one scale for every axis.
function keepAspect(ctx, policy, axes, x, sizes, i) {
  const args = [...axes.map((a) => x[a]), ...sizes];
  const f = (...v) => {
    const ratios = axes.map((_, j) => v[axes.length + j] / v[j]);
    return Math.round((policy === 'not_larger' ? Math.min(...ratios) : Math.max(...ratios)) * v[i]);
  };
  return liftDim(dimsOf(ctx), 'resized', args, f);
}

// floor(d × scale): an integer scale of a name is a product, any other a derived name.
function scaled(ctx, d, scale) {
  if (!isName(d)) return Math.floor(d * scale);
  if (Number.isInteger(scale) && scale >= 0) return productDim(dimsOf(ctx), [d, scale]);
  return liftDim(dimsOf(ctx), `scaled_${String(scale).replace(/\W/g, '_')}`, [d], (n) => Math.floor(n * scale));
}

function upsample(ctx) {
  const x = first(ctx).shape;
  const scales = floatsAttr(ctx, 'scales', null) ?? constNumbers(ctx, 1, 'scales');
  if (scales.length !== x.length) throw new ShapeError(`${scales.length} scales for rank ${x.length}`);
  return [{ shape: x.map((d, i) => scaled(ctx, d, scales[i])) }];
}

function oneHot(ctx) {
  const x = first(ctx).shape;
  const given = constNumbers(ctx, 1, 'depth')[0];
  const depth = isName(given) ? given : Math.trunc(given);
  const axis = axisIn(intAttr(ctx, 'axis', -1), x.length + 1);
  if (!isName(depth) && !(depth >= 0)) throw new ShapeError(`depth ${depth}`);
  return [{ shape: [...x.slice(0, axis), depth, ...x.slice(axis)], dtype: need(ctx, 2).dtype }];
}

function gridSample(ctx) {
  const [x, grid] = [first(ctx).shape, need(ctx, 1).shape];
  if (grid.length !== x.length) throw new ShapeError(`grid [${grid}] does not match input [${x}]`);
  return [{ shape: [x[0], x[1], ...grid.slice(1, -1)] }];
}

function random(ctx) {
  const shape = intsAttr(ctx, 'shape');
  if (!shape || shape.some((d) => d < 0)) throw new ShapeError("attribute 'shape' is required", 'bad_attribute');
  return [{ shape, dtype: intAttr(ctx, 'dtype', FLOAT) }];
}
const randomLike = (ctx) => [{ shape: first(ctx).shape, dtype: intAttr(ctx, 'dtype', first(ctx).dtype) }];
const multinomial = (ctx) => [
  { shape: [first(ctx).shape[0], intAttr(ctx, 'sample_size', 1)], dtype: intAttr(ctx, 'dtype', INT32) },
];

// d / k for DepthToSpace and SpaceToDepth: exact, or a derived name for a name that k may not divide.
function divided(ctx, d, k) {
  if (!isName(d)) {
    if (d % k !== 0) throw new ShapeError(`${d} is not a multiple of ${k}`);
    return d / k;
  }
  return quotientDim(dimsOf(ctx), d, k) ?? liftDim(dimsOf(ctx), `over_${k}`, [d], (n) => Math.floor(n / k));
}

function blockOp(ctx) {
  const x = first(ctx).shape;
  const b = intAttr(ctx, 'blocksize', 0);
  if (x.length !== 4 || !(b > 0)) throw new ShapeError(`blocksize ${b} for [${x}]`);
  return { x, b, t: dimsOf(ctx) };
}

function depthToSpace(ctx) {
  const { x, b, t } = blockOp(ctx);
  const [n, c, h, w] = x;
  return [{ shape: [n, divided(ctx, c, b * b), productDim(t, [h, b]), productDim(t, [w, b])] }];
}

function spaceToDepth(ctx) {
  const { x, b, t } = blockOp(ctx);
  const [n, c, h, w] = x;
  return [{ shape: [n, productDim(t, [c, b * b]), divided(ctx, h, b), divided(ctx, w, b)] }];
}

function det(ctx) {
  const x = first(ctx).shape;
  if (x.length < 2 || sameDim(x[x.length - 1], x[x.length - 2]) === null)
    throw new ShapeError(`Det needs square matrices, got [${x}]`);
  return [{ shape: x.slice(0, -2) }];
}

const quantize = (ctx) => [
  { shape: first(ctx).shape, dtype: intAttr(ctx, 'output_dtype', 0) || ctx.inputs[2]?.dtype || UINT8 },
];
const dequantize = (ctx) => [{ shape: first(ctx).shape, dtype: intAttr(ctx, 'output_dtype', 0) || need(ctx, 1).dtype }];
const isCheck = (ctx) => [{ shape: first(ctx).shape, dtype: BOOL }];
const matmulInteger = (ctx) => [
  { shape: matmulShape(first(ctx).shape, need(ctx, 1).shape, dimsOf(ctx)), dtype: INT32 },
];
const qlinearMatmul = (ctx) => [
  { shape: matmulShape(first(ctx).shape, need(ctx, 3).shape, dimsOf(ctx)), dtype: need(ctx, 7).dtype },
];
const convInteger = (ctx) => [{ shape: convShape(ctx, 0, 1), dtype: INT32 }];
const qlinearConv = (ctx) => [{ shape: convShape(ctx, 0, 3), dtype: need(ctx, 7).dtype }];

// NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss: scores [N, C, d...]; a scalar unless reduction is
// 'none' ([N, d...]); SoftmaxCrossEntropyLoss's optional log_prob is shaped like the scores.
function loss(ctx) {
  const x = first(ctx).shape;
  if (x.length < 2) throw new ShapeError(`scores must be [N, C, ...], got [${x}]`);
  const none = stringAttr(ctx, 'reduction', 'mean') === 'none';
  return [{ shape: none ? [x[0], ...x.slice(2)] : [] }, { shape: x }];
}

const dynamicQuantize = (ctx) => [
  { shape: first(ctx).shape, dtype: UINT8 },
  { shape: [], dtype: FLOAT },
  { shape: [], dtype: UINT8 },
];

function roiAlign(ctx) {
  const [x, rois] = [first(ctx).shape, need(ctx, 1).shape];
  return [{ shape: [rois[0], x[1], intAttr(ctx, 'output_height', 1), intAttr(ctx, 'output_width', 1)] }];
}

// ---- Sources: the value is known without running the model.

// A TensorProto as a rule output.
function tensorOutput(ctx, tensor) {
  if (!elementType(tensor.dataType)) return { shape: tensorDims(tensor), dtype: tensor.dataType };
  return { shape: tensorDims(tensor), dtype: tensor.dataType, value: tensorValues(tensor, ctx.valueCap) };
}

function constant(ctx) {
  const a = ctx.attrs;
  if (a.has('value')) return [tensorOutput(ctx, tensorAttr(ctx, 'value'))];
  if (a.has('sparse_value')) {
    const sparse = a.get('sparse_value');
    if (sparse?.$typeName !== 'onnx.SparseTensorProto') {
      throw new ShapeError("attribute 'sparse_value' must be a sparse tensor", 'bad_attribute');
    }
    return [{ shape: sparse.dims.map(Number), dtype: sparse.values?.dataType ?? FLOAT, value: null }];
  }
  if (a.has('value_float')) return [{ shape: [], dtype: FLOAT, value: [floatAttr(ctx, 'value_float')] }];
  if (a.has('value_floats')) {
    const value = floatsAttr(ctx, 'value_floats');
    return [{ shape: [value.length], dtype: FLOAT, value }];
  }
  if (a.has('value_int')) return [{ shape: [], dtype: INT64, value: [intAttr(ctx, 'value_int')] }];
  if (a.has('value_ints'))
    return [{ shape: [intsAttr(ctx, 'value_ints').length], dtype: INT64, value: intsAttr(ctx, 'value_ints') }];
  if (a.has('value_string')) return [{ shape: [], dtype: 8 }];
  if (a.has('value_strings')) return [{ shape: [[].concat(a.get('value_strings')).length], dtype: 8 }];
  throw new ShapeError('Constant has no value attribute', 'bad_attribute');
}

function floatAttr(ctx, name) {
  const v = ctx.attrs.get(name);
  if (typeof v !== 'number') throw new ShapeError(`attribute '${name}' must be a float`, 'bad_attribute');
  return v;
}

function shapeOf(ctx) {
  const x = first(ctx).shape;
  const clamp = (i) => Math.min(Math.max(i < 0 ? i + x.length : i, 0), x.length);
  const [start, end] = [clamp(intAttr(ctx, 'start', 0)), clamp(intAttr(ctx, 'end', x.length))];
  const dims = x.slice(start, Math.max(start, end));
  return [{ shape: [dims.length], dtype: INT64, value: dims }];
}

const size = (ctx) => [{ shape: [], dtype: INT64, value: [productDim(dimsOf(ctx), first(ctx).shape)] }];

function constantOfShape(ctx) {
  const shape = constInts(ctx, 0, 'the shape');
  if (shape.some((d) => !isName(d) && (!Number.isSafeInteger(d) || d < 0)))
    throw new ShapeError(`shape [${shape}] is not valid`);
  const fill = tensorAttr(ctx, 'value', null);
  const dtype = fill?.dataType ?? FLOAT;
  const v = fill ? (tensorValues(fill, 1)?.[0] ?? 0) : 0;
  return [withValue(ctx, shape, dtype, (n) => new Array(n).fill(v))];
}

const rangeLength = (start, limit, delta) => Math.max(Math.ceil((limit - start) / delta), 0);

// Range(0, n, 1) of a name n has length n; other ranges over a name have a derived length.
function range(ctx) {
  const [start, limit, delta] = [0, 1, 2].map((i) => constNumbers(ctx, i, ['start', 'limit', 'delta'][i])[0]);
  if (!allNumbers([start, limit, delta])) {
    const n = start === 0 && delta === 1 ? limit : liftDim(dimsOf(ctx), 'range', [start, limit, delta], rangeLength);
    return [{ shape: [n], dtype: first(ctx).dtype, value: null }];
  }
  const n = rangeLength(start, limit, delta);
  if (!Number.isSafeInteger(n)) throw new ShapeError(`Range(${start}, ${limit}, ${delta}) has no finite length`);
  return [withValue(ctx, [n], first(ctx).dtype, () => Array.from({ length: n }, (_, i) => start + i * delta))];
}

function eyeLike(ctx) {
  const x = first(ctx).shape;
  if (x.length !== 2) throw new ShapeError(`EyeLike needs a 2-D input, got [${x}]`);
  return [{ shape: x, dtype: intAttr(ctx, 'dtype', first(ctx).dtype) }];
}

export const EXTRA_RULES = {
  einsum,
  topk,
  rnn,
  resize,
  upsample,
  one_hot: oneHot,
  grid_sample: gridSample,
  random,
  random_like: randomLike,
  multinomial,
  depth_to_space: depthToSpace,
  space_to_depth: spaceToDepth,
  det,
  quantize,
  dequantize,
  is_check: isCheck,
  matmul_integer: matmulInteger,
  qlinear_matmul: qlinearMatmul,
  conv_integer: convInteger,
  qlinear_conv: qlinearConv,
  constant,
  shape: shapeOf,
  size,
  constant_of_shape: constantOfShape,
  range,
  eye_like: eyeLike,
  loss,
  dynamic_quantize: dynamicQuantize,
  roi_align: roiAlign,
};
