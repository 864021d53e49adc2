// import.js — the ONNX importer's public entry: an .onnx file's bytes → a graph for the planner.
//
//   importOnnx(bytes: Uint8Array, { fileName } = {})
//     → { graph: { ops: [...] }, warnings: string[], stats: { nodes, ops, opaque, initializers } }
//   class OnnxImportError extends Error { node, opType, path, code }
//
// Runs in browsers and in Node (ES modules; the protobuf schema comes from the npm package onnx-buf). The graph
// follows docs/design.md §2: op names are ONNX tensor names (unique), inputs are names (statically known
// attributes in disguise and scalar operands of elementwise ops are part of their op: operands.js), `dtype` (or
// `dtype_bytes`) from the ONNX element type, `label` (the ONNX op type) on opaque, nearest-kind and If/Loop/Scan
// ops, `output: true` on graph outputs, `region` on ops inside If/Loop/Scan bodies. What each op type becomes is
// op-table.js (docs/onnx.md); shapes come from shape-inference.js, checked
// against the shapes the model declares. stats: nodes converted (subgraphs included), ops emitted, opaque ops,
// initializers that became constant ops (unused ones are dropped). Warnings say what was assumed (symbolic dims
// taken as 1, declared shapes preferred, ...). Every failure is an OnnxImportError naming the node; `fileName`
// only prefixes messages. Limits (node count, nesting, tensor size) are LIMITS in convert.js.
// Tested by tests/onnx/onnx-import.test.mjs and, over ONNX's own test models, tests/onnx/onnx-testdata.test.mjs.

import { convertModel } from './convert.js';
import { decodeModel } from './decode.js';
import { OnnxImportError } from './errors.js';

export { OnnxImportError };

export function importOnnx(bytes, { fileName } = {}) {
  try {
    const { ops, warnings, stats } = convertModel(decodeModel(bytes));
    return { graph: { ops }, warnings, stats };
  } catch (error) {
    if (fileName && error instanceof OnnxImportError) error.message = `${fileName}: ${error.message}`;
    throw error;
  }
}
