// op-table.js — what each ONNX op type becomes in the graph: its kind, its shape rule, how it is lowered.
//
// Contract: OP_TABLE[opType] → {kind, shape, lower, approx, note} for ops of the default domain ('' or
// 'ai.onnx'); lookupOp(domain, opType) → that row or null (an op type not listed, or of another domain, is
// imported as `opaque`, its outputs shaped as the model declares). Fields:
//   kind    the graph kind of the op's outputs (null when the op is elided)
//   shape   the RULES entry of shape-inference.js that computes its outputs, or null (declared shapes only)
//   lower   'node'   one op per used output, reading every present input
//           'gemm'   matmul, then add when C is given (PyTorch's Linear = matmul + add)
//           'elide'  no op: the output is the input (Identity, Dropout at inference; a used Dropout mask is a
//                    constant)
//           'source' a `constant` op without inputs: the value is known statically (Constant, Shape, Size,
//                    ConstantOfShape, Range, EyeLike)
//           'if' | 'loop' | 'scan'  the bodies are imported into regions (convert-control.js)
//   approx  true when the kind is the nearest kind the planner has, not the op itself
//   operands  {input index: name} of the inputs that are attributes in disguise (Reshape's shape, Slice's
//           starts…steps, Clip's min and max, …): when their value is statically known they are part of the
//           op, not inputs of it (operands.js)
// hasLabel(row) says which ops carry `"label": "<OpType>"`: opaque ones (listed or unknown), nearest kinds,
// and If/Loop/Scan, so that people see what each op really was.
// opTableMarkdown() renders the table for docs/onnx.md; tests/onnx/onnx-op-table.test.mjs keeps the two equal
// and checks every kind against the core's kind list.

const row = (kind, shape, more = {}) =>
  Object.freeze({ kind, shape, lower: 'node', approx: false, note: '', operands: null, ...more });
// {1: names[0], 2: names[1], …}: inputs 1, 2, … are attributes in disguise.
const operands = (...names) => Object.freeze(Object.fromEntries(names.map((n, i) => [i + 1, n])));
const AXES = operands('axes');
const near = (kind, shape, note, ops = null) => row(kind, shape, { approx: true, note, operands: ops });
const opaque = (shape, note = '', ops = null) => row('opaque', shape, { note, operands: ops });

const UNARY = {
  Abs: 'abs',
  Neg: 'neg',
  Exp: 'exp',
  Log: 'log',
  Sqrt: 'sqrt',
  Relu: 'relu',
  Sigmoid: 'sigmoid',
  Tanh: 'tanh',
  Erf: 'erf',
  Reciprocal: 'reciprocal',
  Sin: 'sin',
  Cos: 'cos',
  Floor: 'floor',
  Ceil: 'ceil',
  Round: 'round',
  Sign: 'sign',
  Softplus: 'softplus',
  LeakyRelu: 'leaky_relu',
  Gelu: 'gelu',
  Not: 'logical_not',
};
const BINARY = { Add: 'add', Sub: 'sub', Mul: 'mul', Div: 'div', Pow: 'pow', Mod: 'mod', Max: 'max', Min: 'min' };
const REDUCE = {
  ReduceSum: 'reduce_sum',
  ReduceMean: 'reduce_mean',
  ReduceMax: 'reduce_max',
  ReduceMin: 'reduce_min',
  ReduceProd: 'reduce_prod',
  ReduceL1: 'reduce',
  ReduceL2: 'reduce',
  ReduceLogSum: 'reduce',
  ReduceLogSumExp: 'reduce',
  ReduceSumSquare: 'reduce',
};
const TRIG = ['Tan', 'Asin', 'Acos', 'Atan', 'Sinh', 'Cosh', 'Asinh', 'Acosh', 'Atanh'];
const mapRows = (table, make) => Object.fromEntries(Object.entries(table).map(([op, kind]) => [op, make(kind)]));

