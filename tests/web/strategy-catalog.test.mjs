// strategy-catalog.test.mjs — the pickers' lists: the planner's names (its catalog()) in its order, with
// words for people; every reason the planner can give has plain words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadFusion } from '../../wasm/fusion.mjs';
import { catalogFrom, fromModule, labelOf } from '../../web/src/planner/strategy-catalog.js';
import { DEFAULT_CHOICES } from '../../web/src/state/options.js';
import { REASON_CODES, explainReason } from '../../web/src/present/reasons.js';

test('names from the module keep its order; known names get a label and a blurb', () => {
  const c = catalogFrom({ strategies: ['tvm', 'seed'], hardware: ['a100'] });
  assert.deepEqual(
    c.strategies.map((e) => [e.name, e.label]),
    [
      ['tvm', 'TVM-style'],
      ['seed', 'Strict (seed)'],
    ],
  );
  assert.ok(c.strategies.every((e) => e.blurb.length > 20));
  assert.deepEqual(
    c.hardware.map((e) => e.name),
    ['a100'],
  );
});

test('a name this page has no words for is offered under its own name; a module description wins', () => {
  const c = catalogFrom({ strategies: ['seed', 'triton'], hardware: [{ name: 'b200', description: 'NVIDIA B200' }] });
  assert.deepEqual(c.strategies[1], { name: 'triton', label: 'triton', blurb: '' });
  assert.deepEqual(c.hardware[0], { name: 'b200', label: 'b200', blurb: 'NVIDIA B200' });
});

test("before the planner loads, the lists are the core's as built, and labels still read well", async () => {
  const early = catalogFrom(fromModule(null));
  assert.deepEqual(early, catalogFrom(fromModule(await loadFusion())));
  const empty = catalogFrom({});
  assert.deepEqual(empty, { strategies: [], hardware: [] });
  assert.equal(labelOf(empty, 'strategies', 'tvm'), 'TVM-style');
  assert.equal(labelOf(empty, 'hardware', 'h100'), 'H100');
  assert.equal(labelOf(empty, 'hardware', 'nope'), 'nope');
});

test('the planner module’s catalog gives every strategy and device, the defaults among them', async () => {
  const fusion = await loadFusion();
  const c = catalogFrom(fromModule(fusion));
  assert.deepEqual(
    c.strategies.map((e) => e.name),
    fusion.catalog().strategies.map((s) => s.name),
  );
  assert.ok(c.strategies.length >= 4);
  assert.deepEqual(DEFAULT_CHOICES, {
    strategy: fusion.catalog().defaults.strategy,
    hardware: fusion.catalog().defaults.hardware,
  });
  assert.ok(c.strategies.some((e) => e.name === DEFAULT_CHOICES.strategy));
  assert.ok(c.hardware.some((e) => e.name === DEFAULT_CHOICES.hardware));
  assert.ok(
    c.strategies.every((e) => e.label !== e.name && e.blurb.length > 20),
    'each strategy has words of its own: a label and a blurb',
  );
  assert.equal(new Set(c.strategies.map((e) => e.label)).size, c.strategies.length, 'no two share a label');
  assert.ok(
    c.hardware.every((e) => /NVIDIA/.test(e.blurb)),
    'devices are described by the planner',
  );
});

test('every reason the planner can give has its own plain words', async () => {
  const { reasons } = (await loadFusion()).catalog();
  assert.deepEqual(
    reasons.filter((r) => !REASON_CODES.includes(r)),
    [],
  );
  for (const r of reasons)
    assert.doesNotMatch(explainReason({ fused: false, reason: r }, { producer: 'p', consumer: 'c' }), /^Not fused/);
});
