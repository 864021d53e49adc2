// convert.js — a decoded ModelProto → graph JSON ops (docs/design.md §2), the importer's main pass.
//
// Contract: convertModel(model, {limits, dims}) → {ops, dims, warnings, stats, outputs, provenance}; throws
// OnnxImportError.
//   ops         graph JSON ops in topological order; names are ONNX tensor names (made unique), inputs are names;
//               a shape entry is a number or a dimension name (docs/design.md §16; dim-names.js)
//   dims        {name: default value} for every dimension name the ops use, in order of first use (the graph's
//               top-level "dims"); the option `dims` gives defaults by ONNX or sanitised name, the rest get 1
//   outputs     Map graph-output name → op index (those ops carry "output": true)
//   provenance  one record per converted node: {opType, domain, path, ops: [op indices it produced]}
// Stages: survey (used names, caps) → the top graph: declared types, initializers (lazy: a constant op is made at
// first use, so unused ones are dropped), graph inputs (`input` ops), nodes in topological order (each lowered
// as op-table.js says), graph outputs. Control-flow bodies run the same graph stage in a child scope
// (convert-control.js); nesting is bounded by LIMITS.maxNesting, everything else is loops. A failure inside a
// node becomes an OnnxImportError naming that node; an unexpected exception too (code 'internal'), never a crash.
// Tested by tests/onnx/onnx-import.test.mjs, tests/onnx/onnx-shapes.test.mjs, tests/onnx/onnx-testdata.test.mjs.

import { lowerIf, lowerLoop, lowerScan } from './convert-control.js';
import { DimTable } from './dim-names.js';
import { OnnxImportError, ShapeError, nodeError } from './errors.js';
import { emit, fail, newBuild, warn } from './emit.js';
import { lowerElide, lowerGemm, lowerNode, lowerSource } from './lower.js';
import { UNKNOWN_OP, lookupOp } from './op-table.js';
import { childScope, lazySource, opOf, resolve } from './scope.js';
import { declareTypes, nameDims, typeWord } from './settle.js';
import { nodeOrder, survey } from './survey.js';
import { attributes, tensorDims, tensorValues } from './tensor.js';

export const LIMITS = Object.freeze({
  maxNodes: 1_000_000, // nodes in all graphs
  maxNesting: 16, // subgraph levels (If inside Loop inside ...)
  maxRank: 64,
  maxElements: 2 ** 48, // elements of one tensor: bytes stay exact integers even for 16-byte elements
  valueCap: 4096, // largest tensor whose values are read or folded (shapes, axes, pads, ...)
  maxWarnings: 100,
});

export function convertModel(model, { limits = LIMITS, dims = {} } = {}) {
  const cx = newBuild(limits, new DimTable(dims));
  cx.used = survey(model, limits).used;
  cx.opset = defaultOpset(model);
  cx.convertGraph = convertGraph; // for control-flow bodies (convert-control.js)
  const scope = childScope(null, '');
  convertGraph(cx, model.graph, scope, 'graph', { inputs: true });
  markOutputs(cx, model.graph, scope);
  warnUnusedDefaults(cx);
  if (cx.suppressed) cx.warnings.push(`… and ${cx.suppressed} more warnings`);
  cx.stats.ops = cx.ops.length;
  const { ops, warnings, stats, outputs, provenance } = cx;
  return { ops, dims: cx.dims.defaultsOf(cx.usedDims), warnings, stats, outputs, provenance };
}

function warnUnusedDefaults(cx) {
  const unused = cx.dims.unusedDefaults();
  if (unused.length === 0) return;
  const used = [...cx.usedDims].join(', ') || 'none';
  warn(cx, `model: no dimension is named ${unused.map((n) => `'${n}'`).join(', ')} (the names used: ${used})`);
}

function defaultOpset(model) {
  const entry = model.opsetImport.find((o) => o.domain === '' || o.domain === 'ai.onnx');
  return entry ? Number(entry.version) : 1;
}

// One graph (the model's, or a body): its declared types, initializers, (top-level) inputs and nodes.
export function convertGraph(cx, graph, scope, path, { inputs = false } = {}) {
  declareTypes(cx, graph);
  addInitializers(cx, graph, scope, path);
  if (inputs) addGraphInputs(cx, graph, scope, path);
  for (const index of nodeOrder(graph, path)) convertNode(cx, scope, path, graph.node[index], index);
}

