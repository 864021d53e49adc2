// worker-clients.test.mjs — the worker clients on worker-rpc.js, with a fake Worker in place of the browser's:
// the planner's ready handshake, crash and fallback; the importer's transferred buffer and fresh worker after a
// crash; the link encoder's size threshold and main-thread fallback. (layout.js is shown in Chromium:
// tests/browser/page-large.test.mjs.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, test } from 'node:test';
import { createImporter } from '../../web/src/import/import-client.js';
import { createPlanOnlyPlanner } from '../../web/src/planner/plan-only-client.js';
import { createPlanner } from '../../web/src/planner/planner-client.js';
import { createSearcher } from '../../web/src/planner/search-client.js';
import { createLinkEncoder, OFF_THREAD_ABOVE } from '../../web/src/share/link-encoder.js';
import { encodeState } from '../../web/src/share/url-state.js';
import { FakeWorker } from './fake-worker.mjs';

// Every worker the code under test starts, newest last.
let started = [];
beforeEach(() => {
  FakeWorker.reset();
  started = FakeWorker.started;
  globalThis.Worker = FakeWorker;
});
afterEach(() => {
  delete globalThis.Worker;
});

const tick = () => new Promise((resolve) => setImmediate(resolve));
const BIAS_RELU = readFileSync(new URL('../../examples/bias-relu.json', import.meta.url), 'utf8');
const OPTIONS = { broadcast: true, resident_sources: false };

test("the planner waits for the worker to be ready, then plans there and counts the answer as the worker's", async () => {
  const planner = createPlanner();
  assert.equal(started.length, 1, 'the planner worker starts at once');
  const [w] = started;
  assert.match(w.url, /planner-worker\.js$/);
  const answer = planner.plan('{"ops": []}', OPTIONS);
  await tick();
  assert.equal(w.posted.length, 0, 'nothing is sent before the worker is ready');
  w.reply({ type: 'ready', version: '9.9', catalog: { strategies: ['seed'], hardware: null } });
  assert.equal(await planner.ready, '9.9');
  await tick();
  const { data } = w.posted[0];
  assert.deepEqual(data, { text: '{"ops": []}', options: OPTIONS, id: data.id });
  w.reply({ type: 'plan', id: data.id, result: { ok: true, from: 'worker' }, where: 'worker' });
  assert.deepEqual(await answer, { ok: true, from: 'worker' });
  assert.deepEqual(planner.ran, { worker: 1, main: 0 });
  assert.equal(planner.where, 'worker');
  assert.deepEqual(await planner.catalog, { strategies: ['seed'], hardware: null });
});

test('a planner worker that stops answers what it held with load_failed; later plans run on the main thread', async () => {
  const planner = createPlanner();
  const [w] = started;
  w.reply({ type: 'ready', version: '1', catalog: null });
  await planner.ready;
  const pending = planner.planMany('{"ops": []}', [OPTIONS, OPTIONS]);
  await tick();
  w.crash('out of memory');
  const lost = await pending;
  assert.equal(lost.length, 2);
  assert.deepEqual(lost[0].error, { code: 'load_failed', message: 'the planner worker stopped; try again' });
  assert.equal(w.terminated, true);
  assert.equal(planner.where, 'main');
  const result = await planner.plan(BIAS_RELU, OPTIONS);
  assert.equal(result.ok, true, 'planned by the WASM module on the main thread');
  assert.deepEqual(planner.ran, { worker: 0, main: 1 });
});

test('a planner worker that cannot load the module hands everything to the main thread', async () => {
  const planner = createPlanner();
  started[0].reply({ type: 'failed', error: { code: 'load_failed', message: 'no WebAssembly' } });
  assert.match(await planner.ready, /^\d+\.\d+/, 'the main thread loaded the planner');
  assert.equal(started[0].terminated, true);
  assert.equal(planner.where, 'main');
  assert.equal((await planner.plan(BIAS_RELU, OPTIONS)).ok, true);
});

test("the plan-only planner (the element's) starts its own worker, not the page's, and speaks the same protocol", async () => {
  const planner = createPlanOnlyPlanner();
  assert.equal(started.length, 1);
  const [w] = started;
  assert.match(w.url, /plan-only-worker\.js$/);
  w.reply({ type: 'ready', version: '2.0', catalog: { strategies: ['seed'], hardware: null } });
  assert.equal(await planner.ready, '2.0');
  const answer = planner.plan('{"ops": []}', OPTIONS);
  await tick();
  const { data } = w.posted[0];
  assert.deepEqual(data, { text: '{"ops": []}', options: OPTIONS, id: data.id });
  w.reply({ type: 'plan', id: data.id, resultText: '{"ok":true,"from":"light"}', where: 'worker' });
  assert.deepEqual(await answer, { ok: true, from: 'light' });
  assert.deepEqual(planner.ran, { worker: 1, main: 0 });
});

test('a plan-only worker that cannot load hands everything to the plan-only module on the main thread', async () => {
  const planner = createPlanOnlyPlanner();
  started[0].reply({ type: 'failed', error: { code: 'load_failed', message: 'no WebAssembly' } });
  assert.match(await planner.ready, /^\d+\.\d+/, 'the main thread loaded the planner');
  assert.equal(planner.where, 'main');
  assert.equal((await planner.plan(BIAS_RELU, OPTIONS)).ok, true);
  const sweep = await planner.sweep(BIAS_RELU, OPTIONS, { dim: 'n', from: 1, to: 2 });
  assert.equal(sweep.error.code, 'not_in_module', 'the plan-only module has no sweep');
});