export const OP_TABLE = Object.freeze({
  ...mapRows(UNARY, (kind) => row(kind, 'unary')),
  Clip: row('clamp', 'unary', { operands: operands('min', 'max') }),
  ...mapRows(BINARY, (kind) => row(kind, 'broadcast')),
  ...mapRows(REDUCE, (kind) => row(kind, 'reduce', { operands: AXES })),
  ...Object.fromEntries(TRIG.map((op) => [op, near('sin', 'unary', 'another transcendental function')])),
  Cast: row('cast', 'cast'),
  CastLike: row('cast', 'cast_like'),
  Sum: row('add', 'broadcast', { note: 'n inputs: one add op with n inputs' }),
  Mean: near('add', 'broadcast', 'a sum and a scale'),
  Equal: row('equal', 'compare'),
  Less: row('less', 'compare'),
  Greater: row('greater', 'compare'),
  LessOrEqual: near('less', 'compare', 'a comparison'),
  GreaterOrEqual: near('greater', 'compare', 'a comparison'),
  And: row('logical_and', 'compare'),
  Or: row('logical_or', 'compare'),
  Xor: near('logical_or', 'compare', 'a logical op'),
  BitwiseAnd: near('logical_and', 'broadcast', 'a bitwise op'),
  BitwiseOr: near('logical_or', 'broadcast', 'a bitwise op'),
  BitwiseXor: near('logical_or', 'broadcast', 'a bitwise op'),
  BitwiseNot: near('logical_not', 'unary', 'a bitwise op'),
  BitShift: near('mul', 'broadcast', 'a shift is a multiply by a power of two'),
  Where: row('where', 'where'),
  IsNaN: near('equal', 'is_check', 'a test giving bool'),
  IsInf: near('equal', 'is_check', 'a test giving bool'),
  PRelu: near('leaky_relu', 'unary', 'leaky ReLU with a learned slope'),
  ThresholdedRelu: near('relu', 'unary', 'ReLU with a threshold'),
  Elu: near('leaky_relu', 'unary', 'an activation with an exponential negative side'),
  Selu: near('leaky_relu', 'unary', 'an activation with an exponential negative side'),
  Celu: near('leaky_relu', 'unary', 'an activation with an exponential negative side'),
  HardSigmoid: near('clamp', 'unary', 'clamp(αx + β, 0, 1)'),
  HardSwish: near('silu', 'unary', 'x · hardsigmoid(x)'),
  Mish: near('silu', 'unary', 'x · tanh(softplus(x))'),
  Softsign: near('div', 'unary', 'x / (1 + |x|)'),
  Shrink: near('clamp', 'unary', 'a piecewise-linear function'),
  Trilu: near('where', 'unary', 'a select against a triangular mask', operands('k')),
  QuantizeLinear: near('cast', 'quantize', 'scale, round, convert'),
  DequantizeLinear: near('cast', 'dequantize', 'convert, scale'),
  MatMul: row('matmul', 'matmul'),
  MatMulInteger: row('matmul', 'matmul_integer'),
  QLinearMatMul: row('matmul', 'qlinear_matmul'),
  Gemm: row('matmul', 'gemm', {
    lower: 'gemm',
    note: 'matmul, then add when C is given; alpha and beta are not separate ops',
  }),
  Einsum: near('matmul', 'einsum', 'a contraction'),
  Conv: row('conv', 'conv', { note: 'the bias is the third input of the one conv op' }),
  ConvInteger: row('conv', 'conv_integer'),
  QLinearConv: row('conv', 'qlinear_conv'),
  ConvTranspose: row('conv', 'conv_transpose'),
  MaxPool: row('max_pool', 'pool', { note: 'a used Indices output is a second max_pool op' }),
  AveragePool: row('avg_pool', 'pool'),
  LpPool: near('avg_pool', 'pool', 'a pooling'),
  GlobalAveragePool: row('avg_pool', 'global_pool'),
  GlobalMaxPool: row('max_pool', 'global_pool'),
  GlobalLpPool: near('avg_pool', 'global_pool', 'a pooling'),
  BatchNormalization: row('batch_norm', 'batch_norm', {
    note: 'training outputs (running statistics) are batch_norm ops shaped like scale',
  }),
  LayerNormalization: row('layer_norm', 'layer_norm', {
    note: 'used Mean / InvStdDev outputs are further layer_norm ops',
  }),
  InstanceNormalization: near('layer_norm', 'unary', 'a normalization'),
  GroupNormalization: near('layer_norm', 'unary', 'a normalization'),
  MeanVarianceNormalization: near('layer_norm', 'unary', 'a normalization'),
  LpNormalization: near('layer_norm', 'unary', 'a normalization'),
  Softmax: row('softmax', 'unary'),
  LogSoftmax: near('softmax', 'unary', 'softmax then log'),
  ArgMax: near('reduce', 'arg_reduce', 'a reduction giving int64 indices'),
  ArgMin: near('reduce', 'arg_reduce', 'a reduction giving int64 indices'),
  Transpose: row('transpose', 'transpose'),
  Reshape: row('reshape', 'reshape', { operands: operands('shape') }),
  Flatten: row('reshape', 'flatten'),
  Squeeze: row('reshape', 'squeeze', { operands: AXES }),
  Unsqueeze: row('reshape', 'unsqueeze', { operands: AXES }),
  Expand: row('broadcast', 'expand', { operands: operands('shape') }),
  Tile: near('broadcast', 'tile', 'a repeating copy', operands('repeats', 'axis')),
  DepthToSpace: near('transpose', 'depth_to_space', 'a reshape and transpose'),
  SpaceToDepth: near('transpose', 'space_to_depth', 'a reshape and transpose'),
  Concat: row('concat', 'concat'),
  Split: row('slice', 'split', { note: 'one slice op per used output', operands: operands('split') }),
  Slice: row('slice', 'slice', { operands: operands('starts', 'ends', 'axes', 'steps') }),
  Pad: row('pad', 'pad', { operands: operands('pads', 'constant_value', 'axes') }),
  Gather: row('gather', 'gather'),
  GatherElements: row('gather', 'gather_elements'),
  GatherND: row('gather', 'gather_nd'),
  Scatter: row('scatter', 'unary'),
  ScatterElements: row('scatter', 'unary'),
  ScatterND: row('scatter', 'unary'),
  CumSum: row('cumsum', 'unary', { operands: operands('axis') }),
  TopK: row('sort', 'topk', { note: 'values and indices are two sort ops', operands: operands('K') }),
  RNN: row('scan', 'rnn'),
  GRU: row('scan', 'rnn'),
  LSTM: row('scan', 'rnn'),
  Identity: row(null, null, { lower: 'elide' }),
  Dropout: row(null, null, {
    lower: 'elide',
    note: 'inference: the output is the input; a used mask is a bool constant',
  }),
  Constant: row('constant', 'constant', { lower: 'source' }),
  Shape: row('constant', 'shape', { lower: 'source', note: 'shapes are static here, so the result is a constant' }),
  Size: row('constant', 'size', { lower: 'source', note: 'shapes are static here, so the result is a constant' }),
  ConstantOfShape: row('constant', 'constant_of_shape', {
    lower: 'source',
    note: 'a filled tensor; the shape input is dropped',
  }),
  Range: row('constant', 'range', { lower: 'source', note: 'a generated tensor; the scalar inputs are dropped' }),
  EyeLike: row('constant', 'eye_like', { lower: 'source', note: 'a generated tensor; the input is dropped' }),
  If: row('opaque', null, {
    lower: 'if',
    note:
      'branches become regions `<node>/then_branch`, `<node>/else_branch`; ' +
      'each output is an opaque op reading the condition and both branch results',
  }),
  Loop: row('scan', null, {
    lower: 'loop',
    note: 'the body becomes region `<node>/body`; each output is a scan op reading the inputs and the body results',
  }),
  Scan: row('scan', null, { lower: 'scan', note: 'the body becomes region `<node>/body`; as Loop' }),
  Resize: opaque('resize', '', operands('roi', 'scales', 'sizes')),
  Upsample: opaque('upsample', '', operands('scales')),
  OneHot: opaque('one_hot', '', operands('depth', 'values')),
  GridSample: opaque('grid_sample'),
  Hardmax: opaque('unary'),
  LRN: opaque('unary'),
  ReverseSequence: opaque('unary'),
  Det: opaque('det'),
  RandomNormal: opaque('random'),
  RandomUniform: opaque('random'),
  RandomNormalLike: opaque('random_like'),
  RandomUniformLike: opaque('random_like'),
  Bernoulli: opaque('random_like'),
  Multinomial: opaque('multinomial'),
  NegativeLogLikelihoodLoss: opaque('loss'),
  SoftmaxCrossEntropyLoss: opaque('loss'),
  DynamicQuantizeLinear: opaque('dynamic_quantize'),
  RoiAlign: opaque('roi_align'),
  NonZero: opaque(null, 'data-dependent shape: declared shapes only'),
  Compress: opaque(null, 'data-dependent shape: declared shapes only'),
  Unique: opaque(null, 'data-dependent shape: declared shapes only'),
  NonMaxSuppression: opaque(
    null,
    'data-dependent shape: declared shapes only',
    Object.freeze({ 2: 'max_output_boxes_per_class', 3: 'iou_threshold', 4: 'score_threshold' }),
  ),
});

