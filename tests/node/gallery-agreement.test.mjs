// gallery-agreement.test.mjs — the PyTorch exporter and the ONNX importer describe each gallery model alike.
//
// For every model of examples/models/ (written by tools/make_gallery.py), the exporter's graph (<id>.json, from
// tools/torch_export.py) and the importer's graph of <id>.onnx (web/src/onnx/import.js), both planned by the WASM
// core, have the same op count, the same groups and the same bytes, unfused and fused, under the seed strategy
// and every other strategy the core knows (xla, tvm, inductor).
//
// Names differ (ONNX says "/layer1/layer1.0/conv1/Conv_output_0", the exporter "layer1.0.conv1"), so groups are
// compared by structure: a group is its pattern label, the bytes it reads and writes, and its members, each as
// kind + shape + dtype. A source is compared by element count, not shape: ONNX keeps a 3-D Linear's weight
// transposed ([in, out], folded from Transpose(weight)), PyTorch as [out, in]. The plans must hold equal
// multisets of groups and of edge verdicts, and equal totals.
//
// One documented difference is removed first: a Python number or a shape list is no tensor in PyTorch (so no op
// in the exporter's graph), while ONNX passes it as a Constant tensor (Reshape's target shape, the 1/√d of
// attention). foldConstantOperands drops exactly those from the ONNX graph — `constant` ops of at most 8
// elements, rank ≤ 1, read only by `reshape` or elementwise ops — and FOLDED says how many each model has.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { before, test } from 'node:test';

import { loadFusion } from '../../wasm/fusion.mjs';
import { importOnnx } from '../../web/src/onnx/import.js';
import { categoryOf } from '../../web/src/op-kinds.js';

const DIR = new URL('../../examples/models/', import.meta.url);
// Constant operands of each model's ONNX graph that PyTorch passes as Python values.
const FOLDED = { 'resnet18': 0, 'mobilenet-v2': 0, 'bert-layer': 5, 'mlp-gelu': 0 };
const STRATEGIES = ['seed', 'xla', 'tvm', 'inductor'];
const MAX_ONNX_BYTES = 300_000;

let fusion;
before(async () => { fusion = await loadFusion(); });

const numel = (shape) => shape.reduce((a, b) => a * b, 1);
const exported = (id) => JSON.parse(readFileSync(new URL(`${id}.json`, DIR), 'utf8'));
const imported = (id) => importOnnx(readFileSync(new URL(`${id}.onnx`, DIR)), { fileName: `${id}.onnx` });

// The ONNX graph without its constant operands (see the header), and the names of those removed.
function foldConstantOperands(graph) {
  const readers = new Map();
  for (const op of graph.ops) for (const name of op.inputs ?? []) readers.set(name, [...(readers.get(name) ?? []), op]);
  const operand = (op) => op.kind === 'constant' && !op.inputs?.length && op.shape.length <= 1 && numel(op.shape) <= 8 &&
    readers.has(op.name) && readers.get(op.name).every((r) => r.kind === 'reshape' || categoryOf(r.kind) === 'elementwise');
  const folded = new Set(graph.ops.filter(operand).map((op) => op.name));
  const ops = graph.ops.filter((op) => !folded.has(op.name))
    .map((op) => (op.inputs ? { ...op, inputs: op.inputs.filter((name) => !folded.has(name)) } : op));
  return { graph: { ops }, folded: [...folded] };
}

// A plan reduced to what does not depend on names or op order.
function shapeOfPlan(graph, plan) {
  const member = (i) => {
    const op = graph.ops[i];
    const size = op.inputs?.length ? `[${op.shape}]` : `(${numel(op.shape)})`;
    return `${op.kind}${size} ${op.dtype ?? `${op.dtype_bytes}B`}`;
  };
  const group = (g) => `${g.label || '-'} | read ${g.bytes_read} write ${g.bytes_written} | ${g.ops.map(member).sort().join(' + ')}`;
  return {
    ops: graph.ops.length,
    groups: plan.groups.map(group).sort(),
    edges: plan.edges.map((e) => (e.fused ? 'fused' : e.reason)).sort(),
    bytes_unfused: plan.bytes_unfused,
    bytes_fused: plan.bytes_fused,
    kernels: [plan.kernels_unfused, plan.kernels_fused],
    flops: [plan.flops_unfused, plan.flops_fused],
  };
}

