// shape-inference.js — output shapes of the common ONNX ops, computed from input shapes, attributes and
// constant inputs.
//
// Contract: RULES[name](ctx) → [{shape, dtype?, value?}, ...], one entry per node output it knows (a missing
// entry or dtype means "not inferred" / "same element type as input 0"). ctx is {inputs, attrs, outputs,
// opset, valueCap} (shape-util.js). A rule throws ShapeError when the inputs cannot produce an output (shapes that do not
// broadcast, an axis out of range) or when it needs a value that is not constant (code 'not_constant'); the
// converter then falls back to the shape the model declares. Rules follow the ONNX operator specification
// (onnx/docs/Operators.md), with the older forms (attributes that later became inputs) up to opset 18. Rules for
// less common ops are in shape-rules-extra.js, and RULES holds both. op-table.js names the rule of each op type.
// Named dimensions (docs/onnx.md, "Named dimensions"): a dimension may be a name or a product of names and a
// whole number ("batch*seq", "2*seq", canonical: dim-names.js), and so may an entry of a constant shape tensor
// (Shape of a named tensor, gathered, concatenated, multiplied: const-fold.js). Rules carry them through:
// broadcasting and matmul as dim-algebra.js broadcastDim says, Transpose, reductions, Softmax and Gather move
// them, Reshape and Flatten multiply and divide exactly (a -1 is the remaining product when that is exact:
// [batch, seq, 768] → [-1, 768] gives "batch*seq", and back to [batch, -1, 768] gives seq), Concat adds (sumDim:
// seq + seq is "2*seq"), Tile and integer Resize scales multiply, and what no product can say (a sum of unlike
// terms, a strided window, a slice with a named end) gives a derived name (liftDim) whose default is its value at
// the defaults; a name is never turned into a number. Tested by tests/onnx/onnx-shapes.test.mjs,
// tests/onnx/onnx-dims.test.mjs and, against the shapes ONNX's own test models declare,
// tests/onnx/onnx-testdata.test.mjs.

import { allNumbers, liftDim, productDim, quotientDim, sumDim } from './dim-algebra.js';
import { isName } from './dim-names.js';
import { BOOL } from './dtypes.js';
import { ShapeError } from './errors.js';
import { EXTRA_RULES } from './shape-rules-extra.js';
import {
  axesIn,
  axisIn,
  broadcastShapes,
  constInts,
  constNumbersOnly,
  convShape,
  dimsOf,
  has,
  intAttr,
  intsAttr,
  matmulShape,
  mustAgree,
  need,
  spatial,
  windows,
} from './shape-util.js';

const first = (ctx) => need(ctx, 0);
const present = (ctx) => ctx.inputs.filter(Boolean);

// Elementwise with one data input (extra inputs such as Clip's min/max or PRelu's slope do not change it).
const unary = (ctx) => [{ shape: first(ctx).shape }];
const broadcast = (ctx) => [
  {
    shape: broadcastShapes(
      present(ctx).map((v) => v.shape),
      dimsOf(ctx),
    ),
  },
];
const compare = (ctx) => [{ shape: broadcast(ctx)[0].shape, dtype: BOOL }];
const where = (ctx) => [{ shape: broadcast(ctx)[0].shape, dtype: need(ctx, 1).dtype }];

function cast(ctx) {
  const to = intAttr(ctx, 'to');
  if (to === undefined) throw new ShapeError("attribute 'to' is required", 'bad_attribute');
  return [{ shape: first(ctx).shape, dtype: to }];
}
const castLike = (ctx) => [{ shape: first(ctx).shape, dtype: need(ctx, 1).dtype }];

const matmul = (ctx) => [{ shape: matmulShape(first(ctx).shape, need(ctx, 1).shape, dimsOf(ctx)) }];

function gemm(ctx) {
  const [a, b] = [first(ctx).shape, need(ctx, 1).shape];
  if (a.length !== 2 || b.length !== 2) throw new ShapeError(`Gemm needs 2-D A and B, got [${a}] and [${b}]`);
  const [m, k] = intAttr(ctx, 'transA', 0) ? [a[1], a[0]] : a;
  const [k2, n] = intAttr(ctx, 'transB', 0) ? [b[1], b[0]] : b;
  mustAgree(k, k2, `inner dimensions differ: A gives ${k}, B gives ${k2}`);
  return [{ shape: [m, n] }];
}

