// onnx-dims.test.mjs — named dimensions in the ONNX importer (docs/onnx.md "Named dimensions", docs/design.md §16):
// dim_param names survive (sanitised, distinct), shape inference carries them through, a shape computed inside
// the model from Shape/Gather/Concat keeps them, a product of names and a whole number is written as the core's
// canonical product text ("batch*seq", "2*seq") with no warning, what no product can say (sums, inexact
// quotients, strided windows, slices with named ends) gets a derived name with a warning, an unknown dimension a
// fresh name with a warning, and the graph's "dims" gives every name (never a product) a default.
// Planning such graphs is tests/onnx/onnx-dims-plan.test.mjs (it needs the core's §16).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { broadcastDim, differenceDim, productDim, quotientDim, sumDim } from '../../web/src/import/onnx/dim-algebra.js';
import { DimTable, dimNames, productOf, productText, sanitizeDimName } from '../../web/src/import/onnx/dim-names.js';
import { OnnxImportError, importOnnx } from '../../web/src/import/onnx/import.js';
import { RULES } from '../../web/src/import/onnx/shape-inference.js';
import { F32, I64, graph, info, modelBytes, node, tensor } from './onnx-model-builder.mjs';

const load = (g, options) => importOnnx(modelBytes(graph(g)), options);
const shapes = (r) => Object.fromEntries(r.graph.ops.map((op) => [op.name, op.shape]));
const ints = (name, values) => tensor(name, I64, [values.length], values);
const scalar = (name, v) => tensor(name, I64, [], [v]);

test('sanitising: identifiers stay, other characters become _, a leading digit gets _, an empty name is fresh', () => {
  assert.equal(sanitizeDimName('batch_size'), 'batch_size');
  assert.equal(sanitizeDimName('batch-size'), 'batch_size');
  assert.equal(sanitizeDimName('2d'), '_2d');
  assert.equal(sanitizeDimName('seq len'), 'seq_len');
  assert.equal(sanitizeDimName('Ω'), '_');
  assert.equal(sanitizeDimName('a'.repeat(100)), 'a'.repeat(60), 'cut so that a suffix stays within 64');
  const r = load({
    inputs: [info('x', F32, ['batch_size', 'seq-len', '2d', ''])],
    outputs: [info('y', F32)],
    nodes: [node('Relu', ['x'], ['y'])],
  });
  assert.deepEqual(r.graph.ops[0].shape, ['batch_size', 'seq_len', '_2d', 'unk_0']);
  assert.deepEqual(r.graph.dims, { batch_size: 1, seq_len: 1, _2d: 1, unk_0: 1 });
  assert.ok(r.warnings.some((w) => w.includes("dimension 'seq-len' of 'x' is named 'seq_len' and has no value")));
  assert.ok(r.warnings.some((w) => w.includes("unknown dimension 3 of 'x' is named 'unk_0'")));
});

test('two ONNX names that sanitise alike stay distinct; one name is one name everywhere', () => {
  const r = load({
    inputs: [info('a', F32, ['batch-size', 4]), info('b', F32, ['batch_size', 4]), info('c', F32, ['batch-size', 4])],
    outputs: [info('y', F32), info('z', F32)],
    nodes: [node('Add', ['a', 'c'], ['y']), node('Relu', ['b'], ['z'])],
  });
  const s = shapes(r);
  assert.deepEqual(
    [s.a, s.b, s.c, s.y, s.z],
    [
      ['batch_size', 4],
      ['batch_size_2', 4],
      ['batch_size', 4],
      ['batch_size', 4],
      ['batch_size_2', 4],
    ],
  );
  assert.deepEqual(Object.keys(r.graph.dims), ['batch_size', 'batch_size_2']);
});