const DEFAULT_DOMAINS = new Set(['', 'ai.onnx']);

export function lookupOp(domain, opType) {
  if (!DEFAULT_DOMAINS.has(domain) || !Object.hasOwn(OP_TABLE, opType)) return null;
  return OP_TABLE[opType];
}

// The row of an op type the table does not know: opaque, shapes as declared.
export const UNKNOWN_OP = row('opaque', null);

const CONTROL = new Set(['if', 'loop', 'scan']);

// Whether the ops of a node of this row carry `"label": "<OpType>"`.
export const hasLabel = (r) => r.kind === 'opaque' || r.approx || CONTROL.has(r.lower);

function operandNote(r) {
  if (!r.operands) return '';
  const names = Object.values(r.operands).map((n) => `\`${n}\``);
  return `constant ${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} part of the op`;
}

function kindCell(r) {
  if (r.lower === 'elide') return '— (elided)';
  if (r.lower === 'gemm') return '`matmul` + `add`';
  return r.approx ? `≈ \`${r.kind}\`` : `\`${r.kind}\``;
}

// The table as Markdown, one row per op type in alphabetical order.
export function opTableMarkdown() {
  const lines = ['| ONNX op | kind | shape rule | notes |', '|---|---|---|---|'];
  for (const op of Object.keys(OP_TABLE).sort()) {
    const r = OP_TABLE[op];
    const rule = r.shape ? `\`${r.shape}\`` : r.lower === 'node' || r.lower === 'elide' ? 'declared' : 'bodies';
    const note = [r.approx ? `nearest kind: ${r.note}` : r.note, operandNote(r)].filter(Boolean).join('; ');
    lines.push(`| ${op} | ${kindCell(r)} | ${r.lower === 'elide' ? 'input' : rule} | ${note} |`);
  }
  return `${lines.join('\n')}\n`;
}
