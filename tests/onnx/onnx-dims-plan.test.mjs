// onnx-dims-plan.test.mjs — an imported graph with named dimensions plans through the WASM core exactly like the
// same graph with the default numbers written in (docs/design.md §16: "the plan of a graph bound at N = 8 is the
// plan of the same graph with 8 written wherever it says N", apart from §16's extra keys), and binding a name in
// the options gives the plan of the graph written with that number. Needs the core's named dimensions.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { loadFusion } from '../../wasm/fusion.mjs';
import { importOnnx } from '../../web/src/import/onnx/import.js';
import { F32, I64, graph, info, modelBytes, node, tensor } from './onnx-model-builder.mjs';

const STRATEGIES = ['seed', 'xla', 'tvm', 'inductor'];
const EXTRA_KEYS = /_formula$|^dims$|^grouping_independent_of_dims$|^warnings$/;

let fusion;
before(async () => {
  fusion = await loadFusion();
});

// Attention over [batch, seq, 64] with the heads split by a shape computed from Shape(x), as PyTorch exports it.
function attentionModel() {
  const ints = (name, values) => tensor(name, I64, [values.length], values);
  return modelBytes(
    graph({
      inputs: [info('x', F32, ['batch', 'seq', 64])],
      outputs: [info('y', F32)],
      initializers: [
        tensor('wq', F32, [64, 64]),
        tensor('wk', F32, [64, 64]),
        tensor('zero', I64, [], [0]),
        tensor('one', I64, [], [1]),
        ints('hd', [4, 16]),
        ints('flat', [64]),
      ],
      nodes: [
        node('Shape', ['x'], ['s']),
        node('Gather', ['s', 'zero'], ['b']),
        node('Gather', ['s', 'one'], ['n']),
        node('Unsqueeze', ['b'], ['b1'], { axes: [0] }),
        node('Unsqueeze', ['n'], ['n1'], { axes: [0] }),
        node('Concat', ['b1', 'n1', 'hd'], ['heads'], { axis: 0 }),
        node('Concat', ['b1', 'n1', 'flat'], ['merged'], { axis: 0 }),
        node('MatMul', ['x', 'wq'], ['q']),
        node('MatMul', ['x', 'wk'], ['k']),
        node('Reshape', ['q', 'heads'], ['qh']),
        node('Reshape', ['k', 'heads'], ['kh']),
        node('Transpose', ['qh'], ['qt'], { perm: [0, 2, 1, 3] }),
        node('Transpose', ['kh'], ['kt'], { perm: [0, 2, 3, 1] }),
        node('MatMul', ['qt', 'kt'], ['scores']),
        node('Softmax', ['scores'], ['probs'], { axis: -1 }),
        node('MatMul', ['probs', 'qt'], ['ctx']),
        node('Transpose', ['ctx'], ['ct'], { perm: [0, 2, 1, 3] }),
        node('Reshape', ['ct', 'merged'], ['cm']),
        node('Add', ['cm', 'x'], ['res']),
        node('Relu', ['res'], ['y']),
      ],
    }),
  );
}

// The graph with every name replaced by its value.
function written(g, values) {
  const dim = (d) => (typeof d === 'string' ? values[d] : d);
  return { ops: g.ops.map((op) => ({ ...op, shape: op.shape.map(dim) })) };
}

// The plan without §16's extra keys (formulas in the plan and in each group, dims, warnings), at any depth.
function withoutExtras(value) {
  if (Array.isArray(value)) return value.map(withoutExtras);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !EXTRA_KEYS.test(k))
      .map(([k, v]) => [k, withoutExtras(v)]),
  );
}

function planOf(g, options) {
  const plan = fusion.plan(JSON.stringify(g), options);
  assert.equal(plan.ok, true, JSON.stringify(plan.error));
  return plan;
}

test('an imported attention block with named batch and seq plans as the graph with the numbers written in', () => {
  const { graph: g, warnings } = importOnnx(attentionModel(), { dims: { batch: 2, seq: 16 } });
  assert.deepEqual(warnings, []);
  assert.deepEqual(g.dims, { batch: 2, seq: 16 });
  assert.deepEqual(g.ops.find((op) => op.name === 'scores').shape, ['batch', 4, 'seq', 'seq']);
  for (const strategy of STRATEGIES) {
    const named = planOf(g, { strategy });
    assert.deepEqual(named.dims, { batch: 2, seq: 16 }, strategy);
    assert.deepEqual(withoutExtras(named), withoutExtras(planOf(written(g, g.dims), { strategy })), strategy);
  }
});

test('binding a name in the options plans the graph written with that number', () => {
  const { graph: g } = importOnnx(attentionModel(), { dims: { batch: 2, seq: 16 } });
  const bound = planOf(g, { dims: { seq: 128 } });
  assert.deepEqual(withoutExtras(bound), withoutExtras(planOf(written(g, { batch: 2, seq: 128 }), {})));
});

test('names without a value plan at 1, the default the import gave them', () => {
  const { graph: g } = importOnnx(attentionModel());
  assert.deepEqual(g.dims, { batch: 1, seq: 1 });
  assert.deepEqual(withoutExtras(planOf(g, {})), withoutExtras(planOf(written(g, g.dims), {})));
});