test('defaults come from the options, by ONNX or sanitised name; the rest are 1 with a warning; bad ones throw', () => {
  const model = {
    inputs: [info('x', F32, ['batch-size', 'seq'])],
    outputs: [info('y', F32)],
    nodes: [node('Relu', ['x'], ['y'])],
  };
  const r = load(model, { dims: { 'batch-size': 8, seq: 128 } });
  assert.deepEqual(r.graph.dims, { batch_size: 8, seq: 128 });
  assert.deepEqual(r.warnings, ["graph input 'x': dimension 'batch-size' of 'x' is named 'batch_size'"]);
  assert.deepEqual(load(model, { dims: { batch_size: 2, seq: 3 } }).graph.dims, { batch_size: 2, seq: 3 });
  const partly = load(model, { dims: { seq: 3, heads: 12 } });
  assert.deepEqual(partly.graph.dims, { batch_size: 1, seq: 3 });
  assert.match(partly.warnings.join('\n'), /'batch_size' and has no value, so "dims" gives it 1/);
  assert.match(partly.warnings.join('\n'), /model: no dimension is named 'heads'/);
  for (const dims of [{ seq: -1 }, { seq: 1.5 }, { seq: '8' }, [8]]) {
    assert.throws(
      () => load(model, { dims }),
      (e) => e instanceof OnnxImportError && e.code === 'invalid_option',
    );
  }
  const plain = load({ inputs: [info('x', F32, [2])], outputs: [info('y', F32)], nodes: [node('Relu', ['x'], ['y'])] });
  assert.equal(plain.graph.dims, undefined, 'a graph without names has no "dims"');
});

test('broadcasting: a name against 1 or itself stays, against k ≠ 1 is k, against another name is a new name', () => {
  const r = load(
    {
      inputs: [
        info('a', F32, ['N', 1, 5]),
        info('b', F32, [1, 'M', 5]),
        info('c', F32, ['N', 'M', 'K']),
        info('d', F32, [7]),
      ],
      outputs: [info('ab', F32), info('abc', F32), info('cd', F32)],
      nodes: [node('Add', ['a', 'b'], ['ab']), node('Mul', ['ab', 'c'], ['abc']), node('Sub', ['c', 'd'], ['cd'])],
    },
    { dims: { N: 2, M: 3, K: 7 } },
  );
  const s = shapes(r);
  assert.deepEqual(s.ab, ['N', 'M', 5]);
  assert.deepEqual(s.abc, ['N', 'M', 5], 'K against 5: K can only be 1 or 5, so 5');
  assert.deepEqual(s.cd, ['N', 'M', 7]);
  const both = load(
    {
      inputs: [info('p', F32, ['batch', 4]), info('q', F32, ['n', 4])],
      outputs: [info('y', F32)],
      nodes: [node('Add', ['p', 'q'], ['y'])],
    },
    { dims: { batch: 8, n: 8 } },
  );
  assert.deepEqual(shapes(both).y, ['batch_or_n', 4]);
  assert.deepEqual(both.graph.dims, { batch: 8, n: 8, batch_or_n: 8 });
  assert.match(both.warnings.join('\n'), /dimension 'batch_or_n' of 'y' stands for 'batch' broadcast against 'n'/);
});

