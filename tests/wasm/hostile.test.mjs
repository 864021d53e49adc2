// hostile.test.mjs — hostile input to the WASM planner: each gives its exact error (code and location) or the
// correct plan, and never a trap (internal_error) or a wrong number.
//
// Sizes: the 1,000,000-op chain is about 62 MB of JSON and takes the heap to about 800 MiB of its 1 GiB cap
// (so it runs last); the padded text is 100 MB (inside the 256 MiB text cap); the refused one is one byte over
// that cap. A graph that exhausts the heap is in module.test.mjs; the heap under load in load.test.mjs.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadFusion } from '../../wasm/fusion.mjs';

const fusion = await loadFusion();
const x = { name: 'x', kind: 'input', shape: [4], dtype: 'f32' };
const relu = (inputs, extra = {}) => ({ kind: 'relu', inputs, shape: [4], dtype: 'f32', ...extra });
const graph = (...ops) => JSON.stringify({ ops });
const nested = (depth) => '['.repeat(depth) + ']'.repeat(depth);
const MAX_EXACT = 2 ** 53 - 1;

// The error's code and location (op, path, line, column), as the planner reports them.
function failure(result) {
  assert.equal(result.ok, false, 'the planner accepted a graph it must refuse');
  const { code, op, path, line, column } = result.error;
  assert.equal(typeof result.error.message, 'string');
  return Object.fromEntries(Object.entries({ code, op, path, line, column }).filter(([, v]) => v !== undefined));
}

function plan(text, options) {
  const result = fusion.plan(text, options);
  assert.equal(result.ok, true, JSON.stringify(result.error));
  return result;
}

