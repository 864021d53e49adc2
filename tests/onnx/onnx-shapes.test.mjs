// onnx-shapes.test.mjs — shape inference rule by rule (web/src/import/onnx/shape-inference.js, shape-rules-extra.js),
// with the ONNX operator specification's own examples where it gives them, and constant folding of shapes
// computed inside a model (const-fold.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ShapeError } from '../../web/src/import/onnx/errors.js';
import { importOnnx } from '../../web/src/import/onnx/import.js';
import { RULES } from '../../web/src/import/onnx/shape-inference.js';
import { F32, I64, graph, info, modelBytes, node, tensor } from './onnx-model-builder.mjs';

const v = (shape, value = null, dtype = F32) => ({ shape, dtype, value });
const run = (rule, inputs, attrs = {}, outputs = 1) =>
  RULES[rule]({ inputs, attrs: new Map(Object.entries(attrs)), outputs, opset: 17, valueCap: 4096 });
const shapeOf = (rule, inputs, attrs, outputs) => run(rule, inputs, attrs, outputs)[0].shape;
const fails = (rule, inputs, attrs = {}, code = 'shape_inference') =>
  assert.throws(
    () => run(rule, inputs, attrs),
    (e) => e instanceof ShapeError && e.code === code,
  );

test('elementwise ops broadcast NumPy-style; shapes that do not broadcast are an error', () => {
  assert.deepEqual(shapeOf('broadcast', [v([2, 3, 4, 5]), v([5])]), [2, 3, 4, 5]);
  assert.deepEqual(shapeOf('broadcast', [v([2, 1, 4]), v([3, 1]), v([])]), [2, 3, 4]);
  assert.deepEqual(shapeOf('broadcast', [v([0, 1]), v([1, 7])]), [0, 7]);
  fails('broadcast', [v([2, 3]), v([4])]);
  assert.deepEqual(run('compare', [v([3]), v([1])])[0], { shape: [3], dtype: 9 });
  assert.deepEqual(run('where', [v([4, 1], null, 9), v([1, 5], null, 7), v([])])[0], { shape: [4, 5], dtype: 7 });
  assert.deepEqual(run('cast', [v([2])], { to: 10 })[0], { shape: [2], dtype: 10 });
});

test('MatMul follows numpy.matmul: 1-D operands, broadcast batch dims; Gemm transposes', () => {
  assert.deepEqual(shapeOf('matmul', [v([2, 3]), v([3, 4])]), [2, 4]);
  assert.deepEqual(shapeOf('matmul', [v([3]), v([3, 4])]), [4]);
  assert.deepEqual(shapeOf('matmul', [v([5, 2, 3]), v([3])]), [5, 2]);
  assert.deepEqual(shapeOf('matmul', [v([1, 5, 2, 3]), v([7, 1, 3, 4])]), [7, 5, 2, 4]);
  fails('matmul', [v([2, 3]), v([4, 5])]);
  assert.deepEqual(shapeOf('gemm', [v([4, 3]), v([5, 4])], { transA: 1, transB: 1 }), [3, 5]);
  fails('gemm', [v([4, 3]), v([4, 5])]);
});

test('Conv: padding, strides, dilations, groups and auto_pad (Operators.md examples)', () => {
  const x = v([1, 1, 5, 5]);
  const w = v([1, 1, 3, 3]);
  assert.deepEqual(shapeOf('conv', [x, w], { pads: [1, 1, 1, 1] }), [1, 1, 5, 5]);
  assert.deepEqual(shapeOf('conv', [x, w]), [1, 1, 3, 3]);
  assert.deepEqual(shapeOf('conv', [v([1, 1, 7, 5]), w], { pads: [1, 1, 1, 1], strides: [2, 2] }), [1, 1, 4, 3]);
  assert.deepEqual(shapeOf('conv', [v([1, 1, 7, 5]), w], { pads: [1, 0, 1, 0], strides: [2, 2] }), [1, 1, 4, 2]);
  assert.deepEqual(shapeOf('conv', [x, w], { auto_pad: 'SAME_LOWER', strides: [2, 2] }), [1, 1, 3, 3]);
  assert.deepEqual(shapeOf('conv', [v([1, 1, 7, 7]), w], { dilations: [2, 2] }), [1, 1, 3, 3]);
  assert.deepEqual(shapeOf('conv', [v([1, 4, 8, 8]), v([8, 2, 3, 3]), v([8])], { group: 2 }), [1, 8, 6, 6]);
  fails('conv', [v([1, 3, 8, 8]), v([8, 2, 3, 3])]);
  assert.deepEqual(shapeOf('conv_transpose', [v([1, 1, 3, 3]), v([1, 2, 3, 3])]), [1, 2, 5, 5]);
  assert.deepEqual(
    shapeOf('conv_transpose', [v([1, 1, 3, 3]), v([1, 2, 3, 3])], { strides: [3, 2], output_padding: [1, 1] }),
    [1, 2, 10, 8],
  );
  assert.deepEqual(
    shapeOf('conv_transpose', [v([1, 1, 3, 3]), v([1, 2, 3, 3])], { output_shape: [10, 8] }),
    [1, 2, 10, 8],
  );
});