const conv = (ctx) => [{ shape: convShape(ctx) }];

function convTranspose(ctx) {
  const x = first(ctx).shape;
  const w = need(ctx, 1).shape;
  if (w.length !== x.length || (allNumbers([x[1], w[0]]) && x[1] !== w[0]))
    throw new ShapeError(`weight [${w}] does not match input [${x}]`);
  const channels = productDim(dimsOf(ctx), [w[1], intAttr(ctx, 'group', 1)]);
  const kernel = intsAttr(ctx, 'kernel_shape', w.slice(2));
  const outputShape = intsAttr(ctx, 'output_shape', null);
  if (outputShape) return [{ shape: [x[0], channels, ...outputShape.slice(-kernel.length)] }];
  const extra = intsAttr(ctx, 'output_padding', []);
  const length = (v, i) => (n) =>
    v.same ? n * v.s : v.s * (n - 1) + (extra[i] ?? 0) + (v.k - 1) * v.d + 1 - v.begin - v.end;
  const lengths = windows(ctx, x, kernel).map((v, i) =>
    liftDim(dimsOf(ctx), 'transposed_window', [v.size, v.k, v.s, v.d, v.begin, v.end, extra[i] ?? 0], length(v, i)),
  );
  return [{ shape: [x[0], channels, ...lengths] }];
}

// MaxPool, AveragePool, LpPool; MaxPool's second output holds int64 indices.
function pool(ctx) {
  const x = first(ctx).shape;
  const kernel = intsAttr(ctx, 'kernel_shape');
  if (!kernel) throw new ShapeError("attribute 'kernel_shape' is required", 'bad_attribute');
  const shape = [x[0], x[1], ...spatial(ctx, x, kernel, intAttr(ctx, 'ceil_mode', 0) === 1)];
  return [{ shape }, { shape, dtype: 7 }];
}

const globalPool = (ctx) => {
  const x = first(ctx).shape;
  if (x.length < 3) throw new ShapeError(`global pooling needs [N, C, spatial...], got [${x}]`);
  return [{ shape: [x[0], x[1], ...x.slice(2).map(() => 1)] }];
};

// Reductions: axes from the attribute (older opsets) or input 1; none = all axes, unless noop_with_empty_axes.
function reducedShape(ctx, x) {
  const given = intsAttr(ctx, 'axes', null) ?? (has(ctx, 1) ? constInts(ctx, 1, 'axes') : []);
  if (given.length === 0 && intAttr(ctx, 'noop_with_empty_axes', 0)) return x;
  const axes = new Set(given.length ? axesIn(given, x.length) : x.map((_, i) => i));
  const keep = intAttr(ctx, 'keepdims', 1) === 1;
  return x.flatMap((d, i) => (!axes.has(i) ? [d] : keep ? [1] : []));
}
const reduce = (ctx) => [{ shape: reducedShape(ctx, first(ctx).shape) }];

function argReduce(ctx) {
  const x = first(ctx).shape;
  const axis = axisIn(intAttr(ctx, 'axis', 0), Math.max(x.length, 1));
  const keep = intAttr(ctx, 'keepdims', 1) === 1;
  return [{ shape: x.flatMap((d, i) => (i !== axis ? [d] : keep ? [1] : [])), dtype: 7 }];
}

function transpose(ctx) {
  const x = first(ctx).shape;
  const perm = intsAttr(
    ctx,
    'perm',
    x.map((_, i) => x.length - 1 - i),
  );
  if (perm.length !== x.length) throw new ShapeError(`perm [${perm}] does not match rank ${x.length}`, 'bad_attribute');
  return [{ shape: axesIn(perm, x.length, 'perm').map((p) => x[p]) }];
}

