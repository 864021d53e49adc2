// gallery-agreement.test.mjs — the PyTorch exporter and the ONNX importer describe each gallery model alike.
//
// For every model of examples/models/ (written by tools/make_gallery.py), the exporter's graph (<id>.json, from
// tools/torch_export.py) and the importer's graph of <id>.onnx (web/src/import/onnx/import.js), both planned by the WASM
// core, have the same op count, the same groups and the same bytes, unfused and fused, under the seed strategy
// and every other strategy the core knows (xla, tvm, inductor). The graphs are compared as the tools write
// them: nothing is filtered. What makes that possible is the operand rule both follow (docs/onnx.md, "Operands
// that are part of the op"): the Constant inputs ONNX writes for Reshape's target, ReLU6's bounds and the
// attention scale are part of their op, as PyTorch's Python values are.
//
// Names differ (ONNX says "/layer1/layer1.0/conv1/Conv_output_0", the exporter "layer1.0.conv1"), so groups are
// compared by structure: a group is its pattern label, the bytes it reads and writes, and its members, each as
// kind + shape + dtype. A source is compared by element count, not shape: ONNX keeps a 3-D Linear's weight
// transposed ([in, out], folded from Transpose(weight)), PyTorch as [out, in]. The plans must hold equal
// multisets of groups and of edge verdicts, and equal totals.
// Named dimensions (docs/design.md §16): bert-layer (batch, seq) and mlp-gelu (batch) are exported with named
// dims, and their .onnx files with the same dynamic axes; the importer must find the same names in the same
// places (shapes are compared as written, names included), given the .json's "dims" as its defaults, so both
// plan at the traced sizes. Planning graphs with names needs the core's §16.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { before, test } from 'node:test';

import { loadFusion } from '../../wasm/fusion.mjs';
import { decodeModel } from '../../web/src/import/onnx/decode.js';
import { importOnnx } from '../../web/src/import/onnx/import.js';

const DIR = new URL('../../examples/models/', import.meta.url);
const MODELS = ['resnet18', 'mobilenet-v2', 'bert-layer', 'mlp-gelu'];
const STRATEGIES = ['seed', 'xla', 'tvm', 'inductor'];
const MAX_ONNX_BYTES = 300_000;

let fusion;
before(async () => {
  fusion = await loadFusion();
});

const NAMED = { 'bert-layer': ['batch', 'seq'], 'mlp-gelu': ['batch'] };
const numel = (shape, dims = {}) => shape.reduce((a, d) => a * (typeof d === 'string' ? dims[d] : d), 1);
const exported = (id) => JSON.parse(readFileSync(new URL(`${id}.json`, DIR), 'utf8'));
const onnxBytes = (id) => readFileSync(new URL(`${id}.onnx`, DIR));
const imported = (id) => importOnnx(onnxBytes(id), { fileName: `${id}.onnx`, dims: exported(id).dims });

// A plan reduced to what does not depend on names or op order.
function shapeOfPlan(graph, plan) {
  const member = (i) => {
    const op = graph.ops[i];
    const size = op.inputs?.length ? `[${op.shape}]` : `(${numel(op.shape, graph.dims)})`;
    return `${op.kind}${size} ${op.dtype ?? `${op.dtype_bytes}B`}`;
  };
  const group = (g) =>
    `${g.label || '-'} | read ${g.bytes_read} write ${g.bytes_written} | ${g.ops.map(member).sort().join(' + ')}`;
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

function planUnder(graph, strategy) {
  const plan = fusion.plan(JSON.stringify(graph), { strategy });
  assert.equal(plan.ok, true, `${strategy}: ${JSON.stringify(plan.error)}`);
  return plan;
}

test('examples/models holds the gallery models, each as .json and a small .onnx', () => {
  const files = readdirSync(DIR).sort();
  const ids = [...MODELS].sort();
  assert.deepEqual(files, ids.flatMap((id) => [`${id}.json`, `${id}.onnx`]).sort());
  for (const id of ids) assert.ok(readFileSync(new URL(`${id}.onnx`, DIR)).length < MAX_ONNX_BYTES, `${id}.onnx size`);
});

for (const id of MODELS) {
  test(`${id}: the exporter and the ONNX importer give the same ops, groups and bytes`, () => {
    const ours = exported(id);
    const { graph: theirs, warnings } = imported(id);
    assert.deepEqual(warnings, [], 'the importer assumed nothing');
    for (const strategy of STRATEGIES) {
      const [a, b] = [shapeOfPlan(ours, planUnder(ours, strategy)), shapeOfPlan(theirs, planUnder(theirs, strategy))];
      assert.deepEqual(a, b, `${id} under ${strategy}`);
      console.log(
        `${id} ${strategy}: ${a.ops} ops, ${a.groups.length} groups, ${a.bytes_unfused} → ${a.bytes_fused} bytes, ` +
          `${a.kernels[0]} → ${a.kernels[1]} kernels (both sides)`,
      );
    }
  });
}

test('the ONNX files pass attributes as Constant inputs, and the importer makes them part of their ops', () => {
  const constantNodes = (id) =>
    decodeModel(readFileSync(new URL(`${id}.onnx`, DIR))).graph.node.filter((n) => n.opType === 'Constant').length;
  assert.ok(constantNodes('bert-layer') >= 5, 'the Reshape targets and the attention scale');
  assert.ok(constantNodes('mobilenet-v2') >= 70, 'min and max of each ReLU6 (Clip)');
  for (const id of MODELS) {
    assert.deepEqual(
      imported(id)
        .graph.ops.filter((op) => op.kind === 'constant')
        .map((op) => op.name),
      [],
      id,
    );
    assert.deepEqual(
      exported(id)
        .ops.filter((op) => op.kind === 'constant')
        .map((op) => op.name),
      [],
      id,
    );
  }
});

test('the transformer models keep their named dimensions through ONNX; without defaults the importer says so', () => {
  for (const [id, names] of Object.entries(NAMED)) {
    const ours = exported(id);
    assert.deepEqual(Object.keys(ours.dims), names, id);
    assert.deepEqual(imported(id).graph.dims, ours.dims, id);
    const bare = importOnnx(onnxBytes(id));
    assert.deepEqual(Object.keys(bare.graph.dims), names, id);
    assert.ok(
      Object.values(bare.graph.dims).every((v) => v === 1),
      `${id}: names without a value default to 1`,
    );
    assert.equal(bare.warnings.length, names.length, `${id}: one warning per name without a value`);
  }
  for (const id of MODELS.filter((m) => !NAMED[m])) assert.equal(exported(id).dims, undefined, id);
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