test('pooling: floor by default, ceil_mode never starts a window in the right padding', () => {
  assert.deepEqual(shapeOf('pool', [v([1, 3, 32, 32])], { kernel_shape: [2, 2] }), [1, 3, 31, 31]);
  assert.deepEqual(
    shapeOf('pool', [v([1, 1, 4, 4])], { kernel_shape: [3, 3], strides: [2, 2], ceil_mode: 1 }),
    [1, 1, 2, 2],
  );
  assert.deepEqual(
    shapeOf('pool', [v([1, 1, 5])], { kernel_shape: [2], strides: [2], pads: [1, 1], ceil_mode: 1 }),
    [1, 1, 3],
  );
  assert.deepEqual(shapeOf('pool', [v([1, 1, 5])], { kernel_shape: [2], strides: [2], pads: [1, 1] }), [1, 1, 3]);
  assert.deepEqual(
    run('pool', [v([1, 3, 32, 32])], { kernel_shape: [2, 2], auto_pad: 'SAME_UPPER', strides: [3, 3] })[1],
    { shape: [1, 3, 11, 11], dtype: 7 },
  );
  assert.deepEqual(shapeOf('global_pool', [v([2, 3, 7, 9])]), [2, 3, 1, 1]);
  fails('pool', [v([1, 3, 4, 4])], {}, 'bad_attribute');
});

test('reductions: axes from the attribute or a constant input; keepdims; noop_with_empty_axes', () => {
  const x = v([3, 2, 2]);
  assert.deepEqual(shapeOf('reduce', [x], { axes: [1] }), [3, 1, 2]);
  assert.deepEqual(shapeOf('reduce', [x], { axes: [1], keepdims: 0 }), [3, 2]);
  assert.deepEqual(shapeOf('reduce', [x]), [1, 1, 1]);
  assert.deepEqual(shapeOf('reduce', [x, v([1], [-1], I64)], { keepdims: 0 }), [3, 2]);
  assert.deepEqual(shapeOf('reduce', [x, v([0], [], I64)], { noop_with_empty_axes: 1 }), [3, 2, 2]);
  fails('reduce', [x, v([1])], {}, 'not_constant');
  assert.deepEqual(run('arg_reduce', [v([2, 3, 4])], { axis: 1, keepdims: 0 })[0], { shape: [2, 4], dtype: 7 });
});

test('Reshape: 0 copies, -1 takes the rest, allowzero keeps a 0; impossible targets are errors', () => {
  const x = v([2, 3, 4]);
  const target = (t) => v([t.length], t, I64);
  assert.deepEqual(shapeOf('reshape', [x, target([4, 2, 3])]), [4, 2, 3]);
  assert.deepEqual(shapeOf('reshape', [x, target([2, -1])]), [2, 12]);
  assert.deepEqual(shapeOf('reshape', [x, target([0, 4, -1])]), [2, 4, 3]);
  assert.deepEqual(shapeOf('reshape', [x, target([-1])]), [24]);
  assert.deepEqual(shapeOf('reshape', [v([0, 3, 4]), target([3, 4, 0])], { allowzero: 1 }), [3, 4, 0]);
  fails('reshape', [x, target([5, -1])]);
  fails('reshape', [x, target([-1, -1])]);
  fails('reshape', [x, v([2])], {}, 'not_constant');
  assert.deepEqual(shapeOf('flatten', [v([2, 3, 4, 5])], { axis: 0 }), [1, 120]);
  assert.deepEqual(shapeOf('flatten', [v([2, 3, 4, 5])], { axis: -1 }), [24, 5]);
  assert.deepEqual(shapeOf('flatten', [v([2, 3, 4, 5])]), [2, 60]);
});

