// graph-text.test.mjs — parsing, the one-op-per-line format, resolving input references, and typed shapes.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { formatGraph, parseGraphText, parseShape, resolveInputs, opLabel } from '../../web/src/graph/graph-text.js';

const dir = new URL('../../examples/', import.meta.url);

test('every example file is already in the canonical format (graph edits keep diffs small)', () => {
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const text = readFileSync(new URL(f, dir), 'utf8');
    assert.equal(formatGraph(parseGraphText(text).graph), text, f);
  }
});

test('formatting keeps odd names exactly and puts keys in a fixed order', () => {
  const graph = { ops: [{ shape: [2, 3], kind: 'input', name: 'a,1 "q"', dtype_bytes: 4 }] };
  const text = formatGraph(graph);
  assert.equal(text, '{"ops": [\n  {"name": "a,1 \\"q\\"", "kind": "input", "shape": [2, 3], "dtype_bytes": 4}\n]}\n');
  assert.deepEqual(JSON.parse(text), graph);
  assert.equal(formatGraph({ ops: [] }), '{"ops": []}\n');
});

test('the default values of named dimensions come first, on the opening line, and survive formatting', () => {
  const graph = { ops: [{ name: 'x', kind: 'input', shape: ['N', 768], dtype: 'f16' }], dims: { N: 8, seq: 128 } };
  const text = formatGraph(graph);
  assert.equal(
    text,
    '{"dims": {"N": 8, "seq": 128}, "ops": [\n  {"name": "x", "kind": "input", "shape": ["N", 768], "dtype": "f16"}\n]}\n',
  );
  assert.deepEqual(JSON.parse(text), graph);
  assert.equal(formatGraph({ ops: [], dims: { N: 1 } }), '{"dims": {"N": 1}, "ops": []}\n');
});

test('text that is not a graph object does not parse', () => {
  for (const t of ['', '{', '[]', '{"ops": 3}', 'null']) assert.equal(parseGraphText(t).ok, false, t);
  assert.equal(parseGraphText('{"ops": []}').ok, true);
});

test('inputs resolve by index and by name; a dangling reference is -1', () => {
  const g = {
    ops: [
      { name: 'x', kind: 'input' },
      { kind: 'relu', inputs: [0] },
      { kind: 'add', inputs: ['x', 1, 'nope', 7] },
    ],
  };
  assert.deepEqual(resolveInputs(g), [[], [0], [0, 1, -1, -1]]);
  assert.equal(opLabel(g, 0), 'x');
  assert.equal(opLabel(g, 1), '#1 relu');
});

test('a typed shape reads as a list of non-negative integers and dimension names, or null', () => {
  assert.deepEqual(parseShape('1024, 768'), [1024, 768]);
  assert.deepEqual(parseShape(' [4096 x 1] '), [4096, 1]);
  assert.deepEqual(parseShape('2×3×4'), [2, 3, 4]);
  assert.deepEqual(parseShape(''), []);
  assert.deepEqual(parseShape('[]'), []);
  assert.equal(parseShape('1024, -1'), null);
  assert.equal(parseShape('1.5'), null);
  assert.deepEqual(parseShape('a, b'), ['a', 'b']);
  assert.deepEqual(parseShape('tokens, 3072'), ['tokens', 3072]);
  assert.deepEqual(parseShape('["batch", 12, "seq", "seq"]'), ['batch', 12, 'seq', 'seq']);
  assert.deepEqual(parseShape('max_len x 4'), ['max_len', 'x', 4], 'an x between words is a name, not a separator');
  assert.deepEqual(parseShape('2 x 3'), [2, 3]);
  assert.equal(parseShape('2d, 4'), null, 'a name starts with a letter or _');
  assert.equal(parseShape('batch-size'), null);
  assert.deepEqual(parseShape('a'.repeat(64)), ['a'.repeat(64)]);
  assert.equal(parseShape('a'.repeat(65)), null, 'a name has at most 64 bytes');
});

test('a typed entry may be a product of names and whole numbers, written in the core canonical form', () => {
  assert.deepEqual(parseShape('batch*seq, 768'), ['batch*seq', 768]);
  assert.deepEqual(parseShape('seq*batch, 768'), ['batch*seq', 768], 'names in ASCII order');
  assert.deepEqual(parseShape('seq*2*batch'), ['2*batch*seq'], 'the number first');
  assert.deepEqual(parseShape('2 * seq, 64'), ['2*seq', 64], 'spaces around * join the factors');
  assert.deepEqual(parseShape('["batch*seq", 3072]'), ['batch*seq', 3072]);
  assert.deepEqual(parseShape('"batch" * "seq"'), ['batch*seq']);
  assert.deepEqual(parseShape('seq*seq'), ['seq*seq'], 'a power repeats the name');
  assert.deepEqual(parseShape('2*3*N'), ['6*N'], 'the numbers multiply');
  assert.deepEqual(parseShape('1*seq'), ['seq']);
  assert.deepEqual(parseShape('0*seq'), ['0*seq'], 'as the core keeps it');
  assert.deepEqual(parseShape('b*B*_x*a'), ['B*_x*a*b'], 'ASCII: A-Z before _ before a-z');
  assert.deepEqual(parseShape('2x3, N*4'), [2, 3, '4*N']);
  assert.equal(parseShape('2*3'), null, 'at least one name');
  assert.equal(parseShape('N+3'), null, 'no sums');
  assert.equal(parseShape('N*'), null);
  assert.equal(parseShape('*N'), null);
  assert.equal(parseShape('N**2'), null);
  assert.equal(parseShape('N*-2'), null);
  assert.equal(parseShape('N*1.5'), null);
  assert.equal(parseShape('2d*N'), null);
  assert.equal(parseShape(`N*${'a'.repeat(65)}`), null, 'each name at most 64 bytes');
  assert.deepEqual(parseShape('9007199254740991*N'), ['9007199254740991*N']);
  assert.equal(parseShape('9007199254740992*N'), null, 'the number within 2^53 − 1');
  assert.equal(parseShape('4294967296*4294967296*N'), null);
  assert.equal(parseShape('00000000000000001*N'), null, 'a factor has at most 16 digits');
});