test('MatMul, Gemm, Transpose, reductions, Softmax and Flatten carry names', () => {
  const r = load(
    {
      inputs: [info('x', F32, ['batch', 'seq', 64]), info('k', F32, ['batch', 'seq', 64])],
      outputs: [info('probs', F32), info('mean', F32), info('flat', F32), info('g', F32)],
      initializers: [tensor('w', F32, [64, 32]), tensor('w2', F32, [16, 32])],
      nodes: [
        node('Transpose', ['k'], ['kt'], { perm: [0, 2, 1] }),
        node('MatMul', ['x', 'kt'], ['scores']),
        node('Softmax', ['scores'], ['probs'], { axis: -1 }),
        node('ReduceMean', ['x'], ['mean'], { axes: [1], keepdims: 1 }),
        node('Flatten', ['x'], ['flat'], { axis: 1 }),
        node('Flatten', ['x'], ['rows'], { axis: 2 }),
        node('MatMul', ['rows', 'w'], ['h']),
        node('Gemm', ['h', 'w2'], ['g'], { transB: 1 }),
      ],
    },
    { dims: { batch: 2, seq: 10 } },
  );
  const s = shapes(r);
  assert.deepEqual(s.kt, ['batch', 64, 'seq']);
  assert.deepEqual(s.scores, ['batch', 'seq', 'seq']);
  assert.deepEqual(s.probs, ['batch', 'seq', 'seq']);
  assert.deepEqual(s.mean, ['batch', 1, 64]);
  assert.deepEqual(s.flat, ['batch', '64*seq'], 'the number first, then the names');
  assert.deepEqual(s.rows, ['batch*seq', 64]);
  assert.deepEqual(s.h, ['batch*seq', 32]);
  assert.deepEqual(s.g, ['batch*seq', 16]);
  assert.deepEqual(r.graph.dims, { batch: 2, seq: 10 }, 'a product needs no default of its own');
  assert.deepEqual(r.warnings, []);
});

// PyTorch's x.view(b, s, heads, d) and x.view(-1, h) with b, s = x.shape, exported with dynamic axes.
test('Reshape through Shape → Gather → Unsqueeze → Concat keeps names; a -1 is the exact remaining product', () => {
  const model = {
    inputs: [info('x', F32, ['batch', 'seq', 768])],
    outputs: [info('heads', F32), info('back', F32)],
    initializers: [
      scalar('zero', 0),
      scalar('one', 1),
      ints('hd', [12, 64]),
      ints('flat', [-1, 768]),
      ints('rest', [-1, 768]),
    ],
    nodes: [
      node('Shape', ['x'], ['s']),
      node('Gather', ['s', 'zero'], ['b']),
      node('Gather', ['s', 'one'], ['q']),
      node('Unsqueeze', ['b'], ['b1'], { axes: [0] }),
      node('Unsqueeze', ['q'], ['q1'], { axes: [0] }),
      node('Concat', ['b1', 'q1', 'hd'], ['target'], { axis: 0 }),
      node('Reshape', ['x', 'target'], ['heads']),
      node('Reshape', ['x', 'flat'], ['rows']),
      node('Relu', ['rows'], ['act']),
      node('Concat', ['b1', 'rest'], ['back_t'], { axis: 0 }),
      node('Reshape', ['act', 'back_t'], ['back']),
    ],
  };
  const got = load(model, { dims: { batch: 4, seq: 16 } });
  const s = shapes(got);
  assert.deepEqual(s.heads, ['batch', 'seq', 12, 64]);
  assert.deepEqual(s.rows, ['batch*seq', 768], '-1 of [batch, seq, 768] / 768');
  assert.deepEqual(s.back, ['batch', 'seq', 768], '(768*batch*seq) / (768*batch) = seq');
  assert.deepEqual(
    got.graph.ops.map((op) => [op.name, op.kind, op.inputs]),
    [
      ['x', 'input', undefined],
      ['heads', 'reshape', ['x']],
      ['rows', 'reshape', ['x']],
      ['act', 'relu', ['rows']],
      ['back', 'reshape', ['act']],
    ],
    'the shape arithmetic folds away: each target is part of its Reshape',
  );
  assert.deepEqual(got.graph.dims, { batch: 4, seq: 16 });
  assert.deepEqual(got.warnings, []);
});

