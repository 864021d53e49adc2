// onnx-import.test.mjs — importOnnx on small models written inline: what each construct becomes, what is
// dropped or assumed (and warned about), how failures name the node, and the limits that keep hostile files
// from crashing or hanging the importer.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { importOnnx, OnnxImportError } from '../../web/src/import/onnx/import.js';
import {
  BOOL,
  F32,
  I64,
  STRING,
  float,
  graph,
  info,
  modelBytes,
  mlpChainModel,
  node,
  sequenceInfo,
  tensor,
} from './onnx-model-builder.mjs';

const load = (g, opts) => importOnnx(modelBytes(graph(g), opts));
const ops = (g, opts) => load(g, opts).graph.ops;
const byName = (list) => Object.fromEntries(list.map((op) => [op.name, op]));

// Asserts an OnnxImportError with these fields (message checked by regex).
function rejects(g, expected, opts) {
  assert.throws(
    () => load(g, opts),
    (e) => {
      assert.ok(e instanceof OnnxImportError, `${e}`);
      const { message, ...fields } = expected;
      for (const [k, v] of Object.entries(fields)) assert.equal(e[k], v, `${k} in ${e.message}`);
      if (message) assert.match(e.message, message);
      return true;
    },
  );
}

test('Conv → BatchNormalization → Relu: weights are constants, the conv keeps its bias, the output is marked', () => {
  const {
    graph: g,
    stats,
    warnings,
  } = load({
    inputs: [info('x', F32, [1, 3, 8, 8])],
    outputs: [info('y', F32)],
    initializers: [
      tensor('w', F32, [4, 3, 3, 3]),
      tensor('b', F32, [4]),
      ...['scale', 'bias', 'mean', 'var'].map((n) => tensor(n, F32, [4])),
    ],
    nodes: [
      node('Conv', ['x', 'w', 'b'], ['c'], { pads: [1, 1, 1, 1] }, 'conv1'),
      node('BatchNormalization', ['c', 'scale', 'bias', 'mean', 'var'], ['n'], { epsilon: float(1e-5) }),
      node('Relu', ['n'], ['y']),
    ],
  });
  assert.deepEqual(warnings, []);
  assert.deepEqual(stats, { nodes: 3, ops: 10, opaque: 0, initializers: 6 });
  assert.deepEqual(g.ops, [
    { name: 'x', kind: 'input', shape: [1, 3, 8, 8], dtype: 'f32' },
    { name: 'w', kind: 'constant', shape: [4, 3, 3, 3], dtype: 'f32' },
    { name: 'b', kind: 'constant', shape: [4], dtype: 'f32' },
    { name: 'c', kind: 'conv', inputs: ['x', 'w', 'b'], shape: [1, 4, 8, 8], dtype: 'f32' },
    { name: 'scale', kind: 'constant', shape: [4], dtype: 'f32' },
    { name: 'bias', kind: 'constant', shape: [4], dtype: 'f32' },
    { name: 'mean', kind: 'constant', shape: [4], dtype: 'f32' },
    { name: 'var', kind: 'constant', shape: [4], dtype: 'f32' },
    { name: 'n', kind: 'batch_norm', inputs: ['c', 'scale', 'bias', 'mean', 'var'], shape: [1, 4, 8, 8], dtype: 'f32' },
    { name: 'y', kind: 'relu', inputs: ['n'], shape: [1, 4, 8, 8], dtype: 'f32', output: true },
  ]);
});

test('Gemm with C is matmul + add (as PyTorch Linear); without C one matmul', () => {
  const linear = (withBias) =>
    ops({
      inputs: [info('x', F32, [2, 16])],
      outputs: [info('y', F32)],
      initializers: [tensor('w', F32, [8, 16]), tensor('b', F32, [8])],
      nodes: [node('Gemm', withBias ? ['x', 'w', 'b'] : ['x', 'w'], ['y'], { transB: 1, alpha: float(0.5) })],
    });
  assert.deepEqual(
    linear(true)
      .slice(2)
      .map(({ name, kind, inputs, shape }) => [name, kind, inputs, shape]),
    [
      ['y/matmul', 'matmul', ['x', 'w'], [2, 8]],
      ['b', 'constant', undefined, [8]],
      ['y', 'add', ['y/matmul', 'b'], [2, 8]],
    ],
  );
  assert.deepEqual(
    linear(false)
      .slice(2)
      .map(({ name, kind }) => [name, kind]),
    [['y', 'matmul']],
  );
});

