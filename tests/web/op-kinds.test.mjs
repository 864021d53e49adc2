// op-kinds.test.mjs — the page reads its kind table from the core: every kind and alias the planner accepts
// gets the core's category and canonical name here, with the core's matching rule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadFusion } from '../../wasm/fusion.mjs';
import { ALL_KINDS, ELEMENTWISE_KINDS, categoryOf, canonicalKind } from '../../web/src/graph/op-kinds.js';

const catalog = (await loadFusion()).catalog();

test("every kind of the core has the core's category here, in the core's order", () => {
  assert.ok(catalog.kinds.length > 40);
  assert.deepEqual(
    ALL_KINDS,
    catalog.kinds.map((k) => k.name),
  );
  for (const { name, category } of catalog.kinds) assert.equal(categoryOf(name), category, name);
  assert.deepEqual(
    ELEMENTWISE_KINDS,
    catalog.kinds.filter((k) => k.category === 'elementwise').map((k) => k.name),
  );
});

test('every alias of the core resolves to the same kind here', () => {
  const aliases = catalog.kinds.flatMap((k) => k.aliases.map((alias) => [alias, k.name]));
  assert.ok(aliases.length > 10);
  for (const [alias, kind] of aliases) assert.equal(canonicalKind(alias), kind, alias);
});

test('kind names are matched like the core does: any case, _ and - ignored', () => {
  assert.equal(categoryOf('ReLU'), 'elementwise');
  assert.equal(categoryOf('Layer-Norm'), 'barrier');
  assert.equal(canonicalKind('MaxPool'), 'max_pool');
  assert.equal(canonicalKind('Gemm'), 'matmul');
  assert.equal(categoryOf('frobnicate'), 'unknown');
  assert.equal(canonicalKind('frobnicate'), 'frobnicate');
});
