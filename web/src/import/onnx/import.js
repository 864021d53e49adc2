// import.js — the ONNX importer's public entry: an .onnx file's bytes → a graph for the planner.
//
//   importOnnx(bytes: Uint8Array, { fileName, dims } = {})
//     → { graph: { dims?: {name: value}, ops: [...] }, warnings: string[],
//         stats: { nodes, ops, opaque, initializers } }
//   class OnnxImportError extends Error { node, opType, path, code }
//
// Runs in browsers and in Node (ES modules; the protobuf schema comes from the npm package onnx-buf). The graph
// follows docs/design.md §2: op names are ONNX tensor names (unique), inputs are names (statically known
// attributes in disguise and scalar operands of elementwise ops are part of their op: operands.js), `dtype` (or
// `dtype_bytes`) from the ONNX element type, `label` (the ONNX op type) on opaque, nearest-kind and If/Loop/Scan
// ops, `output: true` on graph outputs, `region` on ops inside If/Loop/Scan bodies. What each op type becomes is
// op-table.js (docs/onnx.md); shapes come from shape-inference.js, checked against the shapes the model declares.
// Named dimensions (docs/design.md §16): a symbolic ONNX dimension keeps its name (sanitised), shape inference
// carries names through, a size that is a product of names is written as one ("batch*seq", canonical text:
// dim-names.js), and an unknown dimension gets a fresh name; never a silent 1. The graph then carries "dims", a
// default value for every name its shapes use (a product's names, not the product): `dims` (by ONNX or sanitised
// name) gives them, and a name without one gets 1 and a warning saying how to set it. A graph without names has
// no "dims".
// `dims` values must be whole numbers ≥ 0 (else an OnnxImportError, code 'invalid_option').
// stats: nodes converted (subgraphs included), ops emitted, opaque ops, initializers that became constant ops
// (unused ones are dropped). Warnings say what was assumed (names without a value, derived and unknown names,
// declared shapes preferred, ...). Every failure is an OnnxImportError naming the node; `fileName` only prefixes
// messages. Limits (node count, nesting, tensor size) are LIMITS in convert.js.
// Tested by tests/onnx/onnx-import.test.mjs, tests/onnx/onnx-dims.test.mjs and, over ONNX's own test models,
// tests/onnx/onnx-testdata.test.mjs.

import { convertModel } from './convert.js';
import { decodeModel } from './decode.js';
import { OnnxImportError } from './errors.js';

export { OnnxImportError };

function checkDims(dims) {
  if (dims === undefined) return {};
  const bad = (v) => !Number.isSafeInteger(v) || v < 0;
  if (!dims || typeof dims !== 'object' || Array.isArray(dims) || Object.values(dims).some(bad)) {
    throw new OnnxImportError('options: dims must map dimension names to whole numbers ≥ 0, e.g. {batch: 8}', {
      node: 'options',
      path: 'options.dims',
      code: 'invalid_option',
    });
  }
  return dims;
}

export function importOnnx(bytes, { fileName, dims } = {}) {
  try {
    const r = convertModel(decodeModel(bytes), { dims: checkDims(dims) });
    const graph = Object.keys(r.dims).length ? { dims: r.dims, ops: r.ops } : { ops: r.ops };
    return { graph, warnings: r.warnings, stats: r.stats };
  } catch (error) {
    if (fileName && error instanceof OnnxImportError) error.message = `${fileName}: ${error.message}`;
    throw error;
  }
}
