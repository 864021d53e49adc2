// serve-planner.js — the body of a planner Web Worker, so a large graph never freezes the page.
//
// servePlanner(loading), where loading is the promise of a module's value API (loadFusion() or
// loadFusionPlan()), answers this protocol on the worker's scope. planner-worker.js (the full module, the
// page's) and plan-only-worker.js (the plan-only module, the element's) are its two workers.
// Protocol (planner-connection.js, through worker-rpc.js, is the only peer): once loaded it posts
// {type:'ready', version, catalog:{strategies, hardware}} (the module's names; null where it has none) or
// {type:'failed', error:{code, message}}; each {id, text, options} message is answered with
// {type:'plan', id, resultText, where, counts} (the planner's answer as its JSON text: a string crosses to the
// page much faster than the object), each {id, text, optionsList} (several plans of one text, e.g. the compare
// view's two strategies) with {type:'plan', id, result: [results…], where, counts}, and each
// {id, text, options, sweep: spec} (the plan across one named dimension, docs/design.md §16) with
// {type:'plan', id, result: the sweep, where, counts}, and each {id, text, options, code: request} (a kernel's
// generated code, docs/design.md §19) with {type:'plan', id, result: the code, where, counts}: the planner's
// results exactly as returned (errors are values); a request without a text is for the text of the one before it (the client leaves out a text it has
// just sent). where is the global scope the plan ran in ('worker' here, read off the scope, so a test can tell a
// worker's answer from the main thread's). The last graph text is kept read (graph-cache.js): a new request
// with the same text re-plans it without parsing it again; counts = {loads, reused} says how often each
// happened. Not here: any planning logic (core/, via wasm/fusion.mjs). Shown by
// tests/browser/page-worker.test.mjs and page-dims.test.mjs.

import { createGraphCache } from './graph-cache.js';
import { fromModule } from './strategy-catalog.js';

export function servePlanner(loading) {
  const where =
    typeof globalThis.WorkerGlobalScope === 'function' && self instanceof globalThis.WorkerGlobalScope
      ? 'worker'
      : 'main';
  loading.then(
    (f) => postMessage({ type: 'ready', version: f.version(), catalog: fromModule(f) }),
    (e) => postMessage({ type: 'failed', error: { code: e?.code ?? 'load_failed', message: e?.message ?? String(e) } }),
  );
  let cache = null;
  let kept = null; // the last text sent: a request without one is for that text

  self.onmessage = async ({ data: { id, text: sent, options, optionsList, sweep, code } }) => {
    const text = (kept = sent ?? kept);
    const fusion = await loading.catch(() => null);
    if (!fusion) return;
    cache ??= createGraphCache(fusion);
    const counts = () => ({ ...cache.counts });
    if (!optionsList && !sweep && !code)
      return postMessage({ type: 'plan', id, resultText: cache.planText(text, options), where, counts: counts() });
    const result = optionsList
      ? cache.planMany(text, optionsList)
      : sweep
        ? cache.sweep(text, options, sweep)
        : cache.code(text, options, code);
    postMessage({ type: 'plan', id, result, where, counts: counts() });
  };
}
