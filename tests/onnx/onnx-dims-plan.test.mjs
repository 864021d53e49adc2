// onnx-dims-plan.test.mjs — an imported graph with named dimensions plans through the WASM core exactly like the
// same graph with the default numbers written in (docs/design.md §16: "the plan of a graph bound at N = 8 is the
// plan of the same graph with 8 written wherever it says N", apart from §16's extra keys), and binding a name in
// the options gives the plan of the graph written with that number — products of names ("batch*seq", what a
// flattening Reshape makes) included, which follow their names' bindings. Needs the core's named dimensions and
// products (§16).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { loadFusion } from '../../wasm/fusion.mjs';
import { importOnnx } from '../../web/src/import/onnx/import.js';
import { productOf, productText } from '../../web/src/import/onnx/dim-names.js';
import { parseShape } from '../../web/src/graph/graph-text.js';
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

// The graph with every name replaced by its value, and every product ("2*batch*seq") by the product of its factors.
function written(g, values) {
  const factor = (f) => (/^[0-9]+$/.test(f) ? Number(f) : values[f]);
  const dim = (d) => (typeof d === 'string' ? d.split('*').reduce((v, f) => v * factor(f), 1) : d);
  const ops = g.ops.map((op) => ({ ...op, shape: op.shape.map(dim) }));
  assert.ok(
    ops.every((op) => op.shape.every(Number.isSafeInteger)),
    'every name has a value',
  );
  return { ops };
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

// A transformer MLP as PyTorch exports it: x.view(b * s, 768) → Linear → GELU-ish → Linear → view(b, s, 768),
// with b, s = x.shape, so its middle runs on [batch*seq, ...] (the product of names, written as one entry).
function flattenModel() {
  const ints = (name, values) => tensor(name, I64, [values.length], values);
  return modelBytes(
    graph({
      inputs: [info('x', F32, ['batch', 'seq', 64])],
      outputs: [info('y', F32), info('twice', F32)],
      initializers: [
        tensor('zero', I64, [], [0]),
        tensor('one', I64, [], [1]),
        ints('d', [64]),
        ints('minus', [-1]),
        tensor('w1', F32, [64, 256]),
        tensor('b1', F32, [256]),
        tensor('w2', F32, [256, 64]),
      ],
      nodes: [
        node('Shape', ['x'], ['s']),
        node('Gather', ['s', 'zero'], ['b']),
        node('Gather', ['s', 'one'], ['n']),
        node('Mul', ['b', 'n'], ['bn']),
        node('Unsqueeze', ['bn'], ['bn1'], { axes: [0] }),
        node('Unsqueeze', ['b'], ['b1d'], { axes: [0] }),
        node('Concat', ['bn1', 'd'], ['flat'], { axis: 0 }),
        node('Concat', ['b1d', 'minus', 'd'], ['back'], { axis: 0 }),
        node('Reshape', ['x', 'flat'], ['rows']),
        node('MatMul', ['rows', 'w1'], ['up']),
        node('Add', ['up', 'b1'], ['biased']),
        node('Tanh', ['biased'], ['act']),
        node('MatMul', ['act', 'w2'], ['down']),
        node('Reshape', ['down', 'back'], ['unflat']),
        node('Add', ['unflat', 'x'], ['res']),
        node('Relu', ['res'], ['y']),
        node('Concat', ['rows', 'rows'], ['twice'], { axis: 0 }),
      ],
    }),
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

test('a flattening reshape gives batch*seq, and the graph plans as the numbers written in, at any binding', () => {
  const { graph: g, warnings } = importOnnx(flattenModel(), { dims: { batch: 2, seq: 16 } });
  assert.deepEqual(warnings, []);
  assert.deepEqual(g.dims, { batch: 2, seq: 16 }, 'products need no defaults');
  const shape = (name) => g.ops.find((op) => op.name === name).shape;
  assert.deepEqual(shape('rows'), ['batch*seq', 64]);
  assert.deepEqual(shape('act'), ['batch*seq', 256]);
  assert.deepEqual(shape('unflat'), ['batch', 'seq', 64]);
  assert.deepEqual(shape('twice'), ['2*batch*seq', 64]);
  for (const strategy of STRATEGIES) {
    const named = planOf(g, { strategy });
    assert.deepEqual(named.dims, { batch: 2, seq: 16 }, strategy);
    assert.deepEqual(withoutExtras(named), withoutExtras(planOf(written(g, g.dims), { strategy })), strategy);
    for (const dims of [{ batch: 8, seq: 128 }, { seq: 1 }, { batch: 3, seq: 77 }, { batch: 0 }]) {
      const values = { ...g.dims, ...dims };
      const bound = planOf(g, { strategy, dims });
      assert.deepEqual(bound.dims, values, `${strategy} ${JSON.stringify(dims)}`);
      assert.deepEqual(
        withoutExtras(bound),
        withoutExtras(planOf(written(g, values), { strategy })),
        `${strategy} ${JSON.stringify(dims)}`,
      );
    }
  }
});

test('the bytes formula of a flattened graph is a polynomial in batch*seq: it scales with both names', () => {
  const { graph: g } = importOnnx(flattenModel(), { dims: { batch: 2, seq: 16 } });
  const plan = planOf(g, {});
  assert.match(plan.bytes_unfused_formula, /batch\*seq/);
  assert.doesNotMatch(plan.bytes_unfused_formula, /batch_x_seq/);
  const at = (dims) => planOf(g, { dims }).bytes_unfused;
  const base = at({ batch: 1, seq: 1 });
  const constant = at({ batch: 0, seq: 0 });
  assert.equal(at({ batch: 4, seq: 8 }) - constant, 32 * (base - constant), 'every named term is batch*seq');
});

// The core names a product in canonical text when its value passes 2^53 − 1 at a binding: the text the importer
// (dim-names.js productText) and the page's typed shapes (graph-text.js parseShape) write must be that text.
test("the importer's and the typed shapes' product text is the core's canonical text", () => {
  const samples = [
    'seq*batch',
    'seq*2*batch',
    'b*B*_x*a1*a*Z9',
    'seq*seq*3',
    'N*1',
    'x_2*x*X*x_10*7*x1',
    '2*3*heads*dim',
  ];
  for (const text of samples) {
    const names = text.split('*').filter((f) => !/^[0-9]+$/.test(f));
    const dims = Object.fromEntries(names.map((n) => [n, 2]));
    dims[names[0]] = 2 ** 52; // with another name or a number ≥ 2, the product passes 2^53 − 1
    const g = { ops: [{ name: 'x', kind: 'input', shape: [text], dtype: 'f32' }] };
    const ours = productText(productOf(text));
    assert.equal(parseShape(text)[0], ours, text);
    if (ours === names[0]) continue; // a single name: the core says "N", no product to overflow
    const plan = fusion.plan(JSON.stringify(g), { dims });
    assert.equal(plan.ok, false, text);
    assert.match(plan.error.message, new RegExp(` is ${ours.replace(/\*/g, '\\*')}, which passes`), text);
  }
});
