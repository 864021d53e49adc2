// worker-rpc.test.mjs — the one promise client over a worker, with a fake Worker (Node has none): replies
// matched by id in any order, transferables passed on, the main-thread fallback, crashes and restarts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createWorkerRpc } from '../../web/src/worker-rpc/worker-rpc.js';
import { FakeWorker } from './fake-worker.mjs';

// An rpc over fake workers; `workers` lists every worker it started, `mainCalls` the requests run on the main thread.
function setup(options = {}) {
  const workers = [];
  const mainCalls = [];
  const rpc = createWorkerRpc({
    start: () => {
      const w = new FakeWorker();
      workers.push(w);
      return w;
    },
    main: (request) => {
      mainCalls.push(request);
      return { main: true, echo: request.n };
    },
    ...options,
  });
  return { rpc, workers, mainCalls };
}

test('a request goes to the worker with an id and resolves with the reply that carries it', async () => {
  const { rpc, workers, mainCalls } = setup();
  assert.equal(workers.length, 0, 'the worker starts on the first call');
  const answer = rpc.call({ n: 1 });
  assert.equal(workers.length, 1);
  const [{ data }] = workers[0].posted;
  assert.deepEqual(data, { n: 1, id: data.id });
  workers[0].reply({ id: data.id, value: 'one' });
  assert.deepEqual(await answer, { id: data.id, value: 'one' });
  assert.equal(rpc.where(), 'worker');
  assert.deepEqual(mainCalls, []);
});

test('replies may come in any order: each resolves its own request', async () => {
  const { rpc, workers } = setup();
  const answers = [1, 2, 3].map((n) => rpc.call({ n }));
  assert.equal(workers.length, 1, 'one worker serves every request');
  const ids = workers[0].posted.map(({ data }) => data.id);
  assert.equal(new Set(ids).size, 3);
  for (const k of [2, 0, 1]) workers[0].reply({ id: ids[k], value: k + 1 });
  assert.deepEqual(
    (await Promise.all(answers)).map((r) => r.value),
    [1, 2, 3],
  );
});

test('an error reply is data: it resolves its request like any other reply', async () => {
  const { rpc, workers } = setup();
  const answer = rpc.call({ n: 1 });
  workers[0].reply({ id: workers[0].posted[0].data.id, error: 'it did not work' });
  assert.equal((await answer).error, 'it did not work');
  assert.equal(rpc.where(), 'worker', 'an error reply is not a crash');
});

test('transferables are handed to postMessage', () => {
  const { rpc, workers } = setup();
  const buffer = new ArrayBuffer(8);
  rpc.call({ buffer }, { transfer: [buffer] });
  rpc.call({ n: 2 });
  assert.equal(workers[0].posted[0].transfer[0], buffer);
  assert.deepEqual(workers[0].posted[1].transfer, []);
});

test('when no worker can start, every request runs on the main thread and where() says so', async () => {
  const mainCalls = [];
  const rpc = createWorkerRpc({
    start: () => {
      throw new Error('Worker is not defined');
    },
    main: (request) => {
      mainCalls.push(request);
      return { main: true };
    },
  });
  assert.equal(rpc.where(), 'worker', 'nothing is tried before the first call');
  assert.deepEqual(await rpc.call({ n: 1 }), { main: true });
  assert.deepEqual(await rpc.call({ n: 2 }), { main: true });
  assert.equal(rpc.where(), 'main');
  assert.deepEqual(mainCalls, [{ n: 1 }, { n: 2 }]);
});

test('a main-thread fallback that throws rejects its request', async () => {
  const rpc = createWorkerRpc({
    start: () => {
      throw new Error('no workers');
    },
    main: () => {
      throw new Error('bad input');
    },
  });
  await assert.rejects(rpc.call({ n: 1 }), /bad input/);
});

