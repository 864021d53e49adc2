// group-rows.test.mjs — groups as table rows: pattern labels, recomputed copies in every group that holds them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupRows, groupsOfOps } from '../../web/src/present/group-rows.js';

const graph = {
  ops: [
    { name: 'x', kind: 'input', shape: [8], dtype: 'f32' },
    { name: 'e', kind: 'neg', inputs: ['x'], shape: [8], dtype: 'f32' },
    { name: 'a', kind: 'reduce_sum', inputs: ['e'], shape: [1], dtype: 'f32' },
    { name: 'b', kind: 'reduce_max', inputs: ['e'], shape: [1], dtype: 'f32' },
  ],
};
// e is owned by group 1 and recomputed in group 2 (plan literal in the docs/strategies.md shape).
const plan = {
  ok: true,
  op_group: [0, 1, 1, 2],
  groups: [
    {
      id: 0,
      ops: [0],
      inputs: [],
      outputs: [0],
      bytes_read: 0,
      bytes_written: 32,
      label: '',
      kernel: false,
      recomputed: [],
      flops: 0,
      time_us: 0,
    },
    {
      id: 1,
      ops: [1, 2],
      inputs: [0],
      outputs: [2],
      bytes_read: 32,
      bytes_written: 4,
      label: 'softmax',
      kernel: true,
      recomputed: [],
      flops: 16,
      time_us: 3.9,
    },
    {
      id: 2,
      ops: [1, 3],
      inputs: [0],
      outputs: [3],
      bytes_read: 32,
      bytes_written: 4,
      label: '',
      kernel: true,
      recomputed: [1],
      flops: 16,
      time_us: 3.9,
    },
  ],
};

test('an op recomputed in another group appears in both rows; only the recomputing row marks it', () => {
  const rows = groupRows(graph, plan);
  assert.deepEqual(rows[1].ops, [
    { op: 1, name: 'e', recomputed: false, alsoIn: [2] },
    { op: 2, name: 'a', recomputed: false, alsoIn: [] },
  ]);
  assert.deepEqual(rows[2].ops[0], { op: 1, name: 'e', recomputed: true, alsoIn: [1] });
});

test('rows carry the planner’s label, bytes, flops and time, and say which run as kernels', () => {
  const rows = groupRows(graph, plan);
  assert.deepEqual(
    rows.map((r) => [r.id, r.label, r.source, r.kernel, r.timeUs]),
    [
      [0, '', true, false, 0],
      [1, 'softmax', false, true, 3.9],
      [2, '', false, true, 3.9],
    ],
  );
  assert.deepEqual([rows[1].bytesRead, rows[1].bytesWritten, rows[1].flops], [32, 4, 16]);
});

test('a plan without the strategy fields gives empty labels and null numbers, not errors', () => {
  const old = {
    ok: true,
    op_group: [0, 1],
    groups: [
      { id: 0, ops: [0], inputs: [], outputs: [0], bytes_read: 0, bytes_written: 4 },
      { id: 1, ops: [1], inputs: [0], outputs: [1], bytes_read: 4, bytes_written: 4 },
    ],
  };
  const rows = groupRows({ ops: graph.ops.slice(0, 2) }, old);
  assert.deepEqual(
    rows.map((r) => [r.label, r.timeUs, r.ops[0].recomputed]),
    [
      ['', null, false],
      ['', null, false],
    ],
  );
});

test('groupsOfOps lists every group holding an op, in plan order', () => {
  assert.deepEqual(
    [...groupsOfOps(plan)],
    [
      [0, [0]],
      [1, [1, 2]],
      [2, [1]],
      [3, [2]],
    ],
  );
});

test("whether a group runs a kernel is the planner's word, not a guess from the kinds", async () => {
  const { loadFusion } = await import('../../wasm/fusion.mjs');
  const planned = (await loadFusion()).plan(graph, { strategy: 'xla' });
  const rows = groupRows(graph, planned);
  assert.deepEqual(
    rows.map((r) => r.kernel),
    planned.groups.map((g) => g.kernel),
  );
  assert.ok(rows.some((r) => r.kernel) && rows.some((r) => !r.kernel));
  const claimed = { ...plan, groups: plan.groups.map((g) => ({ ...g, kernel: !g.kernel })) };
  assert.deepEqual(
    groupRows(graph, claimed).map((r) => r.kernel),
    [true, false, false],
  );
});

test('rows carry the rule that formed each group, as the planner words it', async () => {
  const ruled = {
    ...plan,
    groups: plan.groups.map((g) =>
      g.id === 1 ? { ...g, rule: 'reduction fusion; multi-output fusion of 2 siblings' } : g,
    ),
  };
  assert.deepEqual(
    groupRows(graph, ruled).map((r) => r.rule),
    ['', 'reduction fusion; multi-output fusion of 2 siblings', ''],
  );
  const { loadFusion } = await import('../../wasm/fusion.mjs');
  const fusion = await loadFusion();
  for (const strategy of fusion.catalog().strategies.map((s) => s.name)) {
    const planned = fusion.plan(graph, { strategy });
    assert.deepEqual(
      groupRows(graph, planned).map((r) => r.rule),
      planned.groups.map((g) => g.rule ?? ''),
      strategy,
    );
  }
});
