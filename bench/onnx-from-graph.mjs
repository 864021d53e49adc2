// onnx-from-graph.mjs — a generated benchmark graph (the JSON of build/native/bench/fusion-generate) as an ONNX
// model, so the page's importer can be timed and tested on models of any size (tests/browser/page-large.test.mjs,
// bench/page-timing.mjs).
//
// graphToOnnx(graph) → Uint8Array (an ONNX ModelProto, opset 20). Sources become graph inputs with their
// shapes (no weights: the files stay small); each op becomes one ONNX node named after its output tensor
// t<index>; ops nothing reads become graph outputs. Kinds covered: those of the generators' transformer,
// chain, fan, diamonds and adversarial graphs (KINDS); anything else (or a reduction of several tensors) throws
// an Error naming the op. Reduction
// axes and transpose permutations are read off the shapes. Encoded with the importer's own protobuf library
// through tests/onnx/onnx-model-builder.mjs.
import { F16, F32, graph, info, modelBytes, node, tensor, I64 } from '../tests/onnx/onnx-model-builder.mjs';

const ELEMENTWISE = {
  add: 'Add',
  sub: 'Sub',
  mul: 'Mul',
  div: 'Div',
  gelu: 'Gelu',
  relu: 'Relu',
  exp: 'Exp',
  neg: 'Neg',
  tanh: 'Tanh',
  sigmoid: 'Sigmoid',
  matmul: 'MatMul',
  softmax: 'Softmax',
};
const REDUCE = { reduce_mean: 'ReduceMean', reduce_sum: 'ReduceSum', reduce_max: 'ReduceMax' };
export const KINDS = ['input', 'constant', 'transpose', ...Object.keys(ELEMENTWISE), ...Object.keys(REDUCE)];

const elemType = (op) => ((op.dtype_bytes ?? { f16: 2, f32: 4 }[op.dtype] ?? 4) === 2 ? F16 : F32);

// The axes a keepdims reduction from `from` to `to` removed.
function reducedAxes(from, to, where) {
  if (from.length !== to.length) throw new Error(`${where}: a reduction must keep its rank here`);
  return from.flatMap((d, k) => (d !== to[k] ? [k] : []));
}

// A permutation taking shape `from` to shape `to` (the reverse when it fits).
function permutation(from, to, where) {
  const reverse = [...from.keys()].reverse();
  if (reverse.every((k, j) => from[k] === to[j])) return reverse;
  const used = new Set();
  return to.map((d) => {
    const k = from.findIndex((x, i) => x === d && !used.has(i));
    if (k < 0) throw new Error(`${where}: no permutation of [${from}] gives [${to}]`);
    used.add(k);
    return k;
  });
}

export function graphToOnnx({ ops }) {
  const name = (i) => `t${i}`;
  const ref = (r) => (typeof r === 'number' ? r : ops.findIndex((o) => o.name === r));
  const inputs = [];
  const nodes = [];
  const initializers = [];
  const read = new Set();
  ops.forEach((op, i) => {
    const where = `op ${i} (${op.kind})`;
    const args = (op.inputs ?? []).map(ref);
    args.forEach((a) => read.add(a));
    if (op.kind === 'input' || op.kind === 'constant') inputs.push(info(name(i), elemType(op), op.shape));
    else if (ELEMENTWISE[op.kind])
      nodes.push(node(ELEMENTWISE[op.kind], args.map(name), [name(i)], op.kind === 'softmax' ? { axis: -1 } : {}));
    else if (REDUCE[op.kind]) {
      if (args.length !== 1) throw new Error(`${where}: an ONNX reduction reads one tensor, not ${args.length}`);
      const axes = reducedAxes(ops[args[0]].shape, op.shape, where);
      initializers.push(tensor(`axes${i}`, I64, [axes.length], axes));
      nodes.push(
        node(REDUCE[op.kind], [name(args[0]), `axes${i}`], [name(i)], {
          keepdims: 1,
          noop_with_empty_axes: axes.length ? 0 : 1,
        }),
      );
    } else if (op.kind === 'transpose') {
      nodes.push(
        node('Transpose', [name(args[0])], [name(i)], { perm: permutation(ops[args[0]].shape, op.shape, where) }),
      );
    } else throw new Error(`${where}: kind ${op.kind} has no ONNX form here (covered: ${KINDS.join(', ')})`);
  });
  const outputs = ops.flatMap((op, i) =>
    read.has(i) || op.kind === 'input' || op.kind === 'constant' ? [] : [info(name(i), elemType(op), op.shape)],
  );
  return modelBytes(graph({ name: 'generated', inputs, outputs, nodes, initializers }), { opset: 20 });
}
