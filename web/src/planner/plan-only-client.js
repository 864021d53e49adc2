// plan-only-client.js — the planner of views that only plan (the <fusion-playground> element): the plan-only
// WASM module (wasm/fusion-plan.mjs), in plan-only-worker.js.
//
// Contract: createPlanOnlyPlanner(load?) → the client of planner-connection.js ({ready, catalog, plan,
// planMany, sweep, where, ran, reads}), over the plan-only module: plan and planMany answer as the full
// module's do; sweep answers the error value {ok: false, error: {code: "not_in_module"}}. With `load` it runs
// on the main thread; otherwise in a module Web Worker, with the main thread (wasm/fusion-plan.mjs) as
// fallback. Its module is a separate, smaller file than the page's (bench/RESULTS.md, "Page and embed sizes").
// Shown by tests/web/worker-clients.test.mjs and tests/browser/page-budget.test.mjs.
import { connectPlanner } from './planner-connection.js';

const PLAN_ONLY = {
  startWorker: () => new Worker(new URL('./plan-only-worker.js', import.meta.url), { type: 'module' }),
  loadModule: async () => {
    const { loadFusionPlan } = await import('../../../wasm/fusion-plan.mjs');
    return loadFusionPlan();
  },
};

export function createPlanOnlyPlanner(load) {
  return connectPlanner(PLAN_ONLY, load);
}
