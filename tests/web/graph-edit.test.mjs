// graph-edit.test.mjs — edits on the graph are pure and keep references right.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addOp, connect, disconnect, removeOp, uniqueName, updateOp } from '../../web/src/graph/graph-edit.js';

const g = () => ({
  ops: [
    { name: 'x', kind: 'input', shape: [4], dtype: 'f32' },
    { kind: 'exp', inputs: [0], shape: [4], dtype: 'f32' },
    { name: 'y', kind: 'add', inputs: ['x', 1], shape: [4], dtype: 'f32' },
    { name: 'z', kind: 'relu', inputs: [2], shape: [4], dtype: 'f32' },
  ],
});

test('removing an op drops references to it and renumbers index references after it', () => {
  const before = g();
  const after = removeOp(before, 1);
  assert.deepEqual(
    after.ops.map((o) => o.inputs),
    [undefined, ['x'], [1]],
  );
  assert.deepEqual(before, g(), 'the input graph is not mutated');
});

test('removing the only input of an op leaves it without an inputs field', () => {
  const after = removeOp(g(), 0);
  assert.equal('inputs' in after.ops[0], false);
  assert.deepEqual(after.ops[1].inputs, [0]);
});

test('connecting refers to the producer by name when it has one, else by index', () => {
  assert.deepEqual(connect(g(), 0, 3).ops[3].inputs, [2, 'x']);
  assert.deepEqual(connect(g(), 1, 3).ops[3].inputs, [2, 1]);
});

test('disconnecting removes every reference from the consumer to the producer', () => {
  const twice = connect(g(), 0, 2);
  assert.deepEqual(twice.ops[2].inputs, ['x', 1, 'x']);
  assert.deepEqual(disconnect(twice, 0, 2).ops[2].inputs, [1]);
  assert.equal('inputs' in disconnect(g(), 2, 3).ops[3], false);
});

test('renaming an op renames the references to it; undefined removes a field', () => {
  const after = updateOp(g(), 0, { name: 'input0' });
  assert.deepEqual(after.ops[2].inputs, ['input0', 1]);
  const unnamed = updateOp(g(), 0, { name: undefined });
  assert.equal('name' in unnamed.ops[0], false);
  assert.deepEqual(unnamed.ops[2].inputs, [0, 1]);
  assert.deepEqual(updateOp(g(), 3, { shape: [8] }).ops[3].shape, [8]);
});

test('added ops get an unused name and no empty inputs list', () => {
  assert.equal(uniqueName(g(), 'y'), 'y_1');
  assert.equal(uniqueName(g(), 'w'), 'w');
  const after = addOp(g(), { name: 'w', kind: 'input', inputs: [], shape: [4], dtype: 'f32' });
  assert.deepEqual(after.ops[4], { name: 'w', kind: 'input', shape: [4], dtype: 'f32' });
});