// Reshape's target: 0 copies the input dim (unless allowzero), one -1 takes what is left. With names (t, the
// DimTable): the -1 is the exact quotient of the products when there is one ("batch*seq"), else a derived name;
// a target without -1 is trusted unless both sides are numbers.
export function reshapeTarget(x, target, allowZero, t = null) {
  const dims = target.map((d, i) => (d === 0 && !allowZero ? x[i] : d));
  if (dims.some((d) => d === undefined || (!isName(d) && (d < -1 || !Number.isSafeInteger(d))))) {
    throw new ShapeError(`target shape [${target}] is invalid for input [${x}]`);
  }
  const holes = dims.filter((d) => d === -1).length;
  if (holes > 1) throw new ShapeError(`target shape [${target}] has more than one -1`);
  const known = dims.filter((d) => d !== -1);
  if (!allNumbers([...x, ...known])) return dims.map((d) => (d === -1 ? remainder(t, x, known) : d));
  const [total, size] = [x, known].map((s) => s.reduce((a, b) => a * b, 1));
  if (holes === 0 ? size !== total : size === 0 || total % size !== 0) {
    throw new ShapeError(`cannot reshape [${x}] (${total} elements) to [${target}]`);
  }
  return dims.map((d) => (d === -1 ? total / size : d));
}

// The dimension a -1 stands for: product(x) / product(known), exactly, or a derived name.
function remainder(t, x, known) {
  const [total, size] = [productDim(t, x), productDim(t, known)];
  const exact = quotientDim(t, total, size);
  if (exact !== null) return exact;
  return liftDim(t, 'rest', [total, size], (a, b) => {
    if (b === 0 || a % b !== 0) throw new ShapeError(`cannot reshape ${a} elements into parts of ${b}`);
    return a / b;
  });
}

function reshape(ctx) {
  const x = first(ctx).shape;
  const target = intsAttr(ctx, 'shape', null) ?? constInts(ctx, 1, 'the target shape');
  return [{ shape: reshapeTarget(x, target, intAttr(ctx, 'allowzero', 0) === 1, dimsOf(ctx)) }];
}

function flatten(ctx) {
  const x = first(ctx).shape;
  let axis = intAttr(ctx, 'axis', 1);
  if (axis < 0) axis += x.length;
  if (axis < 0 || axis > x.length)
    throw new ShapeError(`axis ${axis} is out of range for rank ${x.length}`, 'bad_attribute');
  const t = dimsOf(ctx);
  return [{ shape: [productDim(t, x.slice(0, axis)), productDim(t, x.slice(axis))] }];
}

const axesInput = (ctx) => intsAttr(ctx, 'axes', null) ?? (has(ctx, 1) ? constNumbersOnly(ctx, 1, 'axes') : null);

// A named axis may be squeezed when the axes say so (the model says it is 1); without axes only 1s go.
function squeeze(ctx) {
  const x = first(ctx).shape;
  const given = axesInput(ctx);
  const axes = new Set(given ? axesIn(given, x.length) : x.flatMap((d, i) => (d === 1 ? [i] : [])));
  for (const a of axes)
    if (x[a] !== 1 && !isName(x[a])) throw new ShapeError(`cannot squeeze axis ${a} of [${x}]: it is not 1`);
  return [{ shape: x.filter((_, i) => !axes.has(i)) }];
}

function unsqueeze(ctx) {
  const x = first(ctx).shape;
  const given = axesInput(ctx);
  if (!given) throw new ShapeError('Unsqueeze needs axes', 'bad_attribute');
  const rank = x.length + given.length;
  const axes = new Set(axesIn(given, rank));
  const out = [];
  let next = 0;
  for (let i = 0; i < rank; i++) out.push(axes.has(i) ? 1 : x[next++]);
  return [{ shape: out }];
}

function concat(ctx) {
  const shapes = present(ctx).map((v) => v.shape);
  if (shapes.length === 0) throw new ShapeError('Concat needs at least one input');
  const rank = shapes[0].length;
  const axis = axisIn(intAttr(ctx, 'axis', 0), rank);
  const out = [...shapes[0]];
  for (const s of shapes) {
    const why = `inputs [${shapes[0]}] and [${s}] differ outside axis ${axis}`;
    if (s.length !== rank) throw new ShapeError(why);
    s.forEach((d, i) => {
      if (i !== axis) out[i] = mustAgree(out[i], d, why);
    });
  }
  out[axis] = sumDim(
    dimsOf(ctx),
    shapes.map((s) => s[axis]),
  );
  return [{ shape: out }];
}

function gather(ctx) {
  const x = first(ctx).shape;
  const axis = axisIn(intAttr(ctx, 'axis', 0), x.length);
  return [{ shape: [...x.slice(0, axis), ...need(ctx, 1).shape, ...x.slice(axis + 1)] }];
}