test('products in the shape arithmetic (Mul of gathered dims) and Equal(dim, -1) fold with names', () => {
  const r = load({
    inputs: [info('x', F32, ['batch', 'seq', 8])],
    outputs: [info('y', F32)],
    initializers: [scalar('zero', 0), scalar('one', 1), ints('eight', [8]), ints('neg', [-1, -1])],
    nodes: [
      node('Shape', ['x'], ['s']),
      node('Gather', ['s', 'zero'], ['b']),
      node('Gather', ['s', 'one'], ['q']),
      node('Mul', ['b', 'q'], ['bq']),
      node('Unsqueeze', ['bq'], ['bq1'], { axes: [0] }),
      node('Concat', ['bq1', 'eight'], ['t'], { axis: 0 }),
      node('Equal', ['t', 'neg'], ['is_neg']),
      node('Where', ['is_neg', 'neg', 't'], ['target']),
      node('Reshape', ['x', 'target'], ['y']),
    ],
  });
  assert.deepEqual(shapes(r).y, ['batch*seq', 8]);
  assert.deepEqual(
    r.graph.ops.map((op) => op.name),
    ['x', 'y'],
  );
  assert.deepEqual(r.graph.dims, { batch: 1, seq: 1 });
  assert.ok(!r.warnings.some((w) => /cannot say/.test(w)), 'no derived name');
});

test('what no product can say gets a derived name with a warning and its value at the defaults as default', () => {
  const r = load(
    {
      inputs: [info('x', F32, ['N', 3]), info('z', F32, ['N', 3]), info('w', F32, [5, 3])],
      outputs: [info('cat', F32), info('odd', F32), info('sl', F32), info('all', F32), info('plus', F32)],
      initializers: [ints('t', [-1, 2]), ints('one', [1]), ints('big', [2 ** 40]), ints('zero', [0])],
      nodes: [
        node('Concat', ['x', 'z'], ['cat'], { axis: 0 }),
        node('Reshape', ['x', 't'], ['odd']),
        node('Slice', ['x', 'one', 'big', 'zero'], ['sl']),
        node('Slice', ['x', 'zero', 'big', 'zero'], ['all']),
        node('Concat', ['x', 'w'], ['plus'], { axis: 0 }),
      ],
    },
    { dims: { N: 4 } },
  );
  const s = shapes(r);
  assert.deepEqual(s.cat, ['2*N', 3], 'N + N is a product: no derived name');
  assert.deepEqual(s.all, ['N', 3], 'a slice that keeps the whole axis keeps its name');
  assert.deepEqual(s.plus, ['N_plus_5', 3], 'a sum is no product');
  assert.equal(s.odd[1], 2);
  assert.equal(s.odd[0], 'N_x_3_rest', '3*N / 2 is not exact');
  assert.equal(s.sl[0], 'N_slice');
  assert.deepEqual(r.graph.dims, { N: 4, N_x_3_rest: 6, N_slice: 3, N_plus_5: 9 });
  assert.ok(!r.warnings.some((w) => w.includes("'2*N'")), 'a product owes no warning');
  for (const name of ['N_plus_5', 'N_x_3_rest', 'N_slice'])
    assert.ok(
      r.warnings.some((w) => w.includes(`dimension '${name}'`) && w.includes('which one name cannot say')),
      name,
    );
  const numbers = load({
    inputs: [info('a', F32, [2, 3]), info('b', F32, [5, 3])],
    outputs: [info('y', F32)],
    nodes: [node('Concat', ['a', 'b'], ['y'], { axis: 0 })],
  });
  assert.deepEqual(shapes(numbers).y, [7, 3]);
  assert.equal(numbers.graph.dims, undefined);
});

test('Conv and pooling keep a named batch; a window over a named length is derived', () => {
  const r = load(
    {
      inputs: [info('x', F32, ['N', 3, 'H', 8])],
      outputs: [info('p', F32), info('c', F32)],
      initializers: [tensor('w', F32, [4, 3, 3, 3])],
      nodes: [
        node('Conv', ['x', 'w'], ['c'], { pads: [1, 1, 1, 1] }),
        node('MaxPool', ['c'], ['p'], { kernel_shape: [2, 2], strides: [2, 2] }),
      ],
    },
    { dims: { N: 2, H: 16 } },
  );
  const s = shapes(r);
  assert.deepEqual(s.c, ['N', 4, 'H', 8], 'a padded 3×3 window with stride 1 keeps every length');
  assert.deepEqual(s.p, ['N', 4, 'H_window', 4]);
  assert.equal(r.graph.dims.H_window, 8);
});