function addInitializers(cx, graph, scope, path) {
  graph.initializer.forEach((t, k) => {
    const where = { label: `initializer '${t.name}'`, path: `${path}.initializer[${k}]` };
    const spec = {
      name: t.name,
      kind: 'constant',
      shape: guard(where, () => tensorDims(t)),
      dtype: t.dataType,
      region: scope.region,
    };
    const onMake = () => {
      cx.stats.initializers += 1;
    };
    const readValue = () => guard(where, () => tensorValues(t, cx.limits.valueCap));
    scope.values.set(t.name, lazySource(cx, spec, where, { onMake, readValue }));
  });
  graph.sparseInitializer.forEach((s, k) => {
    const name = s.values?.name ?? '';
    const where = { label: `sparse initializer '${name}'`, path: `${path}.sparse_initializer[${k}]` };
    const spec = {
      name,
      kind: 'constant',
      shape: s.dims.map(Number),
      dtype: s.values?.dataType ?? 0,
      region: scope.region,
    };
    scope.values.set(
      name,
      lazySource(cx, spec, where, {
        onMake: () => {
          cx.stats.initializers += 1;
        },
      }),
    );
  });
}

function guard(where, read) {
  try {
    return read();
  } catch (error) {
    if (error instanceof ShapeError) throw fail(where, error.message, 'invalid_model');
    throw error;
  }
}

function addGraphInputs(cx, graph, scope, path) {
  graph.input.forEach((vi, k) => {
    if (scope.values.has(vi.name)) return; // an initializer listed as an input (IR < 4): its value is the default
    const where = { label: `graph input '${vi.name}'`, path: `${path}.input[${k}]` };
    const declared = cx.declared.get(vi.name);
    if (declared?.kind !== 'tensorType') {
      const what = declared ? `a ${typeWord(declared.kind)} value` : 'untyped';
      throw fail(where, `is ${what}; only tensors can be imported`, 'non_tensor');
    }
    if (!declared.dims)
      throw fail(where, 'declares no shape (its rank is unknown); give the input a shape', 'unknown_shape');
    const shape = nameDims(cx, vi.name, declared.dims);
    const op = emit(cx, { name: vi.name, kind: 'input', shape, dtype: declared.elemType ?? 0 }, where);
    scope.values.set(vi.name, { op, shape, dtype: declared.elemType, value: null });
  });
}

function convertNode(cx, scope, graphPath, node, index) {
  const where = { node, index, path: `${graphPath}.node[${index}]` };
  const record = { opType: node.opType, domain: node.domain, path: where.path, ops: [] };
  cx.stats.nodes += 1;
  cx.provenance.push(record);
  try {
    const row = lookupOp(node.domain, node.opType) ?? UNKNOWN_OP;
    const inputs = node.input.map((name) => (name ? resolve(scope, name) : null));
    const job = { cx, scope, where, record, row, node, inputs, attrs: attributes(node) };
    LOWER[row.lower](job);
  } catch (error) {
    throw asImportError(error, where);
  }
}

function asImportError(error, where) {
  if (error instanceof OnnxImportError) return error;
  if (error instanceof ShapeError) return nodeError(where, error.message, error.code);
  return nodeError(
    where,
    `internal error while importing this node (${error?.message ?? error}); please report it`,
    'internal',
  );
}

const LOWER = {
  node: lowerNode,
  gemm: lowerGemm,
  elide: lowerElide,
  source: lowerSource,
  if: lowerIf,
  loop: lowerLoop,
  scan: lowerScan,
};

function markOutputs(cx, graph, scope) {
  graph.output.forEach((o, k) => {
    const where = { label: `graph output '${o.name}'`, path: `graph.output[${k}]` };
    let value;
    try {
      value = resolve(scope, o.name);
    } catch {
      throw fail(where, 'is produced by no node, initializer or graph input', 'invalid_model');
    }
    const op = opOf(value);
    cx.ops[op].output = true;
    cx.outputs.set(o.name, op);
  });
}
