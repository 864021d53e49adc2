// collapse.test.mjs — collapsed fusion groups are one drawn node each; edges to their members merge.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { loadFusion } from '../../wasm/fusion.mjs';
import { buildViewModel } from '../../web/src/present/view-model.js';
import { COLLAPSE_ABOVE, expandTo, setAll } from '../../web/src/state/expansion.js';
import {
  collapseViewModel,
  drawnViewModel,
  countCollapsed,
  countDrawn,
  MAX_DRAWN,
} from '../../web/src/present/collapse.js';

let fusion;
before(async () => {
  fusion = await loadFusion();
});
const OPTIONS = { broadcast: true, resident_sources: false };

// x → (a → b) → m(matmul) → (c → d); y feeds a and c.
const GRAPH = {
  ops: [
    { name: 'x', kind: 'input', shape: [64, 64], dtype: 'f32' },
    { name: 'y', kind: 'input', shape: [64, 64], dtype: 'f32' },
    { name: 'a', kind: 'add', inputs: ['x', 'y'], shape: [64, 64], dtype: 'f32' },
    { name: 'b', kind: 'relu', inputs: ['a'], shape: [64, 64], dtype: 'f32' },
    { name: 'm', kind: 'matmul', inputs: ['b', 'y'], shape: [64, 64], dtype: 'f32' },
    { name: 'c', kind: 'mul', inputs: ['m', 'y'], shape: [64, 64], dtype: 'f32' },
    { name: 'd', kind: 'tanh', inputs: ['c'], shape: [64, 64], dtype: 'f32' },
  ],
};

const planOf = (graph) => {
  const plan = fusion.plan(JSON.stringify(graph), OPTIONS);
  assert.equal(plan.ok, true);
  return plan;
};

test("a collapsed group is one node with the plan's bytes, and its inner edges vanish", () => {
  const plan = planOf(GRAPH);
  const vm = buildViewModel(GRAPH, plan);
  const ab = plan.op_group[2];
  const cd = plan.op_group[5];
  assert.equal(plan.op_group[3], ab);
  const out = collapseViewModel(vm, plan, (k) => k !== ab);
  const g = out.nodes.find((n) => n.id === `g${ab}`);
  const pg = plan.groups.find((x) => x.id === ab);
  assert.equal(g.collapsed, true);
  assert.deepEqual(g.ops, [2, 3]);
  assert.deepEqual([g.bytesRead, g.bytesWritten], [pg.bytes_read, pg.bytes_written]);
  assert.match(g.label, new RegExp(`kernel ${ab} · 2 ops`));
  assert.equal(g.sub, 'a … b');
  assert.equal(g.rule, pg.rule ?? '', "the plan's rule for the group, as given");
  assert.deepEqual(
    out.nodes.map((n) => n.id),
    ['op0', 'op1', `g${ab}`, 'op4', 'op5', 'op6'],
  );
  assert.deepEqual(out.nodeOf, ['op0', 'op1', `g${ab}`, `g${ab}`, 'op4', 'op5', 'op6']);
  assert.equal(out.groups.find((x) => x.group === ab).multi, false, 'no cluster for a collapsed group');
  assert.equal(out.groups.find((x) => x.group === cd).multi, true, 'an open group keeps its cluster');
  assert.ok(!out.edges.some((e) => e.source === e.target), 'no inner edge');
  // y feeds a (inside the group) once: one edge y → group; x too.
  const into = out.edges.filter((e) => e.target === `g${ab}`).map((e) => [e.source, e.count]);
  assert.deepEqual(into.sort(), [
    ['op0', 1],
    ['op1', 1],
  ]);
  assert.deepEqual(
    out.edges.filter((e) => e.source === `g${ab}`).map((e) => e.target),
    ['op4'],
  );
});

