// errors.js — OnnxImportError, the one error the ONNX importer throws, and how a node is named in it.
//
// Contract: every import failure (corrupt bytes, an unsupported construct, a shape that cannot be known, a
// size cap) is an OnnxImportError with
//   node    the node's name, or `#<index> (<OpType>)` for an unnamed node; for a failure that belongs to no
//           node, the tensor or part of the model concerned (e.g. "graph input 'x'", "model")
//   opType  the node's ONNX op type ('' when no node is concerned)
//   path    where in the model: "graph.node[12]", "graph.node[3].then_branch.node[0]", "graph.input[1]", "model"
//   code    a stable lower_snake_case reason (docs/onnx.md lists them), for tallies and tests
// and a message that starts with the node and says what is unsupported and how to get past it.
// Shape-rule failures inside shape-inference.js are ShapeError (a plain reason) that the converter turns into
// an OnnxImportError naming the node. Tested by tests/onnx/onnx-import.test.mjs.

export class OnnxImportError extends Error {
  constructor(message, { node = 'model', opType = '', path = 'model', code = 'invalid_model' } = {}) {
    super(message);
    this.name = 'OnnxImportError';
    this.node = node;
    this.opType = opType;
    this.path = path;
    this.code = code;
  }
}

// A shape rule's failure: what is wrong, without knowing which node; `code` as in OnnxImportError.
export class ShapeError extends Error {
  constructor(message, code = 'shape_inference') {
    super(message);
    this.name = 'ShapeError';
    this.code = code;
  }
}

// How errors and warnings name a node: its name, or `#index (OpType)` when it has none.
export const nodeLabel = (node, index) => node.name || `#${index} (${node.opType})`;

// How messages name a node: "node 'conv1' (Conv)", or "node #3 (Conv)" when it has no name.
export const nodeTitle = (node, index) =>
  node.name ? `node '${node.name}' (${node.opType})` : `node #${index} (${node.opType})`;

// An OnnxImportError about one node: "node 'conv1' (Conv) at graph.node[3]: <what>".
export function nodeError(where, what, code) {
  const { node, index, path } = where;
  return new OnnxImportError(`${nodeTitle(node, index)} at ${path}: ${what}`, {
    node: nodeLabel(node, index),
    opType: node.opType,
    path,
    code,
  });
}
