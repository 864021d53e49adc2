// emit.js — the graph being built: ops, unique names, warnings, and the rule that settles each output's shape
// from what shape inference says and what the model declares.
//
// Contract:
//   newBuild(limits) → the build state {ops, warnings, stats, declared, ...} that convert.js threads through
//   emit(cx, op, where, record?) → op index; checks the shape (rank, integer dims, element cap) and the dtype,
//     makes the name unique (suffix "_2", "_3", ...), writes inputs as names and `label`, `region` when given;
//     `record` collects the op for its node
//   settle(cx, where, name, inferred, failure) → {shape, dtype}: the inferred shape where there is one, checked
//     against a declared shape (a declared concrete dim that differs wins, with a warning); else the declared
//     shape with symbolic or unknown dims taken as SYMBOLIC_DIM (a warning per symbol); else an
//     OnnxImportError naming the node. A declared non-tensor type (sequence, map, optional) is an error.
//   declareTypes(cx, graph) — records a graph's declared types {kind, elemType, dims} by tensor name
//   fail(where, message, code) → OnnxImportError for a node ({node, index, path}) or a named part ({label, path})
//   warn(cx, text) — at most limits.maxWarnings are kept, then a count of the rest
// Tested by tests/onnx/onnx-import.test.mjs.

import { dtypeFields, elementType, elementTypeName } from './dtypes.js';
import { OnnxImportError, nodeError, nodeTitle } from './errors.js';
import { declaredDims } from './shape-util.js';

// What a symbolic ("batch") or unknown dimension becomes; every use is reported in the warnings.
export const SYMBOLIC_DIM = 1;

export function newBuild(limits) {
  return {
    limits,
    ops: [],
    taken: new Map(),
    warnings: [],
    suppressed: 0,
    warnedSymbols: new Set(),
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

function checkShape(cx, shape, where, name) {
  const { maxRank, maxElements } = cx.limits;
  if (!Array.isArray(shape) || shape.length > maxRank || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
    throw fail(
      where,
      `'${name}' gets the invalid shape [${shape}] (rank at most ${maxRank}, dims integers ≥ 0)`,
      'invalid_shape',
    );
  }
  if (shape.reduce((a, b) => a * b, 1) > maxElements) {
    throw fail(where, `'${name}' has shape [${shape}], more than ${maxElements} elements`, 'too_large');
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

// Declared dims → numbers: a symbol or an unknown dim becomes SYMBOLIC_DIM, reported once per symbol.
export function concretize(cx, where, name, dims) {
  return dims.map((d, i) => {
    if (typeof d === 'number') return d;
    const key = typeof d === 'string' ? d : `${name}[${i}]`;
    if (!cx.warnedSymbols.has(key)) {
      cx.warnedSymbols.add(key);
      const what = typeof d === 'string' ? `symbolic dimension '${d}'` : `unknown dimension ${i}`;
      warn(cx, `${whereLabel(where)}: ${what} of '${name}' taken as ${SYMBOLIC_DIM}`);
    }
    return SYMBOLIC_DIM;
  });
}

// An inferred shape checked against the declared dims: concrete declared dims that differ win, with a warning.
function reconcile(cx, where, name, shape, dims) {
  const agree = dims.length === shape.length && dims.every((d, i) => typeof d !== 'number' || d === shape[i]);
  if (agree) return shape;
  const declared = dims.map((d) => d ?? '?');
  warn(
    cx,
    `${whereLabel(where)}: shape of '${name}' inferred as [${shape}] but the model declares [${declared}]; using the declared shape`,
  );
  return dims.length === shape.length
    ? dims.map((d, i) => (typeof d === 'number' ? d : shape[i]))
    : concretize(cx, where, name, dims);
}

// Records the types a graph declares (inputs, value_info, outputs) in cx.declared, by tensor name.
export function declareTypes(cx, graph) {
  for (const vi of [...graph.input, ...graph.valueInfo, ...graph.output]) {
    const type = vi.type?.value;
    if (!type?.case) continue;
    const tensor = type.case === 'tensorType' ? type.value : null;
    const dims = tensor ? declaredDims(tensor.shape) : null;
    cx.declared.set(vi.name, { kind: type.case, elemType: tensor?.elemType || undefined, dims });
  }
}

const NON_TENSOR = {
  sequenceType: 'sequence',
  mapType: 'map',
  optionalType: 'optional',
  sparseTensorType: 'sparse tensor',
};

// What a declared non-tensor type is called in messages.
export const typeWord = (kind) => NON_TENSOR[kind] ?? kind;

export function settle(cx, where, name, inferred, failure) {
  const declared = cx.declared.get(name);
  if (declared && declared.kind !== 'tensorType' && declared.kind) {
    throw fail(where, `'${name}' is a ${typeWord(declared.kind)} value; only tensors can be imported`, 'non_tensor');
  }
  let shape;
  if (inferred?.shape)
    shape = declared?.dims ? reconcile(cx, where, name, inferred.shape, declared.dims) : inferred.shape;
  else if (declared?.dims) {
    if (failure)
      warn(
        cx,
        `${whereLabel(where)}: could not infer the shape of '${name}' (${failure.message}); using the declared shape`,
      );
    shape = concretize(cx, where, name, declared.dims);
  } else {
    const why = failure
      ? `${failure.message}, and the model declares no shape for '${name}'`
      : `the model declares no shape for output '${name}' and no shape rule applies`;
    throw fail(where, why, failure?.code ?? 'unknown_shape');
  }
  let dtype = inferred?.dtype;
  if (declared?.elemType) {
    if (dtype !== undefined && dtype !== declared.elemType) {
      const [inferredType, declaredType] = [elementTypeName(dtype), elementTypeName(declared.elemType)];
      warn(
        cx,
        `${whereLabel(where)}: element type of '${name}' inferred as ${inferredType} but the model declares ${declaredType}; using the declared type`,
      );
    }
    dtype = declared.elemType;
  }
  if (dtype === undefined)
    throw fail(where, `the element type of '${name}' is unknown (the model declares none)`, 'unknown_shape');
  return { shape, dtype };
}
