// graph-cache.test.mjs — re-planning without re-reading: planner/graph-cache.js reads a text once and answers
// exactly what the planner answers on the text (the WASM module, in Node); planner/latest-only.js keeps only
// the newest request waiting while one runs (what a dragged slider needs); the planner client sends sweeps to its
// worker and keeps the worker's counts of texts read and reused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadFusion } from '../../wasm/fusion.mjs';
import { createGraphCache } from '../../web/src/planner/graph-cache.js';
import { createLatestOnly } from '../../web/src/planner/latest-only.js';
import { PAIR, SCALED } from '../browser/dims-graphs.mjs';

// The module's value API, counting what is read and planned.
async function counted() {
  const fusion = await loadFusion();
  const calls = { load: 0, release: 0, plan: 0, sweep: 0 };
  return {
    calls,
    fusion: {
      ...fusion,
      loadGraph(text) {
        calls.load += 1;
        const g = fusion.loadGraph(text);
        return g.ok ? { ...g, release: () => (calls.release++, g.release()) } : g;
      },
      plan: (...a) => (calls.plan++, fusion.plan(...a)),
      sweep: (...a) => (calls.sweep++, fusion.sweep(...a)),
    },
  };
}

test('the same text is read once and re-planned with new sizes; the answers are the planner’s', async () => {
  const { fusion, calls } = await counted();
  const cache = createGraphCache(fusion);
  for (const N of [1, 8, 640, 4096]) {
    const options = { dims: { N } };
    assert.deepEqual(cache.plan(SCALED, options), fusion.plan(SCALED, options), `N = ${N}`);
  }
  assert.equal(calls.load, 1);
  assert.deepEqual(cache.counts, { loads: 1, reused: 3 });
  assert.equal(cache.planText(SCALED, { dims: { N: 9 } }), fusion.planText(SCALED, { dims: { N: 9 } }), 'as text');
  const spec = { dim: 'N', from: 1, to: 64 };
  assert.deepEqual(cache.sweep(SCALED, {}, spec), fusion.sweep(SCALED, {}, spec));
  assert.deepEqual(cache.planMany(SCALED, [{ strategy: 'xla' }, { strategy: 'tvm' }]), [
    fusion.plan(SCALED, { strategy: 'xla' }),
    fusion.plan(SCALED, { strategy: 'tvm' }),
  ]);
  assert.equal(calls.load, 1, 'sweeps, plans as text and compare plans reuse it too');
  cache.plan(PAIR, {});
  assert.equal(calls.load, 2, 'a new text is read');
  assert.equal(calls.release, 1, 'and the old graph released');
});

test('failures are the planner’s answers on the text, and the loaded graph is read again after one', async () => {
  const { fusion, calls } = await counted();
  const cache = createGraphCache(fusion);
  cache.plan(SCALED, {});
  for (const options of [{ dims: { N: -1 } }, { dims: { N: 2 ** 50 } }, { strategy: 'nope' }]) {
    const answer = cache.plan(SCALED, options);
    assert.equal(answer.ok, false);
    assert.deepEqual(answer, fusion.plan(SCALED, options), JSON.stringify(options));
    assert.equal(cache.planText(SCALED, options), fusion.planText(SCALED, options), 'as text too');
  }
  const broken = '{"ops": [';
  assert.deepEqual(cache.plan(broken, {}), fusion.plan(broken, {}));
  assert.equal(cache.planText(broken, {}), fusion.planText(broken, {}));
  const unbound = SCALED.replace('"dims": {"N": 8}, ', '');
  assert.equal(cache.plan(unbound, {}).error.code, 'unbound_dim');
  assert.equal(cache.plan(unbound, { dims: { N: 3 } }).dims.N, 3, 'the options give the missing value');
  const loads = calls.load;
  cache.plan(unbound, { dims: { N: 4 } });
  assert.equal(calls.load, loads, 'a good answer keeps the graph loaded');
});

test('latest-only: one job runs, the newest waits, the ones in between are dropped', async () => {
  const ran = [];
  const gates = [];
  const queue = createLatestOnly(
    (job) =>
      new Promise((done) => {
        ran.push(job);
        gates.push(done);
      }),
  );
  queue.push(1);
  queue.push(2);
  queue.push(3);
  queue.push(4);
  assert.deepEqual(ran, [1]);
  gates.shift()();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(ran, [1, 4], 'only the newest waiting job runs next');
  const idle = queue.idle();
  gates.shift()();
  await idle;
  queue.push(5);
  assert.deepEqual(ran, [1, 4, 5], 'an idle queue starts at once');
});

test('latest-only: a failing job does not stop the queue', async () => {
  const ran = [];
  const queue = createLatestOnly(async (job) => {
    ran.push(job);
    if (job === 'bad') throw new Error('boom');
  });
  queue.push('bad');
  queue.push('good');
  await queue.idle();
  assert.deepEqual(ran, ['bad', 'good']);
});

test('the planner client asks its worker for sweeps and keeps the worker’s read counts', async () => {
  const { FakeWorker } = await import('./fake-worker.mjs');
  const { createPlanner } = await import('../../web/src/planner/planner-client.js');
  FakeWorker.reset();
  globalThis.Worker = FakeWorker;
  try {
    const planner = createPlanner();
    const [w] = FakeWorker.started;
    w.reply({ type: 'ready', version: '1', catalog: null });
    await planner.ready;
    const spec = { dim: 'N', from: 1, to: 64 };
    const answer = planner.sweep(SCALED, { broadcast: true }, spec);
    await new Promise((r) => setImmediate(r));
    const { data } = w.posted[0];
    assert.deepEqual(data, { text: SCALED, options: { broadcast: true }, sweep: spec, id: data.id });
    const sweep = { ok: true, dim: 'N', rows: [], changes: [] };
    w.reply({ type: 'plan', id: data.id, result: sweep, where: 'worker', counts: { loads: 1, reused: 7 } });
    assert.deepEqual(await answer, sweep);
    assert.deepEqual(planner.reads, { loads: 1, reused: 7 });
    assert.deepEqual(planner.ran, { worker: 1, main: 0 });
  } finally {
    delete globalThis.Worker;
  }
});