test('declared shapes: a declared number refines a name, a declared name replaces only an unknown one', () => {
  const r = load({
    inputs: [info('x', F32, ['batch', null])],
    outputs: [info('y', F32, [1, 'width']), info('z', F32, ['rows', 'cols'])],
    nodes: [node('Relu', ['x'], ['y']), node('Neg', ['x'], ['z'])],
  });
  const s = shapes(r);
  assert.deepEqual(s.y, [1, 'width']);
  assert.deepEqual(s.z, ['batch', 'cols']);
  assert.ok(!r.warnings.some((w) => /inferred as/.test(w)), 'no contradiction is reported');
});

test('when inference fails, the declared shape is used with its names', () => {
  const r = load({
    inputs: [info('x', F32, ['batch', 6]), info('t', I64, [2])],
    outputs: [info('y', F32, ['batch', 'k', null])],
    nodes: [node('Reshape', ['x', 't'], ['y'])],
  });
  assert.deepEqual(shapes(r).y, ['batch', 'k', 'unk_0']);
  assert.match(r.warnings.join('\n'), /could not infer the shape of 'y'/);
  assert.match(r.warnings.join('\n'), /unknown dimension 2 of 'y' is named 'unk_0'/);
});

test('the dimension algebra: products are canonical text, quotients and differences exact or null', () => {
  const t = new DimTable({ b: 2, s: 5 });
  const [b, s] = [t.fromModel('b'), t.fromModel('s')];
  const bs = productDim(t, [b, s]);
  assert.equal(bs, 'b*s');
  assert.equal(t.valueOf(bs), 10);
  assert.equal(productDim(t, [s, b]), 'b*s', 'names in ASCII order');
  assert.equal(productDim(t, [s, 2, b]), '2*b*s', 'the number first');
  assert.equal(productDim(t, [s, s]), 's*s', 'a power repeats the name');
  assert.equal(productDim(t, [b, 1]), 'b');
  assert.equal(productDim(t, [b, 0]), 0);
  assert.equal(productDim(t, [2, 3]), 6);
  assert.equal(productDim(t, [productDim(t, [b, 3]), productDim(t, [s, 4])]), '12*b*s');
  assert.equal(t.valueOf('12*b*s'), 120);
  assert.equal(quotientDim(t, productDim(t, [bs, 768]), productDim(t, [b, 768])), 's');
  assert.equal(quotientDim(t, productDim(t, [b, 12]), 4), '3*b');
  assert.equal(quotientDim(t, '2*b*s', '2*s'), 'b');
  assert.equal(quotientDim(t, 's*s', 's'), 's');
  assert.equal(quotientDim(t, b, s), null);
  assert.equal(quotientDim(t, productDim(t, [b, 3]), 2), null);
  assert.equal(quotientDim(t, 6, b), null);
  assert.equal(differenceDim(t, '3*b', b), '2*b');
  assert.equal(differenceDim(t, '2*b', '2*b'), 0);
  assert.equal(differenceDim(t, b, 0), b);
  assert.equal(differenceDim(t, b, '2*b'), null, 'never below 0');
  assert.equal(differenceDim(t, b, 1), null);
  assert.equal(differenceDim(t, bs, b), null);
  assert.equal(sumDim(t, [b, 0]), 'b');
  assert.equal(sumDim(t, [3, 4]), 7);
  assert.equal(sumDim(t, [s, s]), '2*s');
  assert.equal(sumDim(t, [bs, '2*b*s', 0]), '3*b*s');
  assert.equal(sumDim(t, [b, 3]), 'b_plus_3');
  assert.equal(t.valueOf('b_plus_3'), 5);
  assert.equal(sumDim(t, [s, b]), 'b_plus_s');
  assert.equal(sumDim(t, [s, s, 1]), 's_x_2_plus_1', 'like terms first');
  assert.equal(t.valueOf('s_x_2_plus_1'), 11);
  assert.equal(broadcastDim(t, b, 1), 'b');
  assert.equal(broadcastDim(t, 1, b), 'b');
  assert.equal(broadcastDim(t, b, b), 'b');
  assert.equal(broadcastDim(t, bs, bs), 'b*s');
  assert.equal(broadcastDim(t, b, 7), 7);
  assert.equal(broadcastDim(t, 3, 4), null);
  assert.equal(broadcastDim(t, s, b), 'b_or_s');
  assert.equal(t.valueOf('b_or_s'), 5);
  assert.equal(broadcastDim(t, '2*s', b), 's_x_2_or_b', 'a product in a derived name: names, then number');
});