test('Squeeze, Unsqueeze, Transpose, Concat', () => {
  assert.deepEqual(shapeOf('squeeze', [v([1, 3, 1, 5])]), [3, 5]);
  assert.deepEqual(shapeOf('squeeze', [v([1, 3, 1, 5]), v([1], [-2], I64)]), [1, 3, 5]);
  fails('squeeze', [v([1, 3]), v([1], [1], I64)]);
  assert.deepEqual(shapeOf('unsqueeze', [v([3, 4, 5])], { axes: [0, 4] }), [1, 3, 4, 5, 1]);
  assert.deepEqual(shapeOf('unsqueeze', [v([3, 4, 5]), v([2], [-1, 1], I64)]), [3, 1, 4, 5, 1]);
  assert.deepEqual(shapeOf('transpose', [v([2, 3, 4])]), [4, 3, 2]);
  assert.deepEqual(shapeOf('transpose', [v([2, 3, 4])], { perm: [1, 0, 2] }), [3, 2, 4]);
  fails('transpose', [v([2, 3, 4])], { perm: [0, 0, 1] }, 'bad_attribute');
  assert.deepEqual(shapeOf('concat', [v([2, 3]), v([2, 5]), null], { axis: -1 }), [2, 8]);
  fails('concat', [v([2, 3]), v([3, 3])], { axis: 1 });
});

test('Gather, GatherElements, GatherND', () => {
  assert.deepEqual(shapeOf('gather', [v([5, 4, 3]), v([2, 2], null, I64)], { axis: 1 }), [5, 2, 2, 3]);
  assert.deepEqual(shapeOf('gather', [v([5, 4]), v([], null, I64)]), [4]);
  assert.deepEqual(shapeOf('gather_elements', [v([3, 3]), v([2, 3], null, I64)], { axis: 1 }), [2, 3]);
  assert.deepEqual(shapeOf('gather_nd', [v([2, 2, 2]), v([2, 1, 2], null, I64)]), [2, 1, 2]);
  assert.deepEqual(shapeOf('gather_nd', [v([2, 2, 2]), v([2, 1], null, I64)], { batch_dims: 1 }), [2, 2]);
});

test('normalizations: LayerNormalization statistics keep leading axes; BatchNormalization statistics are per channel', () => {
  assert.deepEqual(
    run('layer_norm', [v([2, 3, 4]), v([4])], { axis: -1 }, 3).map((o) => o.shape),
    [
      [2, 3, 4],
      [2, 3, 1],
      [2, 3, 1],
    ],
  );
  assert.deepEqual(run('layer_norm', [v([2, 3, 4]), v([3, 4])], { axis: 1 }, 3)[1].shape, [2, 1, 1]);
  const bn = run('batch_norm', [v([2, 3, 4, 5]), v([3]), v([3]), v([3]), v([3])], {}, 3);
  assert.deepEqual(
    bn.slice(0, 3).map((o) => o.shape),
    [[2, 3, 4, 5], [3], [3]],
  );
  assert.deepEqual(shapeOf('unary', [v([2, 7]), v([])]), [2, 7]);
});

test('Split: explicit sizes, equal parts, and opset 18 num_outputs with a smaller last part', () => {
  const shapes = (inputs, attrs, n) => run('split', inputs, attrs, n).map((o) => o.shape);
  assert.deepEqual(shapes([v([6, 2])], {}, 3), [
    [2, 2],
    [2, 2],
    [2, 2],
  ]);
  assert.deepEqual(shapes([v([2, 6]), v([2], [2, 4], I64)], { axis: 1 }, 2), [
    [2, 2],
    [2, 4],
  ]);
  assert.deepEqual(shapes([v([2, 6])], { axis: 1, split: [1, 5] }, 2), [
    [2, 1],
    [2, 5],
  ]);
  assert.deepEqual(shapes([v([7])], { num_outputs: 3 }, 3), [[3], [3], [1]]);
  assert.throws(() => run('split', [v([7])], {}, 3), /7 does not split into 3 equal parts/);
  fails('split', [v([6]), v([2], [1, 2], I64)]);
});