const REFUSED = [
  // Dimensions whose product overflows 64 bits, including products a wrapping multiply would make 0.
  [
    '2^32 x 2^32 x 16 elements',
    graph({ ...x, shape: [2 ** 32, 2 ** 32, 16] }),
    { code: 'byte_overflow', op: 0, path: '/ops/0/shape' },
  ],
  [
    '2^32 x 2^32 bytes (2^64 wraps to 0)',
    graph({ name: 'x', kind: 'input', shape: [2 ** 32, 2 ** 32], dtype_bytes: 1 }),
    { code: 'byte_overflow', op: 0, path: '/ops/0/shape' },
  ],
  ['2^52 x 2^52', graph({ ...x, shape: [2 ** 52, 2 ** 52] }), { code: 'byte_overflow', op: 0, path: '/ops/0/shape' }],
  [
    'rank 64 of 2s (2^64 elements)',
    graph({ name: 'x', kind: 'input', shape: Array(64).fill(2), dtype_bytes: 1 }),
    { code: 'byte_overflow', op: 0, path: '/ops/0/shape' },
  ],
  // Byte totals above 2^53: one op, and two ops that fit alone but not together.
  [
    'one op of 2^53 bytes',
    graph({ name: 'x', kind: 'input', shape: [2 ** 50, 8], dtype_bytes: 1 }),
    { code: 'byte_overflow', op: 0, path: '/ops/0/shape' },
  ],
  [
    '2^52 elements of 2 bytes',
    graph({ name: 'x', kind: 'input', shape: [2 ** 52], dtype_bytes: 2 }),
    { code: 'byte_overflow', op: 0, path: '/ops/0/shape' },
  ],
  [
    'two ops of 2^52 bytes each (3 x 2^52 moved)',
    graph(
      { name: 'x', kind: 'input', shape: [2 ** 52], dtype_bytes: 1 },
      { ...relu(['x']), shape: [2 ** 52], dtype_bytes: 1, dtype: undefined },
    ),
    { code: 'byte_overflow', path: '/ops' },
  ],
  // Dimensions that are not whole numbers from 0 to 2^53 - 1.
  [
    'a negative dimension',
    graph({ ...x, shape: [4, -1] }),
    { code: 'invalid_dimension', op: 0, path: '/ops/0/shape/1' },
  ],
  ['a float dimension', graph({ ...x, shape: [2.5] }), { code: 'invalid_dimension', op: 0, path: '/ops/0/shape/0' }],
  [
    'a whole float dimension 4.0',
    '{"ops": [{"name": "x", "kind": "input", "shape": [4.0], "dtype": "f32"}]}',
    { code: 'invalid_dimension', op: 0, path: '/ops/0/shape/0' },
  ],
  ['a string dimension', graph({ ...x, shape: ['4'] }), { code: 'invalid_dimension', op: 0, path: '/ops/0/shape/0' }],
  ['a null dimension', graph({ ...x, shape: [4, null] }), { code: 'invalid_dimension', op: 0, path: '/ops/0/shape/1' }],
  [
    'a dimension of 1e300',
    graph({ ...x, shape: [1e300] }),
    { code: 'invalid_dimension', op: 0, path: '/ops/0/shape/0' },
  ],
  [
    'a 26-digit dimension',
    '{"ops": [{"name": "x", "kind": "input", "shape": [99999999999999999999999999], "dtype": "f32"}]}',
    { code: 'invalid_dimension', op: 0, path: '/ops/0/shape/0' },
  ],
  [
    'a dimension of 2^53',
    `{"ops": [{"name": "x", "kind": "input", "shape": [${2 ** 53}], "dtype": "i8"}]}`,
    { code: 'invalid_dimension', op: 0, path: '/ops/0/shape/0' },
  ],
  [
    'a NaN dimension (not JSON)',
    '{"ops": [{"name": "x", "kind": "input", "shape": [NaN], "dtype": "f32"}]}',
    { code: 'json_syntax', line: 1, column: 51 },
  ],
  [
    'a shape that is an object',
    '{"ops": [{"name": "x", "kind": "input", "shape": {"0": 4}, "dtype": "f32"}]}',
    { code: 'invalid_type', op: 0, path: '/ops/0/shape' },
  ],
  // Names.
  ['a duplicate name', graph(x, { ...x }), { code: 'duplicate_name', op: 1, path: '/ops/1/name' }],
  ['an empty name', graph({ ...x, name: '' }), { code: 'invalid_name', op: 0, path: '/ops/0/name' }],
  [
    'a name of 4,097 bytes (2,049 two-byte characters)',
    graph(x, relu(['x'], { name: 'ß'.repeat(2_049) })),
    { code: 'invalid_name', op: 1, path: '/ops/1/name' },
  ],
  [
    'an unknown unicode name',
    graph(x, relu(['ß😀'], { name: 'y' })),
    { code: 'unknown_input', op: 1, path: '/ops/1/inputs/0' },
  ],
  [
    'a lone surrogate in a name',
    '{"ops": [{"name": "\\ud800", "kind": "input", "shape": [4], "dtype": "f32"}]}',
    { code: 'json_syntax', line: 1, column: 26 },
  ],
  // Inputs that reference themselves, by name and by index.
  [
    'an op that is its own input by name',
    graph(x, relu(['y'], { name: 'y' })),
    { code: 'cycle', op: 1, path: '/ops/1/inputs/0' },
  ],
  [
    'an op that is its own input by index',
    graph(x, { ...relu([0, 1]), kind: 'add' }),
    { code: 'cycle', op: 1, path: '/ops/1/inputs/1' },
  ],
  // A top level that is not an object, or has no op list.
  ['a top-level array', '[]', { code: 'invalid_type' }],
  ['a top-level number', '42', { code: 'invalid_type' }],
  ['a top-level string', '"ops"', { code: 'invalid_type' }],
  ['a top-level null', 'null', { code: 'invalid_type' }],
  ['a top-level true', 'true', { code: 'invalid_type' }],
  ['an empty text', '', { code: 'json_syntax', line: 1, column: 1 }],
  ['an empty object', '{}', { code: 'missing_field', path: '/ops' }],
  ['ops that are an object', '{"ops": {}}', { code: 'invalid_type', path: '/ops' }],
  ['ops that are null', '{"ops": null}', { code: 'invalid_type', path: '/ops' }],
  // 100,000 nested arrays anywhere: an error value, not a stack overflow in the reader or in a message.
  ['100k nested arrays as the graph', nested(100_000), { code: 'invalid_type' }],
  ['1M nested arrays as the graph', nested(1_000_000), { code: 'invalid_type' }],
  [
    'a truncated graph',
    '{"ops": [{"name": "x", "kind": "input", "shape": [4], "dtype": "f32"}',
    { code: 'json_syntax', line: 1, column: 70 },
  ],
  ['100k unclosed arrays in ops', `{"ops": [${'['.repeat(100_000)}`, { code: 'json_syntax', line: 1, column: 100_010 }],
  ['100k nested objects', '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000), { code: 'unknown_field', path: '/a' }],
  ['100k nested arrays as op 0', `{"ops": ${nested(100_000)}}`, { code: 'invalid_type', op: 0, path: '/ops/0' }],
  [
    '100k nested arrays as a shape',
    `{"ops": [{"name": "x", "kind": "input", "shape": ${nested(100_000)}, "dtype": "f32"}]}`,
    { code: 'invalid_dimension', op: 0, path: '/ops/0/shape/0' },
  ],
  [
    '100k nested arrays as a name',
    `{"ops": [{"name": ${nested(100_000)}, "kind": "input", "shape": [4], "dtype": "f32"}]}`,
    { code: 'invalid_type', op: 0, path: '/ops/0/name' },
  ],
  [
    '100k nested arrays as a kind',
    `{"ops": [{"name": "x", "kind": ${nested(100_000)}, "shape": [4], "dtype": "f32"}]}`,
    { code: 'invalid_type', op: 0, path: '/ops/0/kind' },
  ],
  [
    '100k nested arrays as inputs',
    `{"ops": [${graph(x).slice(8, -2)}, {"kind": "relu", "inputs": ${nested(100_000)}, "shape": [4], "dtype": "f32"}]}`,
    { code: 'invalid_type', op: 1, path: '/ops/1/inputs/0' },
  ],
  [
    '100k nested arrays in an unknown field',
    `{"ops": [{"name": "x", "kind": "input", "shape": [4], "dtype": "f32", "extra": ${nested(100_000)}}]}`,
    { code: 'unknown_field', op: 0, path: '/ops/0/extra' },
  ],
];

for (const [what, text, expected] of REFUSED) {
  test(`refused with its location: ${what}`, () => {
    assert.deepEqual(failure(fusion.plan(text)), expected);
    assert.deepEqual(failure(fusion.validate(text)), expected, 'validate agrees with plan');
  });
}

test('100k nested arrays as options or as a plan are refused as such', () => {
  assert.deepEqual(failure(fusion.plan(graph(x), nested(100_000))), { code: 'invalid_options' });
  assert.deepEqual(failure(fusion.plan(graph(x), `{"broadcast": ${nested(100_000)}}`)), {
    code: 'invalid_options',
    path: '/broadcast',
  });
  assert.deepEqual(failure(fusion.verify(graph(x), '', `{"ok": true, "groups": ${nested(100_000)}}`)), {
    code: 'invalid_plan',
    path: '/groups/0',
  });
});

test('a graph of exactly 2^53 - 1 bytes plans with exact byte counts', () => {
  const result = plan(graph({ name: 'x', kind: 'input', shape: [MAX_EXACT], dtype_bytes: 1 }));
  assert.equal(result.bytes_unfused, MAX_EXACT);
  assert.equal(result.bytes_fused, MAX_EXACT);
  assert.equal(result.speedup_estimate, 1);
});

test('a zero dimension makes a huge shape zero bytes, wherever it is', () => {
  for (const shape of [
    [2 ** 52, 2 ** 52, 0],
    [0, 2 ** 52, 2 ** 52],
  ]) {
    const result = plan(
      graph(
        { name: 'x', kind: 'input', shape, dtype_bytes: 8 },
        { ...relu(['x']), shape, dtype_bytes: 8, dtype: undefined },
      ),
    );
    assert.deepEqual([result.bytes_unfused, result.bytes_fused, result.speedup_estimate], [0, 0, 1]);
  }
});

test('rank-64 and rank-1000 shapes plan, and broadcast across all 64 dimensions', () => {
  const ones = Array(64).fill(1);
  const full = Array(64)
    .fill(1)
    .map((d, i) => (i % 21 === 0 ? 2 : d)); // 2 x 2 x 2 x 2 = 16 elements
  const result = plan(
    graph(
      { name: 'x', kind: 'input', shape: ones, dtype: 'f32' },
      { name: 'y', kind: 'input', shape: full, dtype: 'f32' },
      { name: 'a', kind: 'add', inputs: ['x', 'y'], shape: full, dtype: 'f32' },
      { name: 'b', kind: 'exp', inputs: ['a'], shape: full, dtype: 'f32' },
      { name: 'c', kind: 'mul', inputs: ['b', 'x'], shape: full, dtype: 'f32' },
    ),
  );
  assert.deepEqual(
    result.op_group.map((g) => result.groups[g].ops),
    [[0], [1], [2, 3, 4], [2, 3, 4], [2, 3, 4]],
  );
  // Unfused: x 4 + y 64, add 4 + 64 + 64, exp 64 + 64, mul 64 + 4 + 64. Fused: x, y, then 4 + 64 + 64.
  assert.equal(result.bytes_unfused, 68 + 132 + 128 + 132);
  assert.equal(result.bytes_fused, 68 + 132);
  assert.equal(plan(graph({ ...x, shape: Array(1000).fill(1) })).bytes_unfused, 4);
});

test('a name of exactly 4,096 bytes plans', () => {
  assert.equal(plan(graph(x, relu(['x'], { name: 'ß'.repeat(2_048) }))).groups.length, 2);
});

test('unicode names plan and come back unchanged in messages', () => {
  const names = ['ß∑', '😀 emoji', '名前', 'a\u0000b', 'مرحبا', '\u200b'];
  const ops = [{ ...x, name: names[0] }, ...names.slice(1).map((name, i) => relu([names[i]], { name }))];
  const result = plan(graph(...ops));
  assert.deepEqual(
    result.groups.map((g) => g.ops),
    [[0], [1, 2, 3, 4, 5]],
  );
  const cycle = fusion.plan(
    graph({ ...x, name: names[0] }, relu([names[2]], { name: names[1] }), relu([names[1]], { name: names[2] })),
  );
  assert.equal(cycle.error.code, 'cycle');
  assert.ok(cycle.error.message.includes(names[1]) && cycle.error.message.includes(names[2]), cycle.error.message);
});

test('100,000 distinct inputs to one op: one edge each, read once each', { timeout: 120_000 }, () => {
  const ops = Array.from({ length: 100_000 }, () => ({ kind: 'input', shape: [4], dtype: 'f32' }));
  ops.push({ kind: 'add', inputs: ops.map((_, i) => i), shape: [4], dtype: 'f32' }, relu([100_000]));
  const result = plan(graph(...ops));
  assert.equal(result.groups.length, 100_001);
  assert.deepEqual(result.groups.at(-1).ops, [100_000, 100_001]);
  assert.equal(result.groups.at(-1).inputs.length, 100_000);
  assert.equal(result.edges.length, 100_001);
  assert.equal(result.edges.filter((e) => e.reason === 'source').length, 100_000);
  // Unfused: 100,000 sources written and read (32 bytes each), add written, read by relu, relu written.
  assert.equal(result.bytes_unfused, 100_000 * 32 + 16 * 3);
  assert.equal(result.bytes_fused, 100_000 * 32 + 16);
});

test('100,000 copies of one input to one op are read once', () => {
  const result = plan(graph(x, { kind: 'add', inputs: Array(100_000).fill('x'), shape: [4], dtype: 'f32' }));
  assert.equal(result.bytes_unfused, 16 + 16 + 16);
  assert.equal(result.groups.at(-1).inputs.length, 1);
});

test('a 100 MB text (a small graph padded with whitespace) plans like the small graph', { timeout: 120_000 }, () => {
  const small = graph(x, relu(['x']), relu([1]));
  const pad = ' \n\t\r'.repeat(12_500_000);
  const result = plan(`${pad}${small}${pad}`);
  assert.deepEqual(result, plan(small));
});

test(
  'a text one byte over the 256 MiB cap is refused before parsing, and planning goes on',
  { timeout: 120_000 },
  () => {
    const huge = ' '.repeat(256 * 2 ** 20 + 1);
    assert.equal(fusion.plan(huge).error.code, 'input_too_large');
    assert.equal(fusion.validate(huge).error.code, 'input_too_large');
    assert.equal(plan(graph(x, relu(['x']))).groups.length, 2);
  },
);

test(
  'a 1,000,000-op chain (62 MB of JSON) plans without a stack overflow into the right kernels',
  { timeout: 300_000 },
  () => {
    const before = fusion.heapBytes();
    // x -> relu -> relu -> transpose -> relu -> relu -> transpose -> ...: op i is a transpose when i % 3 == 0.
    const parts = ['{"ops":[{"name":"x","kind":"input","shape":[4],"dtype":"f32"}'];
    for (let i = 1; i < 1_000_000; ++i) {
      parts.push(`,{"kind":"${i % 3 ? 'relu' : 'transpose'}","inputs":[${i - 1}],"shape":[4],"dtype":"f32"}`);
    }
    parts.push(']}');
    const text = parts.join('');
    assert.ok(text.length > 60e6, `${text.length} bytes`);
    const result = plan(text);
    // Groups: the source, 333,333 transposes and 333,333 fused relu pairs; kernels exclude the source.
    assert.equal(result.groups.length, 666_667);
    assert.equal(result.kernels_fused, 666_666);
    assert.equal(result.op_group.length, 1_000_000);
    for (const i of [1, 2, 999_997, 999_998])
      assert.deepEqual(result.groups[result.op_group[i]].ops, i % 3 === 1 ? [i, i + 1] : [i - 1, i]);
    for (const i of [3, 999_999]) assert.deepEqual(result.groups[result.op_group[i]].ops, [i]);
    // Every op writes 16 bytes and reads its input's 16; fused, each relu pair's middle tensor is free.
    assert.equal(result.bytes_unfused, 16 + 999_999 * 32);
    assert.equal(result.bytes_fused, 16 + 666_666 * 32);
    assert.ok(fusion.heapBytes() > before, 'the heap grew for it (heapBytes reads the live instance)');
    assert.equal(plan(graph(x, relu(['x']))).groups.length, 2, 'the instance plans small graphs after it');
  },
);
