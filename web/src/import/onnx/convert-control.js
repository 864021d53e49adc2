// convert-control.js — If, Loop and Scan: their bodies become regions of the graph.
//
// Contract: lowerIf / lowerLoop / lowerScan(job) (a lower.js job). Each body graph is converted in a child
// scope whose region is "<outer region>/<node>/<attribute>" (e.g. "cond_if/then_branch"), so every body op
// carries that `region` and nothing fuses across it. Body inputs (Loop: iteration number, condition, carried
// values; Scan: state and one slice of each scanned input) are `input` sources of the region, made when read,
// shaped like the outer values that feed them. Then each used output of the node is one op in the outer
// region that reads the node's inputs and the body results, named after the output and labelled with the
// node's type ("If", "Loop", "Scan"):
//   If    opaque: reads the condition and both branches' k-th results; its shape is
//         theirs when they agree, else the declared one
//   Loop  scan: a carried value has the body's shape; a scan output is [trip count, ...] when the trip count
//         is a constant (a number, or a dimension name: Gather of Shape), else the declared shape
//   Scan  scan: state as the body's; a scan output inserts the sequence length at its scan_output_axes entry
//         (opset 8's batched form is handled: batch axis 0, sequence axis 1)
// Bodies are converted by cx.convertGraph (convert.js), so nesting is bounded by LIMITS.maxNesting (survey.js).
// Tested by tests/onnx/onnx-import.test.mjs (subgraph cases) and the ONNX test models with If/Loop/Scan.

import { isName } from './dim-names.js';
import { BOOL, INT64 } from './dtypes.js';
import { ShapeError } from './errors.js';
import { emitOutput } from './lower.js';
import { childScope, lazySource, resolve } from './scope.js';
import { declareTypes, nameDims } from './settle.js';
import { axisIn, intAttr, intsAttr, sameShape } from './shape-util.js';

const nodeLabel = (job) => job.node.name || `#${job.where.index} (${job.node.opType})`;

function bodyGraph(job, attr) {
  const g = job.attrs.get(attr);
  if (!g || !Array.isArray(g.node)) throw new ShapeError(`attribute '${attr}' must be a graph`, 'bad_attribute');
  return g;
}

// Converts one body; bindings[k] = {shape, dtype} of body input k (null: use its declared type). Returns the
// values of the body's outputs.
function convertBody(job, attr, bindings) {
  const { cx, scope, where } = job;
  const graph = bodyGraph(job, attr);
  const region = `${scope.region ? `${scope.region}/` : ''}${nodeLabel(job)}/${attr}`;
  const body = childScope(scope, region);
  const path = `${where.path}.${attr}`;
  declareTypes(cx, graph);
  graph.input.forEach((vi, k) => {
    const inWhere = { label: `body input '${vi.name}'`, path: `${path}.input[${k}]` };
    const declared = cx.declared.get(vi.name);
    const bound = bindings[k] ?? bodyInputFromDeclared(cx, vi.name, declared);
    body.values.set(vi.name, lazySource(cx, { name: vi.name, kind: 'input', ...bound, region }, inWhere));
  });
  cx.convertGraph(cx, graph, body, path);
  return graph.output.map((o) => resolve(body, o.name));
}

function bodyInputFromDeclared(cx, name, declared) {
  if (!declared?.dims || !declared.elemType) {
    throw new ShapeError(
      `body input '${name}' has no outer value to take its shape from and declares none`,
      'unknown_shape',
    );
  }
  return { shape: nameDims(cx, name, declared.dims), dtype: declared.elemType };
}

const valueInfo = (v) => v && { shape: v.shape, dtype: v.dtype };

export function lowerIf(job) {
  const cond = job.inputs[0];
  if (!cond) throw new ShapeError('If needs its condition input');
  const [then, other] = ['then_branch', 'else_branch'].map((attr) => convertBody(job, attr, []));
  job.node.output.forEach((name, k) => {
    if (!name || !job.cx.used.has(name)) return;
    const [t, e] = [then[k], other[k]];
    if (!t || !e) throw new ShapeError(`a branch has fewer than ${k + 1} outputs`);
    const agree = sameShape(t.shape, e.shape);
    const failure = agree ? null : new ShapeError(`the branches give [${t.shape}] and [${e.shape}]`);
    emitOutput(job, k, { inferred: agree ? valueInfo(t) : null, failure, inputs: [cond, t, e] });
  });
}

export function lowerLoop(job) {
  const [trip, , ...carried] = job.inputs;
  const bindings = [{ shape: [], dtype: INT64 }, { shape: [], dtype: BOOL }, ...carried.map(valueInfo)];
  const results = convertBody(job, 'body', bindings);
  const count = trip?.value?.[0];
  const inputs = [...job.inputs.filter(Boolean), ...results];
  job.node.output.forEach((name, k) => {
    if (!name || !job.cx.used.has(name)) return;
    const r = results[1 + k];
    if (!r) throw new ShapeError(`the body has fewer than ${k + 2} outputs`);
    let inferred = valueInfo(r);
    let failure = null;
    if (k >= carried.length) {
      const known = isName(count) || (Number.isSafeInteger(count) && count >= 0);
      inferred = known ? { shape: [count, ...r.shape], dtype: r.dtype } : null;
      const why = 'the trip count M is not a constant, so scan outputs have unknown length';
      failure = inferred ? null : new ShapeError(why, 'not_constant');
    }
    emitOutput(job, k, { inferred, failure, inputs });
  });
}

export function lowerScan(job) {
  const batched = job.cx.opset < 9; // Scan-8: input 0 is sequence_lens; every tensor has a batch axis 0
  const outer = batched ? job.inputs.slice(1) : job.inputs;
  const m = intAttr(job, 'num_scan_inputs');
  const n = outer.length - m;
  if (!(m > 0) || n < 0 || outer.some((v) => !v))
    throw new ShapeError(`num_scan_inputs ${m} does not fit ${outer.length} inputs`);
  const inAxes = batched ? outer.map(() => 1) : intsAttr(job, 'scan_input_axes', []);
  const scanned = outer.slice(n).map((v, j) => ({ v, axis: axisIn(inAxes[batched ? n + j : j] ?? 0, v.shape.length) }));
  const seq = scanned[0].v.shape[scanned[0].axis];
  const bindings = [
    ...outer.slice(0, n).map((v) => ({ shape: batched ? v.shape.slice(1) : v.shape, dtype: v.dtype })),
    ...scanned.map(({ v, axis }) => ({
      shape: v.shape.filter((_, i) => i !== axis && !(batched && i === 0)),
      dtype: v.dtype,
    })),
  ];
  const results = convertBody(job, 'body', bindings);
  const outAxes = intsAttr(job, 'scan_output_axes', []);
  const batch = batched ? outer[0].shape[0] : null;
  const inputs = [...job.inputs.filter(Boolean), ...results];
  job.node.output.forEach((name, k) => {
    if (!name || !job.cx.used.has(name)) return;
    const r = results[k];
    if (!r) throw new ShapeError(`the body has fewer than ${k + 1} outputs`);
    let shape = r.shape;
    if (k >= n) {
      const axis = batched ? 0 : axisIn(outAxes[k - n] ?? 0, r.shape.length + 1);
      shape = [...r.shape.slice(0, axis), seq, ...r.shape.slice(axis)];
    }
    emitOutput(job, k, {
      inferred: { shape: batched ? [batch, ...shape] : shape, dtype: r.dtype },
      failure: null,
      inputs,
    });
  });
}