test("canonical product text is the core's: the number first when not 1, names by ASCII code, repeats kept", () => {
  assert.equal(productText({ coef: 1, names: ['seq', 'batch'] }), 'batch*seq');
  assert.equal(productText({ coef: 2, names: ['seq'] }), '2*seq');
  assert.equal(productText({ coef: 1, names: ['seq'] }), 'seq');
  assert.equal(productText({ coef: 0, names: ['seq'] }), 0);
  assert.equal(productText({ coef: 7, names: [] }), 7);
  assert.equal(productText({ coef: 1, names: ['b', 'B', '_x', 'a1', 'a', 'Z9'] }), 'B*Z9*_x*a*a1*b', 'A-Z < _ < a-z');
  assert.equal(productText({ coef: 2 ** 53, names: ['N'] }), null, 'past 2^53 − 1');
  assert.deepEqual(productOf('seq*2*batch*3'), { coef: 6, names: ['batch', 'seq'] });
  assert.deepEqual(productOf('N'), { coef: 1, names: ['N'] });
  assert.deepEqual(productOf(12), { coef: 12, names: [] });
  assert.deepEqual(dimNames('2*seq*seq'), ['seq', 'seq']);
  assert.deepEqual(dimNames(768), []);
});

test('rule by rule: Gather, Slice with a named bound, Split, Range, Size, Expand, Squeeze, Pad, Tile', () => {
  const t = new DimTable({ N: 6, S: 4 });
  const [N, S] = [t.fromModel('N'), t.fromModel('S')];
  const v = (shape, value = null, dtype = F32) => ({ shape, dtype, value });
  const run = (rule, inputs, attrs = {}, outputs = 1) =>
    RULES[rule]({ inputs, attrs: new Map(Object.entries(attrs)), outputs, opset: 17, valueCap: 4096, dims: t });
  const shapeOf = (...args) => run(...args)[0].shape;
  assert.deepEqual(shapeOf('gather', [v([N, 8]), v([S], null, I64)], { axis: 0 }), [S, 8]);
  const bound = (xs) => v([xs.length], xs, I64);
  assert.deepEqual(
    shapeOf('slice', [v([2, N]), bound([0]), bound([N]), bound([1])]),
    [2, N],
    'x[:, :n], n = x.shape[1]',
  );
  assert.deepEqual(shapeOf('slice', [v([2, 16]), bound([0]), bound([S]), bound([1])]), [2, 'S_slice']);
  assert.equal(t.valueOf('S_slice'), 4, 'min(16, S) at S = 4');
  assert.deepEqual(
    run('split', [v([N, 2])], { axis: 0 }, 2).map((o) => o.shape),
    [
      ['N_part0_of_2', 2],
      ['N_part1_of_2', 2],
    ],
  );
  assert.deepEqual(
    run('split', [v(['2*N', 3])], { axis: 0 }, 2).map((o) => o.shape),
    [
      [N, 3],
      [N, 3],
    ],
  );
  assert.deepEqual(run('range', [v([], [0], I64), v([], [S], I64), v([], [1], I64)])[0], {
    shape: [S],
    dtype: I64,
    value: null,
  });
  assert.deepEqual(run('size', [v([N, S, 2])])[0].value, ['2*N*S']);
  assert.deepEqual(run('shape', [v([N, 3, S])])[0].value, [N, 3, S]);
  assert.deepEqual(shapeOf('expand', [v([1, 4]), bound([N, 1])]), [N, 4]);
  assert.deepEqual(shapeOf('squeeze', [v([N, 1, 3])]), [N, 3], 'without axes only 1s go');
  assert.deepEqual(shapeOf('pad', [v([N, 3]), bound([1, 0, 1, 0])]), ['N_plus_2', 3]);
  assert.deepEqual(shapeOf('tile', [v([N, 3]), bound([S, 2])]), ['N*S', 6]);
  assert.deepEqual(shapeOf('tile', [v([N, 3]), bound([3, 2])]), ['3*N', 6]);
  assert.deepEqual(run('constant_of_shape', [bound([N, 2])])[0], { shape: [N, 2], dtype: F32, value: null });
  assert.deepEqual(shapeOf('reshape', [v([N, 3, 4]), bound([0, -1])]), [N, 12]);
  assert.deepEqual(shapeOf('reshape', [v([N, S, 4]), bound([-1, 4])]), ['N*S', 4]);
  assert.deepEqual(shapeOf('reshape', [v(['N*S', 4]), bound([N, -1, 2])]), [N, '2*S', 2]);
  assert.deepEqual(shapeOf('flatten', [v([N, S, 4])], { axis: 2 }), ['N*S', 4]);
  assert.deepEqual(shapeOf('concat', [v([N, S]), v([N, S])], { axis: 1 }), [N, '2*S']);
  assert.deepEqual(shapeOf('depth_to_space', [v([N, 8, S, S])], { blocksize: 2 }), [N, 2, '2*S', '2*S']);
});