const gatherElements = (ctx) => [{ shape: need(ctx, 1).shape }];

function gatherNd(ctx) {
  const [x, q] = [first(ctx).shape, need(ctx, 1).shape];
  const b = intAttr(ctx, 'batch_dims', 0);
  const last = q[q.length - 1];
  if (q.length < 1 || last === undefined || isName(last) || b + last > x.length)
    throw new ShapeError(`indices [${q}] do not fit data [${x}]`);
  return [{ shape: [...q.slice(0, -1), ...x.slice(b + last)] }];
}

// LayerNormalization: Y like X; Mean and InvStdDev keep the leading axes and have 1 from `axis` on.
function layerNorm(ctx) {
  const x = first(ctx).shape;
  const axis = axisIn(intAttr(ctx, 'axis', -1), x.length);
  const stats = { shape: x.map((d, i) => (i < axis ? d : 1)), dtype: intAttr(ctx, 'stash_type', 1) };
  return [{ shape: x }, stats, stats];
}

// BatchNormalization: Y like X; the optional running or saved statistics are per channel, like `scale`.
function batchNorm(ctx) {
  const x = first(ctx).shape;
  const perChannel = { shape: need(ctx, 1).shape, dtype: ctx.inputs[3]?.dtype };
  return [{ shape: x }, perChannel, perChannel, perChannel, perChannel];
}

// Split: sizes from the attribute or input 1, else equal parts (the last one smaller, opset 18).
function split(ctx) {
  const x = first(ctx).shape;
  const axis = axisIn(intAttr(ctx, 'axis', 0), x.length);
  const n = intAttr(ctx, 'num_outputs', ctx.outputs);
  if (n !== ctx.outputs)
    throw new ShapeError(`num_outputs ${n} but the node has ${ctx.outputs} outputs`, 'bad_attribute');
  let sizes = intsAttr(ctx, 'split', null) ?? (has(ctx, 1) ? constInts(ctx, 1, 'split') : null);
  if (!sizes) sizes = isName(x[axis]) ? namedParts(ctx, x[axis], n) : equalParts(ctx, x[axis], n);
  if (allNumbers([...sizes, x[axis]]) && (sizes.reduce((a, b) => a + b, 0) !== x[axis] || sizes.some((s) => s < 0))) {
    throw new ShapeError(`split sizes [${sizes}] do not add up to ${x[axis]}`);
  }
  return sizes.map((s) => ({ shape: x.map((d, i) => (i === axis ? s : d)) }));
}

function equalParts(ctx, length, n) {
  const part = Math.ceil(length / n);
  if (length % n !== 0 && !ctx.attrs.has('num_outputs'))
    throw new ShapeError(`${length} does not split into ${n} equal parts`);
  return Array.from({ length: n }, (_, i) => Math.max(0, Math.min(part, length - part * i)));
}

// A named length in n parts: each part is length / n when that is exact ("2*N" in 2 parts is N), else a derived
// name per part.
function namedParts(ctx, length, n) {
  const t = dimsOf(ctx);
  const exact = quotientDim(t, length, n);
  if (exact !== null && !ctx.attrs.has('num_outputs')) return new Array(n).fill(exact);
  return Array.from({ length: n }, (_, i) => liftDim(t, `part${i}_of_${n}`, [length], (m) => equalParts(ctx, m, n)[i]));
}

// The length of one sliced axis (ONNX Slice clamping rules).
export function sliceLength(dim, start, end, step) {
  if (step === 0) throw new ShapeError('slice step 0');
  let [s, e] = [start < 0 ? start + dim : start, end < 0 ? end + dim : end];
  if (step > 0) [s, e] = [Math.min(Math.max(s, 0), dim), Math.min(Math.max(e, 0), dim)];
  else [s, e] = [Math.min(Math.max(s, 0), dim - 1), Math.min(Math.max(e, -1), dim - 1)];
  return { start: s, length: Math.max(0, Math.ceil((e - s) / step)) };
}

