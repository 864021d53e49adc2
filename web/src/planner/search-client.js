// search-client.js — the page's plan search (docs/design.md §17) on a Web Worker of its own, so a long search
// never holds up the greedy plans the planner worker answers meanwhile (a size slider dragged), and so it can be
// cancelled: the search is one synchronous WASM call, and cancelling ends its worker.
//
// Contract: createSearcher({startWorker?, loadModule?}) → {search(text, options) → Promise<{result, ms} |
// {cancelled: true, reason}>, cancel(reason?), where()}. search plans text under options (which carry the
// `search` option) in search-worker.js: result is the planner's answer exactly as returned (errors are values),
// ms the time the worker measured around the call. One search at a time is expected (watch-search.js asks for
// one and cancels it before the next). cancel() ends the worker (the next search starts a fresh one, which
// loads the module again) and resolves the search it was running with {cancelled: true}. If no worker can
// start, searches run on the main thread (loadModule(): wasm/fusion.mjs), timed there, and cannot be
// cancelled. Nothing is computed here. Shown by tests/web/worker-clients.test.mjs and
// tests/browser/page-search.test.mjs.
import { createWorkerRpc } from '../worker-rpc/worker-rpc.js';

const START = () => new Worker(new URL('./search-worker.js', import.meta.url), { type: 'module' });
const LOAD = async () => {
  const { loadFusion } = await import('../../../wasm/fusion.mjs');
  return loadFusion();
};

export function createSearcher({ startWorker = START, loadModule = LOAD } = {}) {
  let module = null;
  // The same search on the main thread, in the worker's reply shape.
  const main = async ({ text, options }) => {
    const fusion = await (module ??= loadModule());
    const t0 = performance.now();
    const resultText = fusion.planText(text, options);
    return { resultText, ms: performance.now() - t0 };
  };
  const rpc = createWorkerRpc({ start: startWorker, main, afterCrash: 'restart' });
  return {
    where: () => rpc.where(),
    async search(text, options) {
      const reply = await rpc.call({ text, options }, { lost: (reason) => ({ cancelled: true, reason }) });
      if (reply.cancelled) return reply;
      return { result: JSON.parse(reply.resultText), ms: reply.ms };
    },
    cancel: (reason = 'search cancelled') => rpc.restart(reason),
  };
}
