// serve-planner.js — the body of a planner Web Worker, so a large graph never freezes the page.
//
// servePlanner(loading, loadFull?), where loading is the promise of a module's value API (loadFusion() or
// loadFusionPlan()), answers this protocol on the worker's scope. plan-only-worker.js (the element's) serves the
// plan-only module alone. planner-worker.js (the page's) starts on the plan-only module too, so the page's first
// plan needs only the smaller download, and gives loadFull (a function loading the full module): the first answer
// that is {ok: false, error: {code: "not_in_module"}} (a sweep, a kernel's code, a numerics evaluation) loads the
// full module, asks it again, and from then on the full module answers every request (so one module reads each
// text; counts are that module's).
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

// Is an answer (a result value, or a plan's JSON text) the plan-only module's "not in this module"?
function notInModule(answer) {
  if (typeof answer === 'string') return answer.startsWith('{"ok":false') && answer.includes('"code":"not_in_module"');
  if (Array.isArray(answer)) return answer.some(notInModule);
  return answer?.ok === false && answer.error?.code === 'not_in_module';
}

// One request's answer from a graph cache: a plan's JSON text, or the result of several plans, a sweep or code.
function answerOf(cache, text, { options, optionsList, sweep, code }) {
  if (!optionsList && !sweep && !code) return cache.planText(text, options);
  if (optionsList) return cache.planMany(text, optionsList);
  return sweep ? cache.sweep(text, options, sweep) : cache.code(text, options, code);
}

export function servePlanner(loading, loadFull = null) {
  const where =
    typeof globalThis.WorkerGlobalScope === 'function' && self instanceof globalThis.WorkerGlobalScope
      ? 'worker'
      : 'main';
  loading.then(
    (f) => postMessage({ type: 'ready', version: f.version(), catalog: fromModule(f) }),
    (e) => postMessage({ type: 'failed', error: { code: e?.code ?? 'load_failed', message: e?.message ?? String(e) } }),
  );
  let cache = null;
  let full = null; // the full module's graph cache, once a request needed it (loadFull)
  let fullLoading = null; // the promise of it (null again when the load failed)
  let kept = null; // the last text sent: a request without one is for that text

  self.onmessage = async ({ data: { id, text: sent, ...request } }) => {
    const text = (kept = sent ?? kept);
    const fusion = await loading.catch(() => null);
    if (!fusion) return;
    cache ??= createGraphCache(fusion);
    let from = full ?? cache;
    let answer = answerOf(from, text, request);
    if (from === cache && loadFull && notInModule(answer)) {
      fullLoading ??= loadFull().then(createGraphCache, () => null);
      full = await fullLoading;
      if (full) answer = answerOf((from = full), text, request);
      else fullLoading = null; // not loaded: the plan-only answer stands, and a later request tries again
    }
    const counts = { ...from.counts };
    const plain = !request.optionsList && !request.sweep && !request.code;
    postMessage(
      plain
        ? { type: 'plan', id, resultText: answer, where, counts }
        : { type: 'plan', id, result: answer, where, counts },
    );
  };
}
