// planner-connection.js — a small promise client over a WASM planner, in a worker or on the main thread; errors
// come back as data. planner-client.js (the page: the full module) and plan-only-client.js (the element: the
// plan-only module) give it the worker to start and the module to load; it names neither itself, so a bundle
// holds only the worker and module its entry names.
//
// Contract: connectPlanner({startWorker, loadModule}, load?) → {ready: Promise<version>,
// catalog: Promise<{strategies, hardware}>,
// plan(text, options) → Promise<result>, planMany(text, [options…]) → Promise<[result…]>,
// sweep(text, options, spec) → Promise<sweep result>, code(text, options, request) → Promise<code result>,
// where, ran, reads}. code asks for a kernel's generated code ({dialect, group}, docs/design.md §19; the
// selection panel's code view), made in the worker like a plan.
// catalog holds the strategy and hardware names the loaded module offers (null where it has none; see
// strategy-catalog.js). planMany plans one text under several options in one request (one copy of the text
// to the worker); the compare view uses it for its two strategies. sweep asks for the plan across one named
// dimension ({dim, from, to, step?}, docs/design.md §16; the size chart). Wherever it runs, the planner keeps
// the last text read (graph-cache.js), so a request that changes only the options (a size slider) does not
// parse the text again; reads = {loads, reused} are the latest counts of texts read and of answers from a
// text already read, as the planner reports them.
// With no `load`, in a browser, the planner runs in a module Web Worker (startWorker()) so planning a
// large graph never blocks the page; if the worker cannot start or load the module (e.g. the script was
// loaded from another origin, which workers refuse), it falls back to the main thread (loadModule()) and says so in
// `where` ('worker' | 'main'). ran = {worker, main} counts the requests answered in each place as the answers
// say (the worker names its scope in each reply), so a test can show that a plan was made off the main thread.
// With `load` (a function resolving to the API of wasm/fusion.mjs, as in Node tests) it runs on the main
// thread. plan() resolves to the planner's result exactly as returned (never recomputed; from a worker it comes
// as the planner's JSON text, parsed here); a load failure
// resolves to {ok:false, error:{code:'load_failed', message}, errors:[…]}. Requests are answered in order.
// Timing is measured by the caller. Shown by tests/browser/page-worker.test.mjs, page-dims.test.mjs and
// tests/web/graph-cache.test.mjs.

import { createWorkerRpc } from '../worker-rpc/worker-rpc.js';
import { createGraphCache } from './graph-cache.js';
import { fromModule } from './strategy-catalog.js';

export function connectPlanner({ startWorker, loadModule }, load) {
  if (load || typeof Worker === 'undefined') return mainThreadPlanner(load ?? loadModule);
  return workerPlanner(startWorker, loadModule);
}

const loadFailed = (e) => {
  const error = { code: e?.code ?? 'load_failed', message: e?.message ?? String(e) };
  return { ok: false, error, errors: [error] };
};

function mainThreadPlanner(load) {
  const loading = Promise.resolve().then(load);
  const cached = loading.then((f) => createGraphCache(f));
  const ran = { worker: 0, main: 0 };
  const reads = { loads: 0, reused: 0 };
  // One request on the main thread: counted, and the cache's counts copied into reads.
  const run = (work, failed) =>
    cached.then((cache) => {
      ran.main += 1;
      const result = work(cache);
      Object.assign(reads, cache.counts);
      return result;
    }, failed);
  return {
    where: 'main',
    ran,
    reads,
    ready: loading.then((f) => f.version()),
    catalog: loading.then(fromModule, () => fromModule(null)),
    plan: (text, options) => run((c) => c.plan(text, options), loadFailed),
    planMany: (text, list) =>
      run(
        (c) => c.planMany(text, list),
        (e) => list.map(() => loadFailed(e)),
      ),
    sweep: (text, options, spec) => run((c) => c.sweep(text, options, spec), loadFailed),
    code: (text, options, request) => run((c) => c.code(text, options, request), loadFailed),
  };
}

// Requests go to the worker once it is ready; if it never becomes ready, everything moves to the main thread.
function workerPlanner(startWorker, loadModule) {
  let fallback = null;
  const onMain = () => (fallback ??= mainThreadPlanner(loadModule));
  // The worker keeps the text it was sent last, so a request with the same text (a size slider dragged) leaves
  // it out: a big graph's text is not copied to the worker again for every plan.
  let sent = null;
  let catalog = fromModule(null);
  let started;
  const ready0 = new Promise((resolve, reject) => {
    started = { resolve, reject };
  });
  const rpc = createWorkerRpc({
    start: startWorker,
    lazy: false,
    main: async ({ text, options, optionsList, sweep, code }) => ({
      result: await (optionsList
        ? onMain().planMany(text, optionsList)
        : sweep
          ? onMain().sweep(text, options, sweep)
          : code
            ? onMain().code(text, options, code)
            : onMain().plan(text, options)),
      where: 'main',
    }),
    crashReason: () => 'the planner worker stopped; try again',
    onEvent: (data) => {
      if (data?.type === 'ready') {
        catalog = data.catalog ?? catalog;
        started.resolve(data.version);
      } else if (data?.type === 'failed') started.reject(data.error);
    },
    onCrash: (e) => {
      sent = null;
      started.reject(new Error(e?.message || 'the planner worker stopped'));
      onMain();
    },
  });
  if (rpc.where() === 'main') return onMain(); // the worker could not even be constructed
  const ready = ready0.catch(() => {
    rpc.toMain('the planner worker did not start');
    return onMain().ready;
  });
  const ran = { worker: 0, main: 0 };
  const reads = { loads: 0, reused: 0 };
  // One request, once the worker is ready (or gave up); a worker that stops answers it with lost(failure).
  // The reply says where the plan was made (the worker names its scope), and ran counts it there.
  const ask = async (request, lost) => {
    await ready.catch(() => {});
    const toWorker = rpc.where() === 'worker';
    const same = toWorker && request.text === sent;
    sent = toWorker ? request.text : null;
    const reply = await rpc.call(same ? { ...request, text: undefined } : request, {
      lost: (message) => ({ result: lost(loadFailed(new Error(message))), where: null }),
    });
    if (reply.where in ran) ran[reply.where] += 1;
    Object.assign(reads, reply.counts ?? (reply.where === 'main' ? fallback.reads : {}));
    return reply.resultText === undefined ? reply.result : JSON.parse(reply.resultText);
  };
  return {
    get where() {
      return rpc.where();
    },
    ran,
    reads,
    ready,
    catalog: ready.then(
      () => (fallback ? fallback.catalog : catalog),
      () => catalog,
    ),
    plan: (text, options) => ask({ text, options }, (failure) => failure),
    planMany: (text, optionsList) => ask({ text, optionsList }, (failure) => optionsList.map(() => failure)),
    sweep: (text, options, spec) => ask({ text, options, sweep: spec }, (failure) => failure),
    code: (text, options, request) => ask({ text, options, code: request }, (failure) => failure),
  };
}
