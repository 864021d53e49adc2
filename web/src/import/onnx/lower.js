// lower.js — how one ONNX node becomes ops (the 'node', 'gemm', 'elide' and 'source' lowerings of op-table.js).
//
// Contract: each lowering takes a job {cx, scope, where, record, row, node, inputs, attrs} (inputs are scope
// values, null for an absent optional input), emits the node's ops through emit.js and binds each output
// tensor name in job.scope. infer(job) runs the row's shape rule (its context carries the import's DimTable,
// so rules can name dimensions); emitOutput settles one output's shape (settle.js) and emits its op, named after
// the output tensor and labelled with the ONNX type when op-table.js hasLabel says so. The inputs an op reads
// are chosen by operands.js (statically known attributes in disguise and scalar operands of elementwise ops are
// part of the op). Shape problems are thrown as ShapeError and named by convert.js.
// Tested by tests/onnx/onnx-import.test.mjs.

import { foldValue } from './const-fold.js';
import { BOOL } from './dtypes.js';
import { ShapeError, nodeTitle } from './errors.js';
import { checkDtype, emit, warn } from './emit.js';
import { hasLabel } from './op-table.js';
import { readInputs } from './operands.js';
import { RULES } from './shape-inference.js';
import { lazySource, opOf } from './scope.js';
import { settle } from './settle.js';

const label = (job) => nodeTitle(job.node, job.where.index);

// The rule's results for every output ([] when there is no rule), or the ShapeError that stopped it.
export function infer(job) {
  const ctx = ruleContext(job);
  if (!job.row.shape) return { ctx, inferred: [], failure: null };
  try {
    const inferred = RULES[job.row.shape](ctx).map((r) => r && { ...r, dtype: r.dtype ?? job.inputs[0]?.dtype });
    return { ctx, inferred, failure: null };
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    return { ctx, inferred: [], failure: error };
  }
}

const ruleContext = (job) => ({
  inputs: job.inputs,
  attrs: job.attrs,
  outputs: job.node.output.length,
  opset: job.cx.opset,
  valueCap: job.cx.limits.valueCap,
  dims: job.cx.dims,
});

// The label of the node's ops: its ONNX type for opaque, nearest-kind and control-flow ops, else none.
const opLabel = (job) => (hasLabel(job.row) ? job.node.opType : '');

// Emits the op for output k, named after the tensor (shape settled here, or given as `out`), and binds the
// tensor name to it.
export function emitOutput(job, k, { inferred, failure, out, kind = job.row.kind, inputs }) {
  const { cx, scope, where, record, node } = job;
  const tensor = node.output[k];
  const shaped = out ?? settle(cx, where, tensor, inferred, failure);
  const spec = { name: tensor, kind, inputs: inputs.map(opOf), ...shaped, label: opLabel(job), region: scope.region };
  const op = emit(cx, spec, where, record);
  scope.values.set(tensor, { op, ...shaped, value: null });
}

const usedOutputs = (job) => job.node.output.flatMap((name, k) => (name && job.cx.used.has(name) ? [k] : []));

// 'node': one op per used output (the first output when none is used, so that no node disappears). A node with
// one output whose value is known statically (shape arithmetic: Gather, Concat, Cast, ... of constants) is
// folded into a constant instead, made into an op only if something reads it.
export function lowerNode(job) {
  const { ctx, inferred, failure } = infer(job);
  const single = job.node.output.length === 1 && job.node.output[0];
  const out0 =
    single && (inferred[0] || !failure) ? settle(job.cx, job.where, job.node.output[0], inferred[0], failure) : null;
  const value = out0 && (inferred[0]?.value ?? foldValue(job.node.opType, ctx, out0));
  if (value) return void bindConstant(job, 0, out0, value);
  let outs = usedOutputs(job);
  if (outs.length === 0 && job.node.output[0]) {
    warn(job.cx, `${label(job)}: no output is used; kept as a graph terminal`);
    outs = [0];
  }
  const inputs = readInputs(job.row, job.row.kind, job.inputs);
  for (const k of outs)
    emitOutput(job, k, { inferred: inferred[k], failure, out: k === 0 ? (out0 ?? undefined) : undefined, inputs });
}

// 'gemm': Y = matmul(A, B), then Y = add(matmul, C) when C is given.
export function lowerGemm(job) {
  const { inferred, failure } = infer(job);
  const [a, b, c] = job.inputs;
  if (!a || !b) throw new ShapeError('Gemm needs inputs A and B');
  if (!c) return void emitOutput(job, 0, { inferred: inferred[0], failure, inputs: [a, b] });
  const y = job.node.output[0];
  const out = settle(job.cx, job.where, y, inferred[0], failure);
  const spec = { name: `${y}/matmul`, kind: 'matmul', inputs: [opOf(a), opOf(b)], ...out, region: job.scope.region };
  const mm = emit(job.cx, spec, job.where, job.record);
  emitOutput(job, 0, { out, kind: 'add', inputs: readInputs(job.row, 'add', [{ op: mm }, c]) });
}

// 'elide': the output is the input (Identity, Dropout at inference); a used Dropout mask is a bool constant.
export function lowerElide(job) {
  const x = job.inputs[0];
  if (!x) throw new ShapeError('input 0 is required but missing');
  if (job.node.output[0]) job.scope.values.set(job.node.output[0], x);
  const training = job.inputs[2];
  if (training && !(training.value && training.value[0] === 0)) {
    warn(job.cx, `${label(job)}: training mode is imported as inference (the output is the input)`);
  }
  if (job.node.output[1]) bindSource(job, 1, { shape: x.shape, dtype: BOOL }, null);
}

// Binds output k to a constant that becomes an op only if something reads it.
function bindSource(job, k, inferred, failure) {
  const tensor = job.node.output[k];
  if (!job.cx.used.has(tensor)) return;
  if (inferred) checkDtype(job.where, tensor, inferred.dtype);
  bindConstant(job, k, settle(job.cx, job.where, tensor, inferred, failure), inferred?.value ?? null);
}

function bindConstant(job, k, out, known) {
  const tensor = job.node.output[k];
  const spec = { name: tensor, kind: 'constant', ...out, region: job.scope.region };
  job.record.folded = known !== null && job.row.lower === 'node';
  job.scope.values.set(tensor, lazySource(job.cx, spec, job.where, { record: job.record, readValue: () => known }));
}

// 'source': a constant without inputs whose value the rule knows; made into an op only if something reads it
// (so a Shape read only by ConstantOfShape, which drops its input, leaves no op).
export function lowerSource(job) {
  const { inferred, failure } = infer(job);
  if (job.node.output[0]) bindSource(job, 0, inferred[0], failure);
}