test('an unknown op is opaque, labelled with its ONNX type, shaped as declared; undeclared it is an error naming it', () => {
  const model = (declared) => ({
    inputs: [info('boxes', F32, [1, 6, 4]), info('scores', F32, [1, 1, 6])],
    outputs: [info('sel', I64, declared)],
    nodes: [node('MyCustomOp', ['boxes', 'scores'], ['sel'], {}, 'nms', 'com.example')],
  });
  const { graph: g, stats } = load(model([3, 3]));
  assert.deepEqual(g.ops[2], {
    name: 'sel',
    kind: 'opaque',
    inputs: ['boxes', 'scores'],
    shape: [3, 3],
    dtype: 'i64',
    label: 'MyCustomOp',
    output: true,
  });
  assert.equal(stats.opaque, 1);
  rejects(model(undefined), {
    node: 'nms',
    opType: 'MyCustomOp',
    path: 'graph.node[0]',
    code: 'unknown_shape',
    message: /^node 'nms' \(MyCustomOp\) at graph\.node\[0\]: .*declares no shape for output 'sel'/,
  });
  // A standard op of another domain is not taken for the standard one.
  const other = load({ ...model([3, 3]), nodes: [node('Relu', ['boxes'], ['sel'], {}, '', 'com.microsoft')] });
  assert.deepEqual([other.graph.ops[2].kind, other.graph.ops[2].label], ['opaque', 'Relu']);
});

test('nearest-kind and listed opaque ops carry their ONNX type as a label; exact kinds carry none', () => {
  const g = byName(
    ops({
      inputs: [info('x', F32, [1, 1, 4])],
      outputs: [info('y', F32)],
      nodes: [node('Selu', ['x'], ['s']), node('Relu', ['s'], ['r']), node('LRN', ['r'], ['y'], { size: 3 })],
    }),
  );
  assert.deepEqual([g.s.kind, g.s.label, g.r.inputs, g.r.label], ['leaky_relu', 'Selu', ['s'], undefined]);
  assert.deepEqual([g.y.kind, g.y.label], ['opaque', 'LRN']);
});

test('Identity and Dropout are elided; a used Dropout mask is a bool constant', () => {
  const g = ops({
    inputs: [info('x', F32, [2, 3])],
    outputs: [info('y', F32), info('mask', BOOL)],
    nodes: [node('Identity', ['x'], ['i']), node('Dropout', ['i'], ['d', 'mask']), node('Relu', ['d'], ['y'])],
  });
  assert.deepEqual(
    g.map(({ name, kind, inputs, output }) => [name, kind, inputs, output]),
    [
      ['x', 'input', undefined, undefined],
      ['y', 'relu', ['x'], true],
      ['mask', 'constant', undefined, true],
    ],
  );
  assert.equal(g[2].dtype, 'bool');
});

test('unused initializers are dropped; Constant nodes, Shape and ConstantOfShape are constants without inputs', () => {
  const { graph: g, stats } = load({
    inputs: [info('x', F32, [2, 3])],
    outputs: [info('y', F32)],
    initializers: [tensor('unused', F32, [1000]), tensor('scale', F32, [3])],
    nodes: [
      node('Constant', [], ['k'], { value: tensor('', F32, [3], [1, 2, 3]) }),
      node('Shape', ['x'], ['s']),
      node('ConstantOfShape', ['s'], ['z']),
      node('Add', ['x', 'k'], ['a']),
      node('Mul', ['a', 'scale'], ['m']),
      node('Sub', ['m', 'z'], ['y']),
    ],
  });
  const named = byName(g.ops);
  assert.equal(named.unused, undefined);
  assert.equal(stats.initializers, 1);
  for (const name of ['k', 'z', 'scale'])
    assert.deepEqual([named[name].kind, named[name].inputs], ['constant', undefined], name);
  assert.equal(named.s, undefined, 'Shape feeds only ConstantOfShape, which drops its input');
  assert.deepEqual(named.z.shape, [2, 3]);
});

