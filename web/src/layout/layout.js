// layout.js — lays a view model out off the main thread, so the page never freezes on big graphs.
//
// Contract: layoutGraph(viewModel, options) → Promise<{positions, routes, engine, reason}> (layout-input.js
// builds the ELK input and reads the result). The work (run-layout.js) runs in layout-worker.js: the light
// layered placement (layered-layout.js) up to LIGHT_MAX_NODES drawn nodes (a small graph needs no ELK, so an
// embed never downloads it), ELK's layered algorithm up to ELK_MAX_NODES, the light placement again above
// that, when ELK throws, and when ELK has not answered within ELK_TIMEOUT_MS (the worker is then stopped and a
// fresh one places every unanswered graph). engine is 'elk' or 'layered'; reason says why ELK was not used
// (null when it was). One worker is started lazily and reused (worker-rpc.js); if workers cannot start (e.g.
// a script from another origin) or the worker stops on an error, the work runs on the main thread, always
// with the light placement (ELK is loaded only by the worker). Browser-only (Vite resolves the worker URL);
// the pure parts are tested in tests/web/layout-input.test.mjs, tests/web/layered-layout.test.mjs and
// tests/web/run-layout.test.mjs; which engine a graph gets, in tests/browser/page-large.test.mjs and
// page-budget.test.mjs.

import { createWorkerRpc } from '../worker-rpc/worker-rpc.js';
import { buildElkGraph, readLayout } from './layout-input.js';

export const LIGHT_MAX_NODES = 50;
export const ELK_MAX_NODES = 500;
export const ELK_TIMEOUT_MS = 10_000;

let rpc = null; // one worker for every layout on the page, started on first use

const workers = () =>
  (rpc ??= createWorkerRpc({
    start: () => new Worker(new URL('./layout-worker.js', import.meta.url), { type: 'module' }),
    main: async (request) => (await import('./run-layout.js')).runLayout(request),
    crashReason: () => 'the layout worker stopped',
  }));

// One request. Unanswered when its worker stops (an error, or another request's timeout), it is asked again
// for the quick placement, keeping its first reason.
function ask(job) {
  const w = workers();
  let timer = null;
  const reply = w.call(job, {
    lost: (why) => {
      clearTimeout(timer);
      return ask({ ...job, engine: 'layered', reason: job.reason ?? why });
    },
  });
  if (job.engine === 'elk' && w.where() === 'worker') {
    timer = setTimeout(() => w.restart(`ELK took longer than ${ELK_TIMEOUT_MS / 1000} s`), ELK_TIMEOUT_MS);
  }
  return reply.finally(() => clearTimeout(timer));
}

export async function layoutGraph(vm, options) {
  const graph = buildElkGraph(vm, options);
  const n = vm.nodes.length;
  const reason =
    n <= LIGHT_MAX_NODES
      ? `${LIGHT_MAX_NODES} nodes or fewer: the light layout`
      : n > ELK_MAX_NODES
        ? `more than ${ELK_MAX_NODES} nodes to draw`
        : null;
  const reply = await ask({ graph, engine: reason ? 'layered' : 'elk', reason });
  if (!reply.ok) throw new Error(reply.error);
  return { ...readLayout(reply.result), engine: reply.engine, reason: reply.reason ?? null };
}