test('Slice clamps like ONNX: negative indices, huge ends, negative steps, attribute form', () => {
  const ints = (xs) => v([xs.length], xs, I64);
  const x = v([20, 10, 5]);
  assert.deepEqual(shapeOf('slice', [x, ints([0, 0]), ints([3, 10]), ints([0, 1]), ints([1, 1])]), [3, 10, 5]);
  assert.deepEqual(shapeOf('slice', [x, ints([1]), ints([9.223372036854776e18]), ints([1])]), [20, 9, 5]);
  assert.deepEqual(
    shapeOf('slice', [x, ints([-1]), ints([-9.223372036854776e18]), ints([1]), ints([-1])]),
    [20, 10, 5],
  );
  assert.deepEqual(shapeOf('slice', [x, ints([20]), ints([1000])]), [0, 10, 5]);
  assert.deepEqual(shapeOf('slice', [x, ints([0]), ints([-1]), ints([2]), ints([2])]), [20, 10, 2]);
  assert.deepEqual(shapeOf('slice', [x], { starts: [1], ends: [3], axes: [0] }), [2, 10, 5]);
  fails('slice', [x, ints([0]), ints([1]), ints([0]), ints([0])]);
});

test('Pad, Expand, Tile, TopK', () => {
  const ints = (xs) => v([xs.length], xs, I64);
  assert.deepEqual(shapeOf('pad', [v([3, 2]), ints([0, 2, 0, 0])]), [3, 4]);
  assert.deepEqual(shapeOf('pad', [v([3, 2])], { pads: [1, 1, 1, 1] }), [5, 4]);
  assert.deepEqual(shapeOf('pad', [v([1, 3, 4, 5]), ints([1, 2, 3, 4]), null, ints([1, 3])]), [1, 7, 4, 11]);
  assert.deepEqual(shapeOf('expand', [v([3, 1]), ints([2, 1, 6])]), [2, 3, 6]);
  assert.deepEqual(shapeOf('tile', [v([2, 3]), ints([2, 2])]), [4, 6]);
  assert.deepEqual(
    run('topk', [v([3, 4]), ints([3])], { axis: 1 }, 2).map((o) => [o.shape, o.dtype ?? F32]),
    [
      [[3, 3], F32],
      [[3, 3], I64],
    ],
  );
});

test('Einsum: explicit and implicit outputs, repeated letters, ellipses', () => {
  assert.deepEqual(shapeOf('einsum', [v([2, 3]), v([3, 4])], { equation: 'ij,jk->ik' }), [2, 4]);
  assert.deepEqual(shapeOf('einsum', [v([2, 3]), v([3, 4])], { equation: 'ij,jk' }), [2, 4]);
  assert.deepEqual(shapeOf('einsum', [v([5, 2, 3]), v([5, 3, 4])], { equation: 'bij, bjk -> bik' }), [5, 2, 4]);
  assert.deepEqual(shapeOf('einsum', [v([3, 3])], { equation: 'ii->i' }), [3]);
  assert.deepEqual(shapeOf('einsum', [v([7, 2, 3]), v([1, 3, 4])], { equation: '...ij,...jk->...ik' }), [7, 2, 4]);
  assert.deepEqual(shapeOf('einsum', [v([2, 3])], { equation: 'ij->' }), []);
  fails('einsum', [v([2, 3])], { equation: 'ijk->i' });
});

test('recurrent ops, Resize, OneHot, DepthToSpace', () => {
  const rnn = run('rnn', [v([7, 2, 5])], { hidden_size: 4, direction: 'bidirectional' }, 3).map((o) => o.shape);
  assert.deepEqual(rnn, [
    [7, 2, 2, 4],
    [2, 2, 4],
    [2, 2, 4],
  ]);
  assert.deepEqual(shapeOf('rnn', [v([2, 7, 5])], { hidden_size: 4, layout: 1 }), [2, 7, 1, 4]);
  const scales = v([4], [1, 1, 2, 1.5]);
  assert.deepEqual(shapeOf('resize', [v([1, 1, 4, 4]), null, scales]), [1, 1, 8, 6]);
  assert.deepEqual(shapeOf('resize', [v([1, 1, 4, 4]), null, null, v([4], [1, 1, 3, 2], I64)]), [1, 1, 3, 2]);
  assert.deepEqual(
    shapeOf('resize', [v([1, 1, 4, 4]), null, null, v([2], [6, 6], I64)], {
      axes: [2, 3],
      keep_aspect_ratio_policy: 'not_larger',
    }),
    [1, 1, 6, 6],
  );
  assert.deepEqual(shapeOf('resize', [v([1, 1, 2, 4]), v([4], [1, 1, 2, 2])]), [1, 1, 4, 8], 'opset 10: X, scales');
  fails('resize', [v([1, 1, 2, 4]), null, v([4])], {}, 'not_constant');
  assert.deepEqual(shapeOf('one_hot', [v([2, 3], null, I64), v([], [10]), v([2])], { axis: 1 }), [2, 10, 3]);
  assert.deepEqual(shapeOf('depth_to_space', [v([1, 8, 2, 3])], { blocksize: 2 }), [1, 2, 4, 6]);
  assert.deepEqual(shapeOf('space_to_depth', [v([1, 2, 4, 6])], { blocksize: 2 }), [1, 8, 2, 3]);
});

