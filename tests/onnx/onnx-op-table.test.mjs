// onnx-op-table.test.mjs — the ONNX op-type table (web/src/import/onnx/op-table.js) agrees with the core's kinds, with
// the shape rules, and with the table in docs/onnx.md.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { OP_TABLE, UNKNOWN_OP, hasLabel, lookupOp, opTableMarkdown } from '../../web/src/import/onnx/op-table.js';
import { RULES } from '../../web/src/import/onnx/shape-inference.js';
import { ALL_KINDS, canonicalKind, categoryOf } from '../../web/src/graph/op-kinds.js';

const rows = Object.entries(OP_TABLE);

test('every kind in the table is a kind of the core (elided ops have none)', () => {
  for (const [op, row] of rows) {
    if (row.lower === 'elide') assert.equal(row.kind, null, op);
    else assert.ok(ALL_KINDS.includes(row.kind), `${op}: ${row.kind}`);
  }
});

test('every shape rule the table names exists, and every rule is used', () => {
  for (const [op, row] of rows) if (row.shape) assert.equal(typeof RULES[row.shape], 'function', `${op}: ${row.shape}`);
  const used = new Set(rows.map(([, row]) => row.shape));
  assert.deepEqual(
    Object.keys(RULES).filter((rule) => !used.has(rule)),
    [],
  );
});

test('an op type the core knows by name gets the core kind, unless marked nearest or elided', () => {
  const known = rows.filter(([op, row]) => categoryOf(op) !== 'unknown' && !row.approx && row.lower !== 'elide');
  assert.ok(known.length > 40, `${known.length} op types are core kinds or aliases`);
  for (const [op, row] of known) assert.equal(row.kind, canonicalKind(op), op);
});

test('attributes in disguise are never input 0 (the data), so rule 1 leaves every op something to read', () => {
  const listed = rows.filter(([, row]) => row.operands);
  assert.ok(listed.length >= 20, `${listed.length} op types list attribute inputs`);
  for (const [op, row] of listed) {
    const indices = Object.keys(row.operands).map(Number);
    assert.ok(indices.length && indices.every((i) => Number.isInteger(i) && i >= 1), `${op}: ${indices}`);
  }
  assert.deepEqual(OP_TABLE.Reshape.operands, { 1: 'shape' });
  assert.deepEqual(OP_TABLE.Slice.operands, { 1: 'starts', 2: 'ends', 3: 'axes', 4: 'steps' });
});

test('opaque, nearest-kind and control-flow rows carry a label; exact kinds do not', () => {
  const labelled = rows.filter(([, row]) => hasLabel(row)).map(([op]) => op);
  for (const op of ['Selu', 'Resize', 'NonZero', 'If', 'Loop', 'Scan']) assert.ok(labelled.includes(op), op);
  for (const op of ['Relu', 'Conv', 'Reshape', 'Gemm', 'Identity', 'Constant']) assert.ok(!labelled.includes(op), op);
  assert.equal(hasLabel(UNKNOWN_OP), true);
});

test('only the default domain is looked up; an unlisted type is null (imported as opaque)', () => {
  assert.equal(lookupOp('', 'Relu').kind, 'relu');
  assert.equal(lookupOp('ai.onnx', 'Relu').kind, 'relu');
  assert.equal(lookupOp('com.microsoft', 'Relu'), null);
  assert.equal(lookupOp('', 'NoSuchOp'), null);
  assert.equal(lookupOp('', 'constructor'), null, 'no prototype keys');
});

test('docs/onnx.md holds exactly the generated table (regenerate: node tools/onnx2fusion.mjs --op-table)', () => {
  const doc = readFileSync(new URL('../../docs/onnx.md', import.meta.url), 'utf8');
  const match = doc.match(/<!-- op-table:begin -->\n([\s\S]*)<!-- op-table:end -->/);
  assert.ok(match, 'docs/onnx.md has the op-table markers');
  assert.equal(match[1], opTableMarkdown());
  assert.equal(opTableMarkdown().split('\n').length, rows.length + 3);
});