// The plan of a graph under a strategy, or null when this core does not know the strategy yet.
function planUnder(graph, strategy) {
  const plan = fusion.plan(JSON.stringify(graph), { strategy });
  if (!plan.ok && plan.error.code === 'unknown_strategy') return null;
  assert.equal(plan.ok, true, `${strategy}: ${JSON.stringify(plan.error)}`);
  return plan;
}

test('examples/models holds the gallery models, each as .json and a small .onnx', () => {
  const files = readdirSync(DIR).sort();
  const ids = Object.keys(FOLDED).sort();
  assert.deepEqual(files, ids.flatMap((id) => [`${id}.json`, `${id}.onnx`]).sort());
  for (const id of ids) assert.ok(readFileSync(new URL(`${id}.onnx`, DIR)).length < MAX_ONNX_BYTES, `${id}.onnx size`);
});

for (const id of Object.keys(FOLDED)) {
  test(`${id}: the exporter and the ONNX importer give the same ops, groups and bytes`, () => {
    const ours = exported(id);
    const { graph, warnings } = imported(id);
    assert.deepEqual(warnings, [], 'the importer assumed nothing');
    assert.deepEqual(ours.ops.filter((op) => op.kind === 'constant').map((op) => op.name), [], 'no constants in ours');
    const { graph: theirs, folded } = foldConstantOperands(graph);
    assert.equal(folded.length, FOLDED[id], `constant operands folded: ${folded.join(', ')}`);
    let others = 0;
    for (const strategy of STRATEGIES) {
      const a = planUnder(ours, strategy);
      const b = planUnder(theirs, strategy);
      if (!a || !b) continue;
      assert.deepEqual(shapeOfPlan(ours, a), shapeOfPlan(theirs, b), `${id} under ${strategy}`);
      if (strategy !== 'seed') others += 1;
    }
    assert.ok(others >= 1, 'compared under at least one strategy besides seed');
  });
}

test('the fold removes only constant operands: a constant read by a matmul stays', () => {
  const graph = { ops: [
    { name: 'x', kind: 'input', shape: [2, 4], dtype: 'f32' },
    { name: 'shape', kind: 'constant', shape: [1], dtype: 'i64' },
    { name: 'two', kind: 'constant', shape: [], dtype: 'f32' },
    { name: 'w', kind: 'constant', shape: [4], dtype: 'f32' },
    { name: 'flat', kind: 'reshape', inputs: ['x', 'shape'], shape: [8], dtype: 'f32' },
    { name: 'scaled', kind: 'mul', inputs: ['flat', 'two'], shape: [8], dtype: 'f32' },
    { name: 'y', kind: 'matmul', inputs: ['x', 'w'], shape: [2], dtype: 'f32' },
  ] };
  const { graph: out, folded } = foldConstantOperands(graph);
  assert.deepEqual(folded.sort(), ['shape', 'two']);
  assert.deepEqual(out.ops.map((op) => op.name), ['x', 'w', 'flat', 'scaled', 'y']);
  assert.deepEqual(out.ops[2].inputs, ['x']);
});

test('the comparison sees a difference: one extra relu in the ONNX graph changes ops and groups', () => {
  const ours = exported('mlp-gelu');
  const changed = structuredClone(ours);
  const last = changed.ops.at(-1);
  changed.ops.push({ name: 'extra', kind: 'relu', inputs: [last.name], shape: last.shape, dtype: last.dtype });
  const a = shapeOfPlan(ours, planUnder(ours, 'seed'));
  const b = shapeOfPlan(changed, planUnder(changed, 'seed'));
  assert.notEqual(a.ops, b.ops);
  assert.notDeepEqual(a.groups, b.groups);
});
