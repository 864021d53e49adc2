// planner-client.js — a small promise client over the WASM planner; errors come back as data.
//
// Contract: createPlanner(load?) → {ready: Promise<version>, catalog: Promise<{strategies, hardware}>,
// plan(text, options) → Promise<result>, planMany(text, [options…]) → Promise<[result…]>, where}.
// catalog holds the strategy and hardware names the loaded module offers (null where it has none; see
// strategy-catalog.js). planMany plans one text under several options in one request (one copy of the text
// to the worker); the compare view uses it for its two strategies.
// With no `load`, in a browser, the planner runs in a module Web Worker (planner-worker.js) so planning a
// large graph never blocks the page; if the worker cannot start or load the module (e.g. the script was
// loaded from another origin, which workers refuse), it falls back to the main thread and says so in
// `where` ('worker' | 'main'). With `load` (a function resolving to the API of wasm/fusion.mjs, as in Node
// tests) it runs on the main thread. plan() resolves to the planner's result exactly as returned (never
// recomputed); a load failure resolves to {ok:false, error:{code:'load_failed', message}, errors:[…]}.
// Requests are answered in order. Timing is measured by the caller. Shown by tests/browser/page-worker.test.mjs.

import { fromModule } from './strategy-catalog.js';

export function createPlanner(load) {
  if (load || typeof Worker === 'undefined') return mainThreadPlanner(load ?? defaultLoad);
  let worker;
  try {
    worker = new Worker(new URL('./planner-worker.js', import.meta.url), { type: 'module' });
  } catch {
    return mainThreadPlanner(defaultLoad);
  }
  return workerPlanner(worker);
}

const loadFailed = (e) => {
  const error = { code: e?.code ?? 'load_failed', message: e?.message ?? String(e) };
  return { ok: false, error, errors: [error] };
};

function mainThreadPlanner(load) {
  const loading = Promise.resolve().then(load);
  return {
    where: 'main',
    ready: loading.then((f) => f.version()),
    catalog: loading.then(fromModule, () => fromModule(null)),
    plan: (text, options) => loading.then((f) => f.plan(text, options), loadFailed),
    planMany: (text, list) => loading.then((f) => list.map((o) => f.plan(text, o)), (e) => list.map(() => loadFailed(e))),
  };
}

// Requests go to the worker; if it never becomes ready, everything moves to the main thread.
function workerPlanner(worker) {
  const pending = new Map();
  let seq = 0;
  let fallback = null;
  const client = { where: 'worker' };
  let catalog = fromModule(null);
  const started = new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => {
      if (data.type === 'ready') {
        catalog = data.catalog ?? catalog;
        resolve(data.version);
      } else if (data.type === 'failed') reject(data.error);
      else if (data.type === 'plan') {
        pending.get(data.id)?.(data.result);
        pending.delete(data.id);
      }
    };
    worker.onerror = (e) => {
      e.preventDefault?.();
      reject(new Error(e.message || 'the planner worker stopped'));
      for (const done of pending.values()) done(loadFailed(new Error('the planner worker stopped; try again')));
      pending.clear();
      worker.terminate();
      fallback ??= mainThreadPlanner(defaultLoad);
      client.where = 'main';
    };
  });
  const ready = started.catch(() => {
    worker.terminate();
    fallback = mainThreadPlanner(defaultLoad);
    client.where = 'main';
    return fallback.ready;
  });
  client.ready = ready;
  client.catalog = ready.then(() => (fallback ? fallback.catalog : catalog), () => catalog);
  // One request to the worker; a worker that stopped answers every pending request with load_failed.
  const ask = (message, failed) => new Promise((done) => {
    const id = ++seq;
    pending.set(id, (result) => done(result.ok === false && !Array.isArray(result) && failed ? failed(result) : result));
    worker.postMessage({ id, ...message });
  });
  client.plan = async (text, options) => {
    await ready.catch(() => {});
    if (fallback) return fallback.plan(text, options);
    return ask({ text, options });
  };
  client.planMany = async (text, optionsList) => {
    await ready.catch(() => {});
    if (fallback) return fallback.planMany(text, optionsList);
    return ask({ text, optionsList }, (failure) => optionsList.map(() => failure));
  };
  return client;
}

async function defaultLoad() {
  const { loadFusion } = await import('../../wasm/fusion.mjs');
  return loadFusion();
}