// A transformer MLP as PyTorch exports `h = x.view(b * s, d); ...; y.view(b, s, d)` with b, s = x.shape: the rows
// are the product batch*seq, written as such, and the unflatten gets batch and seq back.
test('flatten → matmul → unflatten through Shape/Gather/Mul/Concat/Reshape gives batch*seq, with no warning', () => {
  const model = {
    inputs: [info('x', F32, ['batch', 'seq', 768])],
    outputs: [info('y', F32)],
    initializers: [
      scalar('zero', 0),
      scalar('one', 1),
      ints('d_model', [768]),
      ints('d_ff', [3072]),
      tensor('w1', F32, [768, 3072]),
      tensor('w2', F32, [3072, 768]),
    ],
    nodes: [
      node('Shape', ['x'], ['s']),
      node('Gather', ['s', 'zero'], ['b']),
      node('Gather', ['s', 'one'], ['q']),
      node('Mul', ['b', 'q'], ['bq']),
      node('Unsqueeze', ['bq'], ['bq1'], { axes: [0] }),
      node('Unsqueeze', ['b'], ['b1'], { axes: [0] }),
      node('Unsqueeze', ['q'], ['q1'], { axes: [0] }),
      node('Concat', ['bq1', 'd_model'], ['flat_t'], { axis: 0 }),
      node('Reshape', ['x', 'flat_t'], ['rows']),
      node('MatMul', ['rows', 'w1'], ['up']),
      node('Relu', ['up'], ['act']),
      node('Gemm', ['act', 'w2'], ['down']),
      node('Concat', ['b1', 'q1', 'd_model'], ['back_t'], { axis: 0 }),
      node('Reshape', ['down', 'back_t'], ['unflat']),
      node('Add', ['unflat', 'x'], ['y']),
    ],
  };
  const r = load(model, { dims: { batch: 8, seq: 128 } });
  const s = shapes(r);
  assert.deepEqual(s.rows, ['batch*seq', 768]);
  assert.deepEqual(s.up, ['batch*seq', 3072]);
  assert.deepEqual(s.act, ['batch*seq', 3072]);
  assert.deepEqual(s.down, ['batch*seq', 768], 'Gemm without C is one matmul');
  assert.deepEqual(s.unflat, ['batch', 'seq', 768]);
  assert.deepEqual(s.y, ['batch', 'seq', 768]);
  assert.deepEqual(r.graph.dims, { batch: 8, seq: 128 });
  assert.deepEqual(r.warnings, []);
  assert.deepEqual(
    r.graph.ops.map((op) => op.name),
    ['x', 'rows', 'w1', 'up', 'act', 'w2', 'down', 'unflat', 'y'],
    'the shape arithmetic folds away into the reshapes',
  );
});

