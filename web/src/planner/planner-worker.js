// planner-worker.js — runs the WASM planner in a Web Worker so a large graph never freezes the page.
//
// Protocol (planner-client.js, through worker-rpc.js, is the only peer): on start it loads the planner and posts
// {type:'ready', version, catalog:{strategies, hardware}} (the module's names; null where it has none) or
// {type:'failed', error:{code, message}}; each {id, text, options} message is answered with
// {type:'plan', id, result, where}, and each {id, text, optionsList} (several plans of one text, e.g. the
// compare view's two strategies) with {type:'plan', id, result: [results…], where}: the planner's results
// exactly as returned (errors are values); where is the global scope the plan ran in ('worker' here, read off
// the scope, so a test can tell a worker's answer from the main thread's).
// Not here: any planning logic (core/, via wasm/fusion.mjs). Shown by tests/browser/page-worker.test.mjs.

import { loadFusion } from '../../../wasm/fusion.mjs';
import { fromModule } from './strategy-catalog.js';

const where = typeof WorkerGlobalScope === 'function' && self instanceof WorkerGlobalScope ? 'worker' : 'main';
const loading = loadFusion();
loading.then(
  (f) => postMessage({ type: 'ready', version: f.version(), catalog: fromModule(f) }),
  (e) => postMessage({ type: 'failed', error: { code: e?.code ?? 'load_failed', message: e?.message ?? String(e) } }),
);

self.onmessage = async ({ data: { id, text, options, optionsList } }) => {
  const fusion = await loading.catch(() => null);
  if (!fusion) return;
  const result = optionsList ? optionsList.map((o) => fusion.plan(text, o)) : fusion.plan(text, options);
  postMessage({ type: 'plan', id, result, where });
};