test('a crash stops the worker; unanswered requests run on the main thread, and so does every later one', async () => {
  const crashes = [];
  const { rpc, workers, mainCalls } = setup({ onCrash: (e) => crashes.push(e.message) });
  const first = rpc.call({ n: 1 });
  const second = rpc.call({ n: 2 });
  workers[0].crash('out of memory');
  assert.equal(workers[0].terminated, true);
  assert.deepEqual(crashes, ['out of memory']);
  assert.deepEqual(await Promise.all([first, second]), [
    { main: true, echo: 1 },
    { main: true, echo: 2 },
  ]);
  assert.equal(rpc.where(), 'main');
  assert.deepEqual(await rpc.call({ n: 3 }), { main: true, echo: 3 });
  assert.equal(workers.length, 1, 'no worker is started again');
  assert.deepEqual(
    mainCalls.map((r) => r.n),
    [1, 2, 3],
  );
});

test("a crash with afterCrash 'restart': unanswered requests get their lost() answer, the next call a fresh worker", async () => {
  const { rpc, workers, mainCalls } = setup({ afterCrash: 'restart', crashReason: (e) => `stopped (${e.message})` });
  const lost = (reason, request) => ({ failed: reason, n: request.n });
  const answer = rpc.call({ n: 1 }, { lost });
  workers[0].crash('boom');
  assert.deepEqual(await answer, { failed: 'stopped (boom)', n: 1 });
  assert.equal(rpc.where(), 'worker');
  const next = rpc.call({ n: 2 });
  assert.equal(workers.length, 2);
  workers[1].reply({ id: workers[1].posted[0].data.id, value: 'two' });
  assert.equal((await next).value, 'two');
  assert.deepEqual(mainCalls, []);
});

test('restart(reason) stops a live worker and sends its unanswered requests on again, to a fresh worker', async () => {
  const { rpc, workers } = setup();
  const answer = rpc.call(
    { n: 1, engine: 'slow' },
    { lost: (reason, request) => rpc.call({ ...request, engine: 'quick', reason }) },
  );
  rpc.restart('took too long');
  assert.equal(workers[0].terminated, true);
  assert.equal(workers.length, 2);
  const { data } = workers[1].posted[0];
  assert.deepEqual(data, { n: 1, engine: 'quick', reason: 'took too long', id: data.id });
  workers[1].reply({ id: data.id, value: 'placed' });
  assert.equal((await answer).value, 'placed');
});

test('toMain(reason) gives up workers for good: unanswered requests get lost(), later ones run on the main thread', async () => {
  const { rpc, workers } = setup();
  const answer = rpc.call({ n: 1 }, { lost: (reason) => ({ lost: reason }) });
  rpc.toMain('never became ready');
  assert.deepEqual(await answer, { lost: 'never became ready' });
  assert.equal(workers[0].terminated, true);
  assert.equal(rpc.where(), 'main');
  assert.deepEqual(await rpc.call({ n: 2 }), { main: true, echo: 2 });
});

test('lazy false starts the worker at once; messages without an id go to onEvent, stale replies are dropped', async () => {
  const events = [];
  const { rpc, workers } = setup({ lazy: false, onEvent: (data) => events.push(data) });
  assert.equal(workers.length, 1);
  workers[0].reply({ type: 'ready', version: '1.0' });
  const answer = rpc.call({ n: 1 });
  const { id } = workers[0].posted[0].data;
  workers[0].reply({ id, value: 'first' });
  workers[0].reply({ id, value: 'again' });
  workers[0].reply({ id: 999, value: 'unknown' });
  assert.equal((await answer).value, 'first');
  assert.deepEqual(events, [{ type: 'ready', version: '1.0' }]);
});

test('a request the worker cannot take (postMessage throws) rejects, and the rest still work', async () => {
  const { rpc, workers } = setup();
  rpc.call({ n: 0 });
  workers[0].postMessage = () => {
    throw new Error('could not be cloned');
  };
  await assert.rejects(rpc.call({ n: 1 }), /could not be cloned/);
  delete workers[0].postMessage;
  const answer = rpc.call({ n: 2 });
  workers[0].reply({ id: workers[0].posted.at(-1).data.id, value: 'two' });
  assert.equal((await answer).value, 'two');
});

test('an error from a worker already replaced is ignored', async () => {
  const { rpc, workers, mainCalls } = setup();
  rpc.call({ n: 1 }, { lost: () => ({ lost: true }) });
  rpc.restart('slow');
  workers[0].crash('late error from the old worker');
  assert.equal(rpc.where(), 'worker');
  assert.deepEqual(mainCalls, []);
});
