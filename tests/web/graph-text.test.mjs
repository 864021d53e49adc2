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
});