test('operands that are part of the op: a constant Reshape target, Slice bounds, Clip bounds, a scalar factor', () => {
  const { graph: g, stats } = load({
    inputs: [info('x', F32, [2, 6])],
    outputs: [info('y', F32)],
    initializers: [
      tensor('target', I64, [2], [3, 4]),
      tensor('starts', I64, [1], [1]),
      tensor('ends', I64, [1], [3]),
      tensor('half', F32, [], [0.5]),
    ],
    nodes: [
      node('Reshape', ['x', 'target'], ['r']),
      node('Slice', ['r', 'starts', 'ends'], ['s']),
      node('Constant', [], ['lo'], { value: tensor('', F32, [], [0]) }),
      node('Constant', [], ['hi'], { value: tensor('', F32, [], [6]) }),
      node('Clip', ['s', 'lo', 'hi'], ['c']),
      node('Mul', ['half', 'c'], ['y']),
    ],
  });
  assert.deepEqual(
    g.ops.map(({ name, kind, inputs, shape }) => [name, kind, inputs, shape]),
    [
      ['x', 'input', undefined, [2, 6]],
      ['r', 'reshape', ['x'], [3, 4]],
      ['s', 'slice', ['r'], [2, 4]],
      ['c', 'clamp', ['s'], [2, 4]],
      ['y', 'mul', ['c'], [2, 4]],
    ],
  );
  assert.equal(stats.initializers, 0, 'no constant op was made for them');
});

test('operands that are known only at run time stay inputs; a constant also read as data is made once', () => {
  const g = byName(
    ops({
      inputs: [info('x', F32, [2, 6]), info('target', I64, [2]), info('k', F32, [])],
      outputs: [info('y', F32, [3, 4]), info('z', F32), info('w', I64)],
      initializers: [tensor('shape', I64, [2], [3, 4]), tensor('two', F32, [], [2])],
      nodes: [
        node('Reshape', ['x', 'target'], ['y']),
        node('Mul', ['x', 'k'], ['z']),
        node('Reshape', ['x', 'shape'], ['r']),
        node('Sin', ['shape'], ['w']),
        node('Pow', ['two', 'two'], ['p']),
      ],
    }),
  );
  assert.deepEqual(g.y.inputs, ['x', 'target'], 'a Reshape target from a graph input is a real dependency');
  assert.deepEqual(g.z.inputs, ['x', 'k'], 'a one-element graph input is not a constant');
  assert.deepEqual([g.r.inputs, g.w.inputs, g.shape.kind], [['x'], ['shape'], 'constant']);
  assert.deepEqual(g.p.inputs, ['two', 'two'], 'an elementwise op of scalar constants only keeps them');
});

test('a scalar constant read by an op that is not elementwise stays an input; Gemm folds a scalar C into its add', () => {
  const g = byName(
    ops({
      inputs: [info('x', F32, [2, 1])],
      outputs: [info('m', F32), info('y', F32)],
      initializers: [tensor('w', F32, [1, 1]), tensor('one', F32, [1, 1], [1]), tensor('c', F32, [], [1])],
      nodes: [node('MatMul', ['x', 'one'], ['m']), node('Gemm', ['x', 'w', 'c'], ['y'])],
    }),
  );
  assert.deepEqual(g.m.inputs, ['x', 'one']);
  assert.deepEqual([g.y.kind, g.y.inputs], ['add', ['y/matmul']]);
});