test('Concat of shapes adds like terms ("2*seq"), Sub and Div of dims are exact, a strided window stays derived', () => {
  const r = load(
    {
      inputs: [info('x', F32, ['batch', 'seq', 8]), info('img', F32, ['N', 4, 'H', 8])],
      outputs: [info('cat', F32), info('half', F32), info('back', F32), info('flat', F32)],
      initializers: [
        scalar('one', 1),
        scalar('two', 2),
        ints('eight', [8]),
        ints('minus', [-1]),
        tensor('w', F32, [4, 4, 3, 3]),
      ],
      nodes: [
        node('Concat', ['x', 'x'], ['cat'], { axis: 1 }),
        node('Shape', ['cat'], ['cs']),
        node('Gather', ['cs', 'one'], ['two_seq']),
        node('Div', ['two_seq', 'two'], ['seq_again']),
        node('Sub', ['two_seq', 'seq_again'], ['seq_diff']),
        node('Unsqueeze', ['seq_diff'], ['sd1'], { axes: [0] }),
        node('Concat', ['minus', 'sd1', 'eight'], ['half_t'], { axis: 0 }),
        node('Reshape', ['cat', 'half_t'], ['half']),
        node('Relu', ['half'], ['back']),
        node('Conv', ['img', 'w'], ['c'], { pads: [1, 1, 1, 1], strides: [2, 2] }),
        node('Flatten', ['c'], ['flat'], { axis: 1 }),
      ],
    },
    { dims: { batch: 2, seq: 3, N: 1, H: 16 } },
  );
  const s = shapes(r);
  assert.deepEqual(s.cat, ['batch', '2*seq', 8]);
  assert.deepEqual(s.half, ['2*batch', 'seq', 8], '(16*batch*seq) / (8*seq)');
  assert.deepEqual(s.c, ['N', 4, 'H_window', 4]);
  assert.deepEqual(s.flat, ['N', '16*H_window'], 'a derived name may be a factor of a product');
  assert.deepEqual(r.graph.dims, { batch: 2, seq: 3, N: 1, H: 16, H_window: 8 });
  assert.equal(r.warnings.length, 1, r.warnings.join('\n'));
  assert.match(r.warnings[0], /'H_window' of 'c' stands for the window of/);
});

test('a dim_param that is a product of identifiers ("s0*s1", "2*s0") is that product of names', () => {
  const r = load(
    {
      inputs: [info('x', F32, ['s0', 's1', 4]), info('t', I64, [2]), info('w', F32, ['2 * s0', 's1'])],
      outputs: [info('y', F32, ['s1 * s0', 4]), info('z', F32)],
      nodes: [node('Reshape', ['x', 't'], ['y']), node('Relu', ['w'], ['z'])],
    },
    { dims: { s0: 2, s1: 5 } },
  );
  const s = shapes(r);
  assert.deepEqual(s.y, ['s0*s1', 4], 'the declared shape, where inference needs a value it does not have');
  assert.deepEqual(s.w, ['2*s0', 's1']);
  assert.deepEqual(s.z, ['2*s0', 's1']);
  assert.deepEqual(r.graph.dims, { s0: 2, s1: 5 });
  const odd = load({
    inputs: [info('x', F32, ['a*2d'])],
    outputs: [info('y', F32)],
    nodes: [node('Relu', ['x'], ['y'])],
  });
  assert.deepEqual(shapes(odd).x, ['a_2d'], 'a factor that is no identifier: the whole is one sanitised name');
});