// Slice's parameters: attributes (opset < 10) or inputs starts, ends, axes, steps.
// Starts and ends may be dimension names (x[:, :n] with n from Shape); axes and steps are numbers.
export function sliceParams(ctx, rank) {
  const fromAttr = ctx.attrs.has('starts');
  const starts = fromAttr ? intsAttr(ctx, 'starts') : constInts(ctx, 1, 'starts');
  const ends = fromAttr ? intsAttr(ctx, 'ends') : constInts(ctx, 2, 'ends');
  const axes =
    (fromAttr ? intsAttr(ctx, 'axes', null) : has(ctx, 3) ? constNumbersOnly(ctx, 3, 'axes') : null) ??
    starts.map((_, i) => i);
  const steps = !fromAttr && has(ctx, 4) ? constNumbersOnly(ctx, 4, 'steps') : starts.map(() => 1);
  if (ends.length !== starts.length || axes.length !== starts.length || steps.length !== starts.length) {
    throw new ShapeError('starts, ends, axes and steps differ in length');
  }
  return { starts, ends, axes: axesIn(axes, rank), steps };
}

// The length of one sliced axis when the dim or a bound is a name: the whole axis when the slice keeps all of it
// (start 0 or below, step 1, end past any length or equal to the dim), else a derived name.
export function namedSliceLength(t, dim, start, end, step) {
  const whole = step === 1 && (start === 0 || start <= -(2 ** 62)) && (end === dim || end >= 2 ** 31);
  if (whole) return dim;
  if (isName(end) && start === 0 && step === 1 && !isName(dim)) return liftDim(t, 'slice', [dim, end], Math.min);
  return liftDim(t, 'slice', [dim, start, end, step], (d, s, e, k) => sliceLength(d, s, e, k).length);
}

function slice(ctx) {
  const x = first(ctx).shape;
  const p = sliceParams(ctx, x.length);
  const out = [...x];
  p.axes.forEach((a, i) => {
    const args = [x[a], p.starts[i], p.ends[i], p.steps[i]];
    out[a] = allNumbers(args) ? sliceLength(...args).length : namedSliceLength(dimsOf(ctx), ...args);
  });
  return [{ shape: out }];
}

function pad(ctx) {
  const x = first(ctx).shape;
  const pads = intsAttr(ctx, 'pads', null) ?? intsAttr(ctx, 'paddings', null) ?? constNumbersOnly(ctx, 1, 'pads');
  const axes = has(ctx, 3) ? axesIn(constNumbersOnly(ctx, 3, 'axes'), x.length) : x.map((_, i) => i);
  if (pads.length !== 2 * axes.length) throw new ShapeError(`${pads.length} pads for ${axes.length} axes`);
  const out = [...x];
  axes.forEach((a, i) => {
    const [before, after] = [pads[i], pads[i + axes.length]];
    out[a] = isName(x[a]) ? padNamed(ctx, x[a], before, after) : x[a] + before + after;
  });
  if (out.some((d) => d < 0)) throw new ShapeError(`pads [${pads}] make [${x}] negative`);
  return [{ shape: out }];
}

const padNamed = (ctx, d, before, after) =>
  before + after >= 0
    ? sumDim(dimsOf(ctx), [d, before + after])
    : liftDim(dimsOf(ctx), 'pad', [d, before + after], (n, p) => Math.max(0, n + p));

const expand = (ctx) => [{ shape: broadcastShapes([first(ctx).shape, constInts(ctx, 1, 'the shape')], dimsOf(ctx)) }];

function tile(ctx) {
  const x = first(ctx).shape;
  const repeats = constInts(ctx, 1, 'repeats');
  if (repeats.length !== x.length || repeats.some((r) => r < 0))
    throw new ShapeError(`repeats [${repeats}] for [${x}]`);
  return [{ shape: x.map((d, i) => productDim(dimsOf(ctx), [d, repeats[i]])) }];
}

export const RULES = {
  unary,
  cast,
  cast_like: castLike,
  broadcast,
  compare,
  where,
  matmul,
  gemm,
  conv,
  conv_transpose: convTranspose,
  pool,
  global_pool: globalPool,
  reduce,
  arg_reduce: argReduce,
  transpose,
  reshape,
  flatten,
  squeeze,
  unsqueeze,
  concat,
  gather,
  gather_elements: gatherElements,
  gather_nd: gatherNd,
  layer_norm: layerNorm,
  batch_norm: batchNorm,
  split,
  slice,
  pad,
  expand,
  tile,
  ...EXTRA_RULES,
};