test('a symbolic dimension keeps its name, an unknown one gets a fresh name; each is warned about once', () => {
  const { graph: g, warnings } = load({
    inputs: [info('a', F32, ['batch', 3]), info('b', F32, ['batch', null])],
    outputs: [info('y', F32)],
    nodes: [node('Add', ['a', 'b'], ['y'])],
  });
  assert.deepEqual(
    g.ops.map((op) => op.shape),
    [
      ['batch', 3],
      ['batch', 'unk_0'],
      ['batch', 3],
    ],
  );
  assert.deepEqual(g.dims, { batch: 1, unk_0: 1 }, 'names without a value default to 1');
  assert.deepEqual(warnings, [
    "graph input 'a': dimension 'batch' of 'a' has no value, so \"dims\" gives it 1: set it with the import " +
      'option dims: {batch: N} (onnx2fusion --dim batch=N) or bind it when planning',
    "graph input 'b': unknown dimension 1 of 'b' is named 'unk_0' and has no value, so \"dims\" gives it 1: set it " +
      'with the import option dims: {unk_0: N} (onnx2fusion --dim unk_0=N) or bind it when planning',
  ]);
});

test('a declared shape that contradicts inference wins, with a warning naming the node', () => {
  const { graph: g, warnings } = load({
    inputs: [info('x', F32, [2, 3])],
    outputs: [info('y', F32, [3, 2])],
    nodes: [node('Relu', ['x'], ['y'], {}, 'act')],
  });
  assert.deepEqual(g.ops[1].shape, [3, 2]);
  assert.deepEqual(warnings, [
    "node 'act' (Relu): shape of 'y' inferred as [2,3] but the model declares [3,2]; using the declared shape",
  ]);
});

test('Split: one slice op per used output; unused outputs make no op', () => {
  const g = ops({
    inputs: [info('x', F32, [6, 4])],
    outputs: [info('a', F32), info('c', F32)],
    nodes: [node('Split', ['x'], ['a', 'b', 'c'], { axis: 0, split: [1, 2, 3] })],
  });
  assert.deepEqual(
    g.map(({ name, kind, shape }) => [name, kind, shape]),
    [
      ['x', 'input', [6, 4]],
      ['a', 'slice', [1, 4]],
      ['c', 'slice', [3, 4]],
    ],
  );
});

test('failures name the node, its op type and its path; unnamed nodes are #index (OpType)', () => {
  const reshape = (target) => ({
    inputs: [info('x', F32, [2, 3])],
    outputs: [info('y', F32)],
    initializers: [tensor('t', I64, [2], target)],
    nodes: [node('Relu', ['x'], ['r']), node('Reshape', ['r', 't'], ['y'])],
  });
  rejects(reshape([4, -1]), {
    node: '#1 (Reshape)',
    opType: 'Reshape',
    path: 'graph.node[1]',
    code: 'shape_inference',
    message: /^node #1 \(Reshape\) at graph\.node\[1\]: cannot reshape \[2,3\] \(6 elements\) to \[4,-1\]/,
  });
  rejects(
    { ...reshape([6]), nodes: [node('Relu', ['nowhere'], ['y'])] },
    { code: 'invalid_model', message: /input 'nowhere' is produced by no earlier node/ },
  );
  assert.throws(
    () => importOnnx(modelBytes(graph(reshape([4, -1]))), { fileName: 'net.onnx' }),
    /^OnnxImportError: net\.onnx: node #1/,
  );
});

test('strings, sequences and inputs without a shape are refused, naming what', () => {
  rejects(
    { inputs: [info('s', STRING, [2])], outputs: [info('y', STRING)], nodes: [node('Identity', ['s'], ['y'])] },
    { node: "graph input 's'", path: 'graph.input[0]', code: 'unsupported_dtype', message: /element type STRING/ },
  );
  rejects(
    {
      inputs: [info('x', F32, [2])],
      outputs: [sequenceInfo('q', F32)],
      nodes: [node('SequenceConstruct', ['x'], ['q'])],
    },
    { opType: 'SequenceConstruct', code: 'non_tensor', message: /'q' is a sequence value/ },
  );
  rejects(
    { inputs: [info('x', F32)], outputs: [info('y', F32)], nodes: [node('Relu', ['x'], ['y'])] },
    { node: "graph input 'x'", code: 'unknown_shape', message: /declares no shape/ },
  );
});