test("the importer transfers the file's buffer to its worker and returns the worker's result", async () => {
  const importer = createImporter();
  assert.equal(started.length, 0, 'no worker before the first import');
  const buffer = new ArrayBuffer(4);
  const answer = importer.importFile('model.onnx', buffer);
  const [w] = started;
  assert.match(w.url, /import-worker\.js$/);
  const { data, transfer } = w.posted[0];
  assert.equal(transfer[0], buffer);
  w.reply({ id: data.id, result: { ok: true, name: 'model.onnx' } });
  assert.deepEqual(await answer, { ok: true, name: 'model.onnx' });
  assert.equal(importer.where(), 'worker');
});

test('an import worker that crashes gives an error result; the next import starts a fresh worker', async () => {
  const importer = createImporter();
  const answer = importer.importFile('big.onnx', new ArrayBuffer(4));
  started[0].crash('Maximum call stack size exceeded');
  const result = await answer;
  assert.equal(result.ok, false);
  assert.equal(result.name, 'big.onnx');
  assert.equal(result.error.code, 'worker_failed');
  assert.match(result.error.message, /stopped unexpectedly \(Maximum call stack size exceeded\); try again/);
  importer.importFile('next.onnx', new ArrayBuffer(4));
  assert.equal(started.length, 2);
  assert.equal(importer.where(), 'worker');
});

test('without workers the importer runs on the main thread and says so', async () => {
  delete globalThis.Worker;
  const importer = createImporter();
  const text = BIAS_RELU;
  const result = await importer.importFile('bias-relu.json', new TextEncoder().encode(text).buffer);
  assert.equal(result.ok, true);
  assert.equal(result.text, text);
  assert.equal(importer.where(), 'main');
});

test('the link encoder keeps short texts on the main thread and sends long ones to its worker', async () => {
  const encoder = createLinkEncoder();
  const small = { example: null, text: 'x', options: OPTIONS };
  assert.equal(await encoder.encode(small), encodeState(small));
  assert.equal(started.length, 0);
  const big = { example: null, text: 'y'.repeat(OFF_THREAD_ABOVE + 1), options: OPTIONS };
  const answer = encoder.encode(big);
  const { data } = started[0].posted[0];
  assert.deepEqual(data.state, { example: null, text: big.text, options: OPTIONS, compare: undefined });
  started[0].reply({ id: data.id, hash: 'state=1.from-the-worker' });
  assert.equal(await answer, 'state=1.from-the-worker');
});

test('when the link worker answers with an error or stops, the link is encoded on the main thread', async () => {
  const encoder = createLinkEncoder();
  const big = { example: null, text: 'z'.repeat(OFF_THREAD_ABOVE + 1), options: OPTIONS };
  const first = encoder.encode(big);
  started[0].reply({ id: started[0].posted[0].data.id, error: 'out of memory' });
  assert.equal(await first, encodeState(big));
  const second = encoder.encode(big);
  started[0].crash('gone');
  assert.equal(await second, encodeState(big));
  assert.equal(await encoder.encode(big), encodeState(big));
  assert.equal(started.length, 1, 'no worker is started again');
});

test('the searcher runs each search on its own worker; cancel ends that worker and the next search starts a fresh one', async () => {
  const searcher = createSearcher({ startWorker: () => new FakeWorker('search'), loadModule: () => assert.fail() });
  const first = searcher.search('T', { search: { mode: 'optimal', budget_nodes: 5 } });
  const [w1] = FakeWorker.started;
  assert.deepEqual(w1.posted[0].data, { text: 'T', options: { search: { mode: 'optimal', budget_nodes: 5 } }, id: 1 });
  w1.reply({ id: 1, resultText: '{"ok":true,"bytes_fused":8}', ms: 38 });
  assert.deepEqual(await first, { result: { ok: true, bytes_fused: 8 }, ms: 38 });
  const second = searcher.search('T', {});
  searcher.cancel();
  assert.equal(w1.terminated, true);
  assert.deepEqual(await second, { cancelled: true, reason: 'search cancelled' });
  const third = searcher.search('U', {});
  assert.equal(FakeWorker.started.length, 2, 'a fresh worker');
  FakeWorker.started[1].reply({ id: 3, resultText: '{"ok":false,"error":{"code":"invalid_options"}}', ms: 0 });
  assert.equal((await third).result.error.code, 'invalid_options');
  assert.equal(searcher.where(), 'worker');
});

test('without workers the searcher runs on the main thread and times the call there', async () => {
  const calls = [];
  const module = { planText: (text, options) => (calls.push([text, options]), '{"ok":true}') };
  const searcher = createSearcher({
    startWorker: () => {
      throw new Error('no workers here');
    },
    loadModule: async () => module,
  });
  const answer = await searcher.search('T', { search: 'optimal' });
  assert.deepEqual(answer.result, { ok: true });
  assert.equal(typeof answer.ms, 'number');
  assert.deepEqual(calls, [['T', { search: 'optimal' }]]);
  assert.equal(searcher.where(), 'main');
});
