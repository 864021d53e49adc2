// view-model.test.mjs — what the graph view draws is read from the plan, never decided in JS.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildViewModel } from '../../web/src/present/view-model.js';

const graph = {
  ops: [
    { name: 'x', kind: 'input', shape: [4], dtype: 'f32' },
    { name: 'a', kind: 'Exp', inputs: ['x'], shape: [4], dtype: 'f32' },
    { kind: 'relu', inputs: [1], shape: [4], dtype_bytes: 2 },
    { name: 'm', kind: 'matmul', inputs: [2, 1], shape: [4], dtype: 'f32' },
  ],
};
// A plan literal in the shape of docs/design.md §10 (numbers arbitrary: the view model must only copy them).
const plan = {
  ok: true,
  groups: [
    { id: 0, ops: [0], inputs: [], outputs: [0] },
    { id: 1, ops: [1, 2], inputs: [0], outputs: [1, 2] },
    { id: 2, ops: [3], inputs: [1, 2], outputs: [3] },
  ],
  op_group: [0, 1, 1, 2],
  edges: [
    { producer: 0, consumer: 1, fused: false, reason: 'source' },
    { producer: 1, consumer: 2, fused: true },
    { producer: 2, consumer: 3, fused: false, reason: 'barrier_consumer' },
    { producer: 1, consumer: 3, fused: false, reason: 'barrier_consumer', detail: 'matmul' },
  ],
};

test('ops carry their plan group, output flag, category and a label', () => {
  const vm = buildViewModel(graph, plan);
  assert.deepEqual(
    vm.nodes.map((n) => [n.label, n.category, n.kind, n.group, n.output, n.parent]),
    [
      ['x', 'source', 'input', 0, true, null],
      ['a', 'elementwise', 'exp', 1, true, 'g1'],
      ['#2 relu', 'elementwise', 'relu', 1, true, 'g1'],
      ['m', 'barrier', 'matmul', 2, true, null],
    ],
  );
  assert.equal(vm.nodes[2].dtype, '2 B');
});

test('only multi-op groups are clusters, each with its own colour', () => {
  const vm = buildViewModel(graph, plan);
  assert.deepEqual(
    vm.groups.map((g) => g.multi),
    [false, true, false],
  );
  assert.equal(vm.groups[0].color, null);
  assert.match(vm.groups[1].color, /^#[0-9a-f]{6}$/);
});

test('edges keep the planner’s fused flag, reason and detail; fused edges take the group colour', () => {
  const vm = buildViewModel(graph, plan);
  assert.deepEqual(
    vm.edges.map((e) => [e.id, e.fused, e.reason]),
    [
      ['e0-1', false, 'source'],
      ['e1-2', true, null],
      ['e2-3', false, 'barrier_consumer'],
      ['e1-3', false, 'barrier_consumer'],
    ],
  );
  assert.equal(vm.edges[1].color, vm.groups[1].color);
  assert.equal(vm.edges[3].detail, 'matmul');
});

test('a producer used twice by one consumer is drawn as one edge', () => {
  const g = {
    ops: [
      { name: 'x', kind: 'input', shape: [2], dtype: 'f32' },
      { name: 's', kind: 'mul', inputs: ['x', 'x'], shape: [2], dtype: 'f32' },
    ],
  };
  const p = {
    ok: true,
    groups: [
      { id: 0, ops: [0], outputs: [0] },
      { id: 1, ops: [1], outputs: [1] },
    ],
    op_group: [0, 1],
    edges: [
      { producer: 0, consumer: 1, fused: false, reason: 'source' },
      { producer: 0, consumer: 1, fused: false, reason: 'source' },
    ],
  };
  assert.equal(buildViewModel(g, p).edges.length, 1);
});

test('each op carries the planner’s bytes moved and its colour bin; the legend bins come along', () => {
  const vm = buildViewModel(graph, { ...plan, op_bytes_unfused: [16, 48, 2000, 7] });
  assert.deepEqual(
    vm.nodes.map((n) => n.bytes),
    [16, 48, 2000, 7],
  );
  assert.equal(vm.nodes[2].heat, vm.heat.at(-1), 'the largest op is in the darkest bin');
  assert.equal(vm.nodes[3].heat, vm.heat[0], 'the smallest op is in the lightest bin');
  assert.equal(
    vm.heat.reduce((n, b) => n + b.count, 0),
    4,
  );
  const bare = buildViewModel(graph, plan);
  assert.deepEqual([bare.nodes[0].bytes, bare.nodes[0].heat, bare.heat], [null, null, []]);
});

test('clusters carry the planner’s pattern label; an op recomputed elsewhere lists its other groups', () => {
  const labelled = { ...plan, groups: plan.groups.map((g) => (g.id === 1 ? { ...g, label: 'silu' } : g)) };
  assert.deepEqual(
    buildViewModel(graph, labelled).groups.map((g) => g.label),
    ['', 'silu', ''],
  );
  // a (op 1) is owned by group 1 and recomputed in group 2 (the matmul's group under a recompute rule).
  const again = {
    ...plan,
    groups: [...plan.groups.slice(0, 2), { id: 2, ops: [1, 3], inputs: [0, 2], outputs: [3], recomputed: [1] }],
    edges: plan.edges.map((e) =>
      e.producer === 1 && e.consumer === 3 ? { producer: 1, consumer: 3, fused: true } : e,
    ),
  };
  const vm = buildViewModel(graph, again);
  assert.deepEqual(
    vm.nodes.map((n) => n.copies),
    [[], [2], [], []],
  );
  assert.equal(vm.nodes[1].parent, 'g1', 'drawn once, in the group that owns it');
  const e13 = vm.edges.find((e) => e.id === 'e1-3');
  assert.equal(e13.fused, true);
  assert.equal(e13.color, vm.groups[2].color, 'a fused edge takes its consumer’s colour');
  assert.notEqual(vm.groups[2].color, vm.groups[1].color);
});

test('clusters carry the rule that formed them as the planner words it; none is an empty string', () => {
  const ruled = {
    ...plan,
    groups: plan.groups.map((g) => (g.id === 1 ? { ...g, label: 'silu', rule: 'loop fusion of 2 ops' } : g)),
  };
  assert.deepEqual(
    buildViewModel(graph, ruled).groups.map((g) => [g.label, g.rule]),
    [
      ['', ''],
      ['silu', 'loop fusion of 2 ops'],
      ['', ''],
    ],
  );
});

test('a real plan’s rules reach the clusters unchanged (Inductor on softmax)', async () => {
  const { loadFusion } = await import('../../wasm/fusion.mjs');
  const op = (name, kind, inputs, shape) => ({ name, kind, ...(inputs.length ? { inputs } : {}), shape, dtype: 'f16' });
  const softmax = {
    ops: [
      op('x', 'input', [], [256, 512]),
      op('m', 'reduce_max', ['x'], [256, 1]),
      op('d', 'sub', ['x', 'm'], [256, 512]),
      op('e', 'exp', ['d'], [256, 512]),
      op('s', 'reduce_sum', ['e'], [256, 1]),
      op('y', 'div', ['e', 's'], [256, 512]),
    ],
  };
  const planned = (await loadFusion()).plan(softmax, { strategy: 'inductor' });
  assert.equal(planned.ok, true);
  const vm = buildViewModel(softmax, planned);
  assert.deepEqual(
    vm.groups.map((g) => g.rule),
    planned.groups.map((g) => g.rule),
  );
  assert.ok(
    vm.groups.some((g) => g.multi && g.rule.length > 0),
    'the fused softmax names the rule that formed it (precondition)',
  );
});