test('nodes listed out of order are imported in dependency order; a cycle names a node on it', () => {
  const g = ops({
    inputs: [info('x', F32, [3])],
    outputs: [info('y', F32)],
    nodes: [node('Neg', ['a'], ['y']), node('Exp', ['x'], ['a'])],
  });
  assert.deepEqual(
    g.map((op) => op.name),
    ['x', 'a', 'y'],
  );
  rejects(
    {
      inputs: [info('x', F32, [3])],
      outputs: [info('y', F32)],
      nodes: [node('Add', ['x', 'b'], ['a']), node('Neg', ['a'], ['b']), node('Neg', ['b'], ['y'])],
    },
    { path: 'graph.node[0]', code: 'invalid_model', message: /form a cycle/ },
  );
  rejects(
    {
      inputs: [info('x', F32, [3])],
      outputs: [info('y', F32)],
      nodes: [node('Neg', ['x'], ['y']), node('Exp', ['x'], ['y'])],
    },
    { path: 'graph.node[1]', message: /tensor 'y' is produced by an earlier node too/ },
  );
});

const constant = (name, dims, value) => node('Constant', [], [name], { value: tensor('', F32, dims, value) });

test('If: each branch is a region; the output is an opaque op labelled If, reading the condition and both results', () => {
  const branch = (name, dims) =>
    graph({ name, nodes: [node('Relu', ['x'], [`${name}_out`])], outputs: [info(`${name}_out`, F32, dims)] });
  const { graph: g, stats } = load({
    inputs: [info('x', F32, [5]), info('c', BOOL, [])],
    outputs: [info('y', F32)],
    nodes: [node('If', ['c'], ['y'], { then_branch: branch('then', [5]), else_branch: branch('else', [5]) }, 'choose')],
  });
  assert.deepEqual(
    g.ops.map(({ name, kind, inputs, label, region }) => [name, kind, inputs, label, region]),
    [
      ['x', 'input', undefined, undefined, undefined],
      ['c', 'input', undefined, undefined, undefined],
      ['then_out', 'relu', ['x'], undefined, 'choose/then_branch'],
      ['else_out', 'relu', ['x'], undefined, 'choose/else_branch'],
      ['y', 'opaque', ['c', 'then_out', 'else_out'], 'If', undefined],
    ],
  );
  assert.deepEqual(stats, { nodes: 3, ops: 5, opaque: 1, initializers: 0 });
});

test('Loop: the body is a region, its inputs are region sources, a scan output is [trip count, ...]', () => {
  const body = graph({
    name: 'body',
    inputs: [info('i', I64, []), info('cond_in', BOOL, []), info('acc_in', F32)],
    outputs: [info('cond_out', BOOL, []), info('acc_out', F32), info('step', F32)],
    nodes: [
      node('Identity', ['cond_in'], ['cond_out']),
      node('Add', ['acc_in', 'x'], ['acc_out']),
      node('Exp', ['acc_out'], ['step']),
    ],
  });
  const g = byName(
    ops({
      inputs: [info('x', F32, [2, 3]), info('init', F32, [2, 3])],
      outputs: [info('final', F32), info('steps', F32)],
      initializers: [tensor('M', I64, [], [4]), tensor('go', BOOL, [], [1])],
      nodes: [node('Loop', ['M', 'go', 'init'], ['final', 'steps'], { body }, 'loop')],
    }),
  );
  assert.deepEqual(
    [g.acc_out.region, g.acc_out.inputs, g.acc_in.kind, g.acc_in.region],
    ['loop/body', ['acc_in', 'x'], 'input', 'loop/body'],
  );
  assert.deepEqual([g.final.kind, g.final.shape, g.final.region, g.final.label], ['scan', [2, 3], undefined, 'Loop']);
  assert.deepEqual([g.steps.kind, g.steps.shape], ['scan', [4, 2, 3]]);
  assert.equal(g.i, undefined, 'an unread body input makes no op');
});

