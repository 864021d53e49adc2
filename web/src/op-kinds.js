// op-kinds.js — the category of every op kind (source, elementwise, barrier), for drawing only.
//
// Contract: categoryOf(kind) maps a kind name as written in JSON (canonical or alias, any case) to
// 'source' | 'elementwise' | 'barrier', or 'unknown' for names the planner would reject. It never decides
// fusion: groups always come from the planner. The table mirrors core/src/op_kind.cpp and
// schema/graph.schema.json; tests/web/op-kinds.test.mjs fails when they drift apart.

export const SOURCE_KINDS = ['input', 'constant'];

export const ELEMENTWISE_KINDS = [
  'neg', 'abs', 'exp', 'log', 'sqrt', 'rsqrt', 'relu', 'gelu', 'sigmoid', 'tanh', 'silu', 'cast', 'erf',
  'reciprocal', 'square', 'sin', 'cos', 'floor', 'ceil', 'round', 'sign', 'logical_not', 'softplus',
  'leaky_relu', 'clamp', 'identity', 'batch_norm', 'add', 'sub', 'mul', 'div', 'max', 'min', 'pow', 'mod', 'equal', 'less',
  'greater', 'logical_and', 'logical_or', 'where',
];

export const BARRIER_KINDS = [
  'matmul', 'conv', 'reduce', 'reduce_sum', 'reduce_mean', 'reduce_max', 'reduce_min', 'reduce_prod',
  'softmax', 'layer_norm', 'transpose', 'reshape', 'broadcast', 'slice', 'concat', 'pad', 'gather', 'scatter',
  'scan', 'cumsum', 'sort', 'max_pool', 'avg_pool', 'opaque',
];

// Other tools' names for our kinds, normalized (lowercase, no '_' or '-').
const ALIASES = {
  placeholder: 'input', parameter: 'input', const: 'constant', negative: 'neg', negate: 'neg', swish: 'silu',
  convert: 'cast', recip: 'reciprocal', not: 'logical_not', maximum: 'max', minimum: 'min', subtract: 'sub',
  multiply: 'mul', divide: 'div', power: 'pow', select: 'where', and: 'logical_and', or: 'logical_or',
  eq: 'equal', lt: 'less', gt: 'greater', dot: 'matmul', gemm: 'matmul', bmm: 'matmul', conv2d: 'conv',
  convolution: 'conv', layernormalization: 'layer_norm', cumulativesum: 'cumsum', maxpool: 'max_pool',
  averagepool: 'avg_pool', batchnormalization: 'batch_norm', batchnorm: 'batch_norm',
};

export const ALL_KINDS = [...SOURCE_KINDS, ...ELEMENTWISE_KINDS, ...BARRIER_KINDS];

const normalize = (name) => String(name).toLowerCase().replace(/[_-]/g, '');

const CATEGORY = new Map();
for (const k of SOURCE_KINDS) CATEGORY.set(normalize(k), ['source', k]);
for (const k of ELEMENTWISE_KINDS) CATEGORY.set(normalize(k), ['elementwise', k]);
for (const k of BARRIER_KINDS) CATEGORY.set(normalize(k), ['barrier', k]);
for (const [alias, k] of Object.entries(ALIASES)) CATEGORY.set(alias, CATEGORY.get(normalize(k)));

// The category of a kind name: 'source' | 'elementwise' | 'barrier' | 'unknown'.
export function categoryOf(kind) {
  return CATEGORY.get(normalize(kind))?.[0] ?? 'unknown';
}

// The canonical name of a kind (alias → canonical), or the name unchanged when unknown.
export function canonicalKind(kind) {
  return CATEGORY.get(normalize(kind))?.[1] ?? String(kind);
}
