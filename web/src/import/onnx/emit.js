// emit.js — the graph being built: ops, unique names, the dimension names its shapes use, warnings.
//
// Contract:
//   newBuild(limits, dims) → the build state {ops, warnings, stats, declared, dims, usedDims, ...} that convert.js
//     threads through; `dims` is the import's DimTable (dim-names.js)
//   emit(cx, op, where, record?) → op index; checks the shape (rank, dims integers ≥ 0, dimension names or
//     products of names in canonical text, element cap with names at their defaults) and the dtype, makes the
//     name unique (suffix "_2", "_3", ...), writes inputs as names and `label`, `region` when given; `record`
//     collects the op for its node. Each dimension name is recorded in cx.usedDims (first use first; a product
//     records the names it multiplies, never itself, so "dims" holds names only), and the warning its first use
//     owes (DimTable firstUse: a name with no value, a renamed ONNX name, a derived or unknown name) is given
//     then, naming the node; a product owes none of its own
//   fail(where, message, code) → OnnxImportError for a node ({node, index, path}) or a named part ({label, path})
//   warn(cx, text) — at most limits.maxWarnings are kept, then a count of the rest
// How an output's shape is settled from inference and the model's declarations is settle.js.
// Tested by tests/onnx/onnx-import.test.mjs and tests/onnx/onnx-dims.test.mjs.

import { DIM_NAME, dimNames, isName, productOf, productText } from './dim-names.js';
import { dtypeFields, elementType, elementTypeName } from './dtypes.js';
import { OnnxImportError, nodeError, nodeTitle } from './errors.js';

export function newBuild(limits, dims) {
  return {
    limits,
    dims,
    usedDims: new Set(),
    ops: [],
    taken: new Map(),
    warnings: [],
    suppressed: 0,
    declared: new Map(),
    stats: { nodes: 0, ops: 0, opaque: 0, initializers: 0 },
    provenance: [],
    outputs: new Map(),
  };
}

export function fail(where, message, code) {
  if (where.node) return nodeError(where, message, code);
  return new OnnxImportError(`${where.label} at ${where.path}: ${message}`, {
    node: where.label,
    path: where.path,
    code,
  });
}

export function warn(cx, text) {
  if (cx.warnings.length < cx.limits.maxWarnings) cx.warnings.push(text);
  else cx.suppressed += 1;
}

export const whereLabel = (where) => (where.node ? nodeTitle(where.node, where.index) : where.label);

function uniqueName(cx, base) {
  let n = cx.taken.get(base);
  if (n === undefined) {
    cx.taken.set(base, 1);
    return base;
  }
  let name;
  do name = `${base}_${++n}`;
  while (cx.taken.has(name));
  cx.taken.set(base, n);
  cx.taken.set(name, 1);
  return name;
}

const MAX_NAME_BYTES = 64; // docs/design.md §16
const validName = (n) => DIM_NAME.test(n) && n.length <= MAX_NAME_BYTES;
// A number, a name, or a product in the canonical text the core keeps (dim-names.js productText).
const validDim = (d) =>
  isName(d)
    ? productOf(d).names.every(validName) && productText(productOf(d)) === d
    : Number.isSafeInteger(d) && d >= 0;

function checkShape(cx, shape, where, name) {
  const { maxRank, maxElements } = cx.limits;
  if (!Array.isArray(shape) || shape.length > maxRank || !shape.every(validDim)) {
    throw fail(
      where,
      `'${name}' gets the invalid shape [${shape}] (rank at most ${maxRank}, dims integers ≥ 0, names or products of names)`,
      'invalid_shape',
    );
  }
  if (shape.reduce((a, d) => a * cx.dims.valueOf(d), 1) > maxElements) {
    const at = shape.some(isName) ? ' at the default dims' : '';
    throw fail(where, `'${name}' has shape [${shape}], more than ${maxElements} elements${at}`, 'too_large');
  }
}

// Records the names a shape uses; the first use of each gives the warning it owes.
function useDims(cx, shape, where, name) {
  for (const n of shape.flatMap(dimNames)) {
    if (cx.usedDims.has(n)) continue;
    cx.usedDims.add(n);
    const note = cx.dims.firstUse(n, name);
    if (note) warn(cx, `${whereLabel(where)}: ${note}`);
  }
}

export function checkDtype(where, name, dtype) {
  const t = elementType(dtype);
  if (!t) {
    const why = dtype === 8 ? 'strings have no fixed size' : 'the graph has no such element type';
    throw fail(
      where,
      `'${name}' has element type ${elementTypeName(dtype)}; ${why}, so it cannot be imported`,
      'unsupported_dtype',
    );
  }
  return t;
}

export function emit(cx, { name, kind, inputs = [], shape, dtype, label = '', region = '' }, where, record = null) {
  checkShape(cx, shape, where, name);
  useDims(cx, shape, where, name);
  if (checkDtype(where, name, dtype).subByte) {
    warn(cx, `${whereLabel(where)}: '${name}' is ${elementTypeName(dtype)}, counted as 1 byte per element`);
  }
  const op = { name: uniqueName(cx, name), kind };
  if (inputs.length) op.inputs = inputs.map((i) => cx.ops[i].name);
  Object.assign(op, { shape }, dtypeFields(dtype));
  if (label) op.label = label;
  if (region) op.region = region;
  cx.ops.push(op);
  if (kind === 'opaque') cx.stats.opaque += 1;
  record?.ops.push(cx.ops.length - 1);
  return cx.ops.length - 1;
}