test('Scan: state keeps its shape, scan outputs gain the sequence axis', () => {
  const body = graph({
    name: 'body',
    inputs: [info('s_in', F32), info('row', F32)],
    outputs: [info('s_out', F32), info('row_out', F32)],
    nodes: [node('Add', ['s_in', 'row'], ['s_out']), node('Neg', ['s_out'], ['row_out'])],
  });
  const g = byName(
    ops(
      {
        inputs: [info('s0', F32, [4]), info('xs', F32, [7, 4])],
        outputs: [info('s', F32), info('ys', F32)],
        nodes: [node('Scan', ['s0', 'xs'], ['s', 'ys'], { body, num_scan_inputs: 1, scan_output_axes: [1] })],
      },
      { opset: 11 },
    ),
  );
  assert.deepEqual([g.row.shape, g.s_out.shape, g.s.shape, g.ys.shape], [[4], [4], [4], [4, 7]]);
  assert.deepEqual([g.s.label, g.ys.label, g.s_out.label], ['Scan', 'Scan', undefined]);
});

test('subgraphs nested deeper than the limit are refused, naming the node', () => {
  const leaf = graph({ name: 'leaf', nodes: [constant('v', [1], [1])], outputs: [info('v', F32, [1])] });
  let inner = leaf;
  for (let depth = 0; depth < 20; depth++) {
    inner = graph({
      name: `g${depth}`,
      nodes: [node('If', ['c'], [`o${depth}`], { then_branch: inner, else_branch: leaf }, `if${depth}`)],
      outputs: [info(`o${depth}`, F32, [1])],
    });
  }
  rejects(
    { inputs: [info('c', BOOL, [])], outputs: [info('o19', F32)], nodes: inner.node },
    { code: 'too_large', message: /subgraphs nest more than 16 deep/ },
  );
});

test('bytes that are not an ONNX model are an invalid_model error, never another exception', () => {
  const good = modelBytes(
    graph({ inputs: [info('x', F32, [2])], outputs: [info('y', F32)], nodes: [node('Relu', ['x'], ['y'])] }),
  );
  for (const bytes of [
    new Uint8Array(),
    new Uint8Array([0x50, 0x4b, 3, 4]),
    new Uint8Array([0xff, 0xff, 0xff]),
    new TextEncoder().encode('{"ops": []}'),
  ]) {
    assert.throws(
      () => importOnnx(bytes),
      (e) => e instanceof OnnxImportError && e.code === 'invalid_model' && e.path === 'model',
    );
  }
  assert.throws(() => importOnnx('not bytes'), OnnxImportError);
  // Every truncation and many single-byte changes either import or fail with OnnxImportError.
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const variants = [];
  for (let n = 0; n < good.length; n++) variants.push(good.slice(0, n));
  for (let k = 0; k < 300; k++) {
    const copy = good.slice();
    copy[Math.floor(random() * copy.length)] = Math.floor(random() * 256);
    variants.push(copy);
  }
  for (const bytes of variants) {
    try {
      importOnnx(bytes);
    } catch (e) {
      assert.ok(e instanceof OnnxImportError && e.code !== 'internal', `${e.stack}`);
    }
  }
});

test('a tensor too large for exact byte counts is refused, naming the node', () => {
  rejects(
    {
      inputs: [info('x', F32, [2 ** 20, 2 ** 20])],
      outputs: [info('y', F32)],
      nodes: [node('Unsqueeze', ['x'], ['u'], { axes: [0] }), node('Expand', ['u', 'shape'], ['y'])],
      initializers: [tensor('shape', I64, [3], [2 ** 20, 1, 1])],
    },
    { opType: 'Expand', code: 'too_large' },
  );
});

// How fast this imports is measured by bench/page-modules.mjs (`npm run bench:page`), not here.
test('a 10,000-node model with 42 MB of weights imports whole: every node, weight and op counted once', () => {
  const bytes = mlpChainModel(2500);
  const { stats, graph: g } = importOnnx(bytes);
  assert.deepEqual(stats, { nodes: 10_000, ops: 15_001, opaque: 0, initializers: 5_000 }); // targets: part of Reshape
  assert.equal(g.ops.length, 15_001);
});
