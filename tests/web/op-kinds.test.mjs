// op-kinds.test.mjs — the page's kind table agrees with the core's kind table and with the JSON Schema.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ALL_KINDS, categoryOf, canonicalKind } from '../../web/src/op-kinds.js';

const root = new URL('../../', import.meta.url);
const cpp = readFileSync(new URL('core/src/op_kind.cpp', root), 'utf8');
const schema = JSON.parse(readFileSync(new URL('schema/graph.schema.json', root), 'utf8'));

test('every kind of core/src/op_kind.cpp has the same category here', () => {
  const table = [...cpp.matchAll(/KindInfo\{K::\w+, "(\w+)", C::(\w+)\}/g)].map((m) => [m[1], m[2]]);
  assert.ok(table.length > 40, 'the C++ kind table was found');
  assert.deepEqual(table.map(([k]) => k).sort(), [...ALL_KINDS].sort());
  for (const [kind, category] of table) assert.equal(categoryOf(kind), category, kind);
});

test('every alias of the core resolves to the same kind here', () => {
  const aliases = [...cpp.matchAll(/Alias\{"(\w+)", K::(\w+)\}/g)];
  assert.ok(aliases.length > 10);
  for (const [, alias, kind] of aliases) assert.equal(canonicalKind(alias), kind, alias);
});

test('the schema offers exactly the canonical kinds', () => {
  assert.deepEqual([...schema.definitions.kind.enum].sort(), [...ALL_KINDS].sort());
});

test('kind names are matched like the core does: any case, _ and - ignored', () => {
  assert.equal(categoryOf('ReLU'), 'elementwise');
  assert.equal(categoryOf('Layer-Norm'), 'barrier');
  assert.equal(canonicalKind('MaxPool'), 'max_pool');
  assert.equal(categoryOf('frobnicate'), 'unknown');
});
