// operands.js — which of a node's inputs its ops read: the rule that the importer and the PyTorch exporter
// (tools/torch_export.py) both follow, so that a model described by either has the same ops (docs/onnx.md,
// "Operands that are part of the op").
//
// Contract: readInputs(row, kind, inputs) → the inputs (scope values; null for an absent optional input) that an
// op of `kind` made for a node of op-table row `row` reads, in order. A statically known input — an initializer,
// a Constant, a value folded from those (isStatic) — is left out when
//   1. it is an attribute in disguise: its index is in row.operands (Reshape's shape, Slice's starts…steps,
//      Pad's pads, Clip's min and max, Resize's scales, the axes of reductions, Squeeze and Unsqueeze, …);
//   2. it holds one element and `kind` is elementwise (ELEMENTWISE_KINDS of op-kinds.js, the core's category),
//      as PyTorch passes a Python number (`x / 8`, `x + 1`) inside its op — but only while the op still reads
//      some other input, so no computing op is left without inputs.
// An input left out is no edge and no op on its account (a constant nobody else reads is never made), so its
// bytes are not counted. Run-time values (graph inputs, op results, body inputs) are always read. Tested by
// tests/onnx/onnx-import.test.mjs ("operands that are part of the op").

import { ELEMENTWISE_KINDS } from '../../graph/op-kinds.js';
import { product } from './shape-util.js';

const ELEMENTWISE = new Set(ELEMENTWISE_KINDS);

// A value known before the model runs: a constant source (initializer, Constant node, folded value).
export const isStatic = (value) => value?.kind === 'constant';

const isScalarConstant = (value) => isStatic(value) && product(value.shape) === 1;

export function readInputs(row, kind, inputs) {
  const kept = inputs.filter((v, i) => v && !(row.operands?.[i] && isStatic(v)));
  if (!ELEMENTWISE.has(kind) || kept.every(isScalarConstant)) return kept;
  return kept.filter((v) => !isScalarConstant(v));
}
