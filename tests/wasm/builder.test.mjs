// builder.test.mjs — the JavaScript builder API: FusionGraph op by op, FusionPlanner options, FusionError.
//
// The bias + relu graph of docs/design.md §2 (x [1024, 768] f32, bias [768] f32): add and relu fuse into
// one group. Unfused traffic: x written, read by add; add's output written, read by relu; relu's written:
// 5 * 3 MiB, plus bias written and read: 2 * 3 KiB = 15,734,784 bytes. Fused: x written and read, relu's
// output written: 3 * 3 MiB + 2 * 3 KiB = 9,443,328 bytes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { FusionError, FusionGraph, FusionPlanner, loadFusion } from '../../wasm/fusion.mjs';

const f32 = (shape) => ({ shape, dtype: 'f32' });

function biasRelu() {
  const graph = new FusionGraph();
  const x = graph.addOp({ name: 'x', kind: 'input', ...f32([1024, 768]) });
  const bias = graph.addOp({ name: 'bias', kind: 'input', ...f32([768]) });
  const y = graph.addOp({ name: 'y', kind: 'add', inputs: [x, bias], ...f32([1024, 768]) });
  graph.addOp({ name: 'z', kind: 'relu', inputs: ['y'], ...f32([1024, 768]) });
  assert.equal(y, 2, 'ids are insertion indices');
  return graph;
}

// Runs first, before anything in this process loads the module.
test('planning before loadFusion() throws FusionError not_loaded', () => {
  assert.throws(() => new FusionPlanner().plan(biasRelu()), { name: 'FusionError', code: 'not_loaded' });
});

test('a graph built op by op plans like its JSON, with add and relu fused', async () => {
  const fusion = await loadFusion();
  const plan = new FusionPlanner().plan(biasRelu());
  const json = readFileSync(new URL('../../examples/bias-relu.json', import.meta.url), 'utf8');
  assert.deepEqual(plan, fusion.plan(json));
  assert.deepEqual(
    plan.op_group.map((group) => plan.groups[group].ops),
    [[0], [1], [2, 3], [2, 3]],
  );
  assert.equal(plan.bytes_unfused, 15734784);
  assert.equal(plan.bytes_fused, 9443328);
});

test('withResidentSources(true): a relu -> neg chain on one input saves exactly half: 2.0x', async () => {
  await loadFusion();
  const graph = new FusionGraph();
  const x = graph.addOp({ kind: 'input', ...f32([256]) });
  const relu = graph.addOp({ kind: 'relu', inputs: [x], ...f32([256]) });
  graph.addOp({ kind: 'neg', inputs: [relu], ...f32([256]) });
  const plan = new FusionPlanner().withResidentSources(true).plan(graph);
  assert.equal(plan.bytes_unfused, 4 * 1024);
  assert.equal(plan.bytes_fused, 2 * 1024);
  assert.equal(plan.speedup_estimate, 2);
});

test('withBroadcast(false) keeps a broadcasting edge unfused, with reason "shape"', async () => {
  await loadFusion();
  const graph = new FusionGraph();
  const x = graph.addOp({ kind: 'input', ...f32([8, 4]) });
  const b = graph.addOp({ kind: 'input', ...f32([4]) });
  const scaled = graph.addOp({ kind: 'exp', inputs: [b], ...f32([4]) });
  graph.addOp({ kind: 'add', inputs: [x, scaled], ...f32([8, 4]) });
  const edge = (plan) => plan.edges.find((e) => e.producer === scaled && e.consumer === 3);

  assert.equal(edge(new FusionPlanner().plan(graph)).fused, true);
  const strict = new FusionPlanner().withBroadcast(false).plan(graph);
  assert.equal(edge(strict).fused, false);
  assert.equal(edge(strict).reason, 'shape');
});

test('planners are immutable values: with* returns a new planner', () => {
  const base = new FusionPlanner();
  const strict = base.withBroadcast(false).withResidentSources(true).withStrategy('seed');
  assert.deepEqual(base.options, {});
  assert.deepEqual(strict.options, { broadcast: false, resident_sources: true, strategy: 'seed' });
});

test('addOp refuses an input that is no earlier op, naming the op and the path, and adds nothing', () => {
  const graph = biasRelu();
  for (const input of ['nope', 4, 99, -1, 1.5, null]) {
    assert.throws(
      () => graph.addOp({ kind: 'neg', inputs: ['z', input], ...f32([4]) }),
      (error) =>
        error instanceof FusionError &&
        error.code === 'unknown_input' &&
        error.op === 4 &&
        error.path === '/ops/4/inputs/1',
    );
  }
  assert.equal(graph.size, 4);
});

test('addOp refuses a reused name and a spec that is not an object', () => {
  const graph = biasRelu();
  assert.throws(() => graph.addOp({ name: 'x', kind: 'input', ...f32([4]) }), {
    code: 'duplicate_name',
    op: 4,
    path: '/ops/4/name',
  });
  assert.throws(() => graph.addOp('relu'), { code: 'invalid_type', op: 4 });
  assert.throws(() => graph.addOp({ kind: 'relu', inputs: 'x' }), { code: 'invalid_type', path: '/ops/4/inputs' });
  assert.equal(graph.size, 4);
});

test('the graph keeps its own copy of each op', () => {
  const graph = new FusionGraph();
  const shape = [4];
  graph.addOp({ kind: 'input', shape, dtype: 'f32' });
  shape.push(8);
  assert.deepEqual(graph.toJSON().ops[0].shape, [4]);
});

test("an invalid graph makes plan() throw FusionError with the C++ error's code, op and path", async () => {
  await loadFusion();
  const graph = biasRelu();
  graph.addOp({ kind: 'frobnicate', inputs: ['z'], ...f32([4]) });
  assert.throws(
    () => new FusionPlanner().plan(graph),
    (error) =>
      error instanceof FusionError &&
      error.code === 'unknown_kind' &&
      error.op === 4 &&
      error.path.startsWith('/ops/4') &&
      error.errors[0].code === 'unknown_kind',
  );
  assert.throws(() => new FusionPlanner().withStrategy('no-such-strategy').plan(biasRelu()), {
    code: 'unknown_strategy',
  });
});
