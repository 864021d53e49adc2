// planner-client.js — the page's planner, in planner-worker.js: the plan-only WASM module first, the full module
// (wasm/fusion.mjs) once a request needs it (serve-planner.js).
//
// Contract: createPlanner(load?) → the client of planner-connection.js ({ready, catalog, plan, planMany, sweep,
// code, where, ran, reads}): plan, planMany, sweep and code all answer. With `load` (a function
// resolving to the API of wasm/fusion.mjs, as in Node tests) it runs on the main thread; otherwise in a module
// Web Worker, with the main thread (the full module) as fallback. The element uses plan-only-client.js instead (the smaller,
// plan-only module). Shown by tests/web/worker-clients.test.mjs and tests/browser/page-worker.test.mjs.
import { connectPlanner } from './planner-connection.js';

const FULL = {
  startWorker: () => new Worker(new URL('./planner-worker.js', import.meta.url), { type: 'module' }),
  loadModule: async () => {
    const { loadFusion } = await import('../../../wasm/fusion.mjs');
    return loadFusion();
  },
};

export function createPlanner(load) {
  return connectPlanner(FULL, load);
}
