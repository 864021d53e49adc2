// dims-graphs.mjs — graphs with named dimensions (docs/design.md §16) for the browser tests and
// bench/page-dims.mjs (not a test file itself). Each is graph JSON text, one op per line as the page writes it.
//   SCALED: bias + relu over ["N", 768] with the default N = 8 (the grouping never depends on N);
//   PAIR: relu of x ["N", 768] added to w ["M", 768] (M = 8): under seed the add fuses only where the shapes
//     broadcast, so the grouping changes at N = 2, 8 and 9 (the planner's sweep finds them);
//   transformerWithNames(n): the first n ops of a stack of transformer encoder layers (40 ops each: layer
//     norms, Q/K/V, attention scores over ["batch", 12, "seq", "seq"], softmax, MLP with GELU, residuals), with
//     defaults batch = 8, seq = 512.
import { formatGraph } from '../../web/src/graph/graph-text.js';

const op = (name, kind, inputs, shape, dtype = 'f32') => ({
  name,
  kind,
  ...(inputs.length ? { inputs } : {}),
  shape,
  dtype,
});

export const SCALED = formatGraph({
  dims: { N: 8 },
  ops: [
    op('x', 'input', [], ['N', 768]),
    op('b', 'input', [], [768]),
    op('y', 'add', ['x', 'b'], ['N', 768]),
    op('z', 'relu', ['y'], ['N', 768]),
  ],
});

export const PAIR = formatGraph({
  dims: { N: 8, M: 8 },
  ops: [
    op('x', 'input', [], ['N', 768]),
    op('y', 'relu', ['x'], ['N', 768]),
    op('w', 'input', [], ['M', 768]),
    op('z', 'add', ['y', 'w'], ['M', 768]),
  ],
});

// One encoder layer reading `x` (ops named with the layer's number).
function layer(k, x) {
  const t = ['batch', 'seq', 768];
  const heads = (last) => ['batch', 12, 'seq', last];
  const f = (name, kind, inputs, shape) => op(`${name}${k}`, kind, inputs, shape, 'f16');
  const w = (name, shape) => op(`${name}${k}`, 'input', [], shape, 'f16');
  const n = (name) => `${name}${k}`;
  return [
    f('ln1_', 'layer_norm', [x], t),
    ...['q', 'k', 'v'].flatMap((p) => [
      w(`w${p}`, [768, 768]),
      f(`${p}_`, 'matmul', [n('ln1_'), n(`w${p}`)], t),
      w(`b${p}`, [768]),
      f(`${p}b`, 'add', [n(`${p}_`), n(`b${p}`)], t),
    ]),
    f('qh', 'reshape', [n('qb')], heads(64)),
    f('kt', 'transpose', [n('kb')], ['batch', 12, 64, 'seq']),
    f('vh', 'reshape', [n('vb')], heads(64)),
    f('scores', 'matmul', [n('qh'), n('kt')], heads('seq')),
    op(`scale${k}`, 'constant', [], [], 'f16'),
    f('scaled', 'mul', [n('scores'), n('scale')], heads('seq')),
    w('mask', ['batch', 1, 1, 'seq']),
    f('masked', 'add', [n('scaled'), n('mask')], heads('seq')),
    f('probs', 'softmax', [n('masked')], heads('seq')),
    f('ctx', 'matmul', [n('probs'), n('vh')], heads(64)),
    f('merged', 'reshape', [n('ctx')], t),
    w('wo', [768, 768]),
    f('o', 'matmul', [n('merged'), n('wo')], t),
    w('bo', [768]),
    f('ob', 'add', [n('o'), n('bo')], t),
    f('res1_', 'add', [n('ob'), x], t),
    f('ln2_', 'layer_norm', [n('res1_')], t),
    w('w1_', [768, 3072]),
    f('fc1_', 'matmul', [n('ln2_'), n('w1_')], ['batch', 'seq', 3072]),
    w('b1_', [3072]),
    f('fc1b', 'add', [n('fc1_'), n('b1_')], ['batch', 'seq', 3072]),
    f('act', 'gelu', [n('fc1b')], ['batch', 'seq', 3072]),
    w('w2_', [3072, 768]),
    f('fc2_', 'matmul', [n('act'), n('w2_')], t),
    w('b2_', [768]),
    f('fc2b', 'add', [n('fc2_'), n('b2_')], t),
    f('res2_', 'add', [n('fc2b'), n('res1_')], t),
  ];
}

export function transformerWithNames(count) {
  const ops = [op('x', 'input', [], ['batch', 'seq', 768], 'f16')];
  for (let k = 0; ops.length < count; k++) ops.push(...layer(k, k === 0 ? 'x' : `res2_${k - 1}`));
  return formatGraph({ dims: { batch: 8, seq: 512 }, ops: ops.slice(0, count) });
}