test('sources know their values: Shape (with start/end), Size, ConstantOfShape, Range', () => {
  assert.deepEqual(run('shape', [v([2, 3, 4])])[0], { shape: [3], dtype: I64, value: [2, 3, 4] });
  assert.deepEqual(run('shape', [v([2, 3, 4])], { start: -2 })[0].value, [3, 4]);
  assert.deepEqual(run('shape', [v([2, 3, 4])], { start: 1, end: -1 })[0].value, [3]);
  assert.deepEqual(run('size', [v([2, 3, 4])])[0].value, [24]);
  assert.deepEqual(run('constant_of_shape', [v([2], [2, 3], I64)])[0], {
    shape: [2, 3],
    dtype: F32,
    value: [0, 0, 0, 0, 0, 0],
  });
  const fill = tensor('v', I64, [1], [7]);
  assert.deepEqual(run('constant_of_shape', [v([1], [2], I64)], { value: fill })[0], {
    shape: [2],
    dtype: I64,
    value: [7, 7],
  });
  assert.deepEqual(run('range', [v([], [3], I64), v([], [10], I64), v([], [3], I64)])[0], {
    shape: [3],
    dtype: I64,
    value: [3, 6, 9],
  });
  assert.deepEqual(run('range', [v([], [10]), v([], [6]), v([], [-3])])[0].shape, [2]);
  fails('range', [v([]), v([], [6]), v([], [1])], {}, 'not_constant');
});

// PyTorch's `x.view(x.size(0), -1)` exports as Shape → Gather → Unsqueeze → Concat → Reshape.
test('a shape computed inside the model (the PyTorch view pattern) folds into a constant that is part of the Reshape', () => {
  const bytes = modelBytes(
    graph({
      inputs: [info('x', F32, [8, 3, 4, 4])],
      outputs: [info('y', F32)],
      initializers: [tensor('zero', I64, [], [0]), tensor('minus_one', I64, [1], [-1])],
      nodes: [
        node('Shape', ['x'], ['s']),
        node('Gather', ['s', 'zero'], ['n']),
        node('Unsqueeze', ['n'], ['n1'], { axes: [0] }),
        node('Concat', ['n1', 'minus_one'], ['target'], { axis: 0 }),
        node('Reshape', ['x', 'target'], ['y']),
      ],
    }),
    { opset: 11 },
  );
  const { graph: g, warnings } = importOnnx(bytes);
  assert.deepEqual(warnings, []);
  const y = g.ops.find((op) => op.name === 'y');
  assert.deepEqual([y.kind, y.shape, y.inputs], ['reshape', [8, 48], ['x']]);
  assert.deepEqual(
    g.ops.map((op) => [op.name, op.kind, op.shape, op.inputs]),
    [
      ['x', 'input', [8, 3, 4, 4], undefined],
      ['y', 'reshape', [8, 48], ['x']],
    ],
  );
});

test('integer arithmetic on shapes folds too (Div, Equal, Where: [-1, 10 / 2])', () => {
  const bytes = modelBytes(
    graph({
      inputs: [info('x', F32, [6, 10])],
      outputs: [info('y', F32)],
      initializers: [
        tensor('two', I64, [], [2]),
        tensor('minus', I64, [2], [-1, 5]),
        tensor('neg', I64, [2], [-1, -1]),
      ],
      nodes: [
        node('Shape', ['x'], ['s']),
        node('Div', ['s', 'two'], ['half']),
        node('Equal', ['minus', 'neg'], ['is_neg']),
        node('Where', ['is_neg', 'minus', 'half'], ['target']),
        node('Reshape', ['x', 'target'], ['y']),
      ],
    }),
  );
  assert.deepEqual(importOnnx(bytes).graph.ops.at(-1).shape, [12, 5]);
});