test('a collapsed group keeps the rule that formed it, as the planner words it', () => {
  const plan = fusion.plan(JSON.stringify(GRAPH), { ...OPTIONS, strategy: 'tvm' });
  assert.equal(plan.ok, true);
  const ab = plan.op_group[2];
  const pg = plan.groups.find((x) => x.id === ab);
  assert.match(pg.rule, /\S/, 'TVM names the rule that fused a and b (precondition)');
  const out = collapseViewModel(buildViewModel(GRAPH, plan), plan, () => false);
  assert.equal(out.nodes.find((n) => n.id === `g${ab}`).rule, pg.rule);
  assert.equal(out.nodes.find((n) => n.id === `g${ab}`).sub, pg.label || 'a … b', 'the drawn box keeps its short text');
});

test('parallel edges into a collapsed group merge and count what they stand for', () => {
  // y feeds both c and d's group twice (c and d both read y).
  const graph = {
    ops: [...GRAPH.ops.slice(0, 6), { name: 'd', kind: 'add', inputs: ['c', 'y'], shape: [64, 64], dtype: 'f32' }],
  };
  const plan = planOf(graph);
  const cd = plan.op_group[5];
  const out = collapseViewModel(buildViewModel(graph, plan), plan, (k) => k !== cd);
  const fromY = out.edges.filter((e) => e.source === 'op1' && e.target === `g${cd}`);
  assert.equal(fromY.length, 1);
  assert.equal(fromY[0].count, 2);
  assert.equal(fromY[0].id, 'e1-5', 'the merged edge keeps the id of the first plan edge');
});

test('every op of a large graph is drawn exactly once, inside its collapsed group or as itself', () => {
  const text = readFileSync(new URL('../../examples/transformer-mlp.json', import.meta.url), 'utf8');
  const ops = [];
  const { dims, ops: base } = JSON.parse(text);
  for (let r = 0; r < 40; r++)
    ops.push(...base.map((op) => ({ ...op, name: `${op.name}_${r}`, inputs: op.inputs?.map((i) => `${i}_${r}`) })));
  const graph = { dims, ops }; // the example names its leading dimension (docs/design.md §16)
  assert.ok(ops.length > COLLAPSE_ABOVE);
  const plan = planOf(graph);
  const out = drawnViewModel(graph, plan, null);
  const multi = plan.groups.filter((g) => g.ops.length > 1);
  assert.deepEqual(countCollapsed(plan, null, ops.length), { multi: multi.length, closed: multi.length });
  assert.deepEqual(countCollapsed(plan, setAll(true, ops.length), ops.length), { multi: multi.length, closed: 0 });
  assert.equal(out.nodes.length, ops.length - multi.reduce((s, g) => s + g.ops.length - 1, 0));
  const drawn = new Set(out.nodes.map((n) => n.id));
  assert.ok(out.nodeOf.every((id) => drawn.has(id)));
  assert.ok(out.edges.every((e) => drawn.has(e.source) && drawn.has(e.target)));
  assert.ok(!out.edges.some((e) => e.fused), 'fused edges only live inside groups');
  const expanded = drawnViewModel(graph, plan, setAll(true, ops.length));
  assert.equal(expanded.nodes.length, ops.length);
});

test('the box count follows the open groups, and past MAX_DRAWN boxes nothing is drawn', () => {
  const plan = planOf(GRAPH);
  const ab = plan.op_group[2];
  assert.equal(countDrawn(plan, setAll(true, 7), 7), 7);
  assert.equal(countDrawn(plan, expandTo(setAll(true, 7), ab, false, 7), 7), 6);
  assert.equal(countDrawn(plan, setAll(false, 7), 7), 7 - (plan.op_group.length - new Set(plan.op_group).size));
  const ops = [{ name: 'x', kind: 'input', shape: [4], dtype: 'f32' }];
  for (let i = 1; i <= MAX_DRAWN; i++) ops.push({ kind: 'matmul', inputs: [i - 1, 0], shape: [4], dtype: 'f32' });
  const big = { ops };
  const bigPlan = planOf(big);
  const vm = drawnViewModel(big, bigPlan, null);
  assert.deepEqual([vm.nodes.length, vm.edges.length, vm.tooMany], [0, 0, MAX_DRAWN + 1]);
});
