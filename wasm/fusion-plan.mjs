// fusion-plan.mjs — the plan-only WASM module (fusion_plan), for views that only plan, such as the
// <fusion-playground> element.
//
//   const fusion = await loadFusionPlan();
//   fusion.plan(graph, options); fusion.loadGraph(graph).plan(options); fusion.version(); fusion.catalog();
//
// The same value API as loadFusion() in fusion.mjs (fusion-loader.mjs), from a smaller module: it binds plan,
// loaded graphs, version and catalog only (wasm/bindings.cpp under FUSION_WASM_PLAN_ONLY), so the verifier
// and the sweep driver are not linked in. validate, verify, sweep and code (and their *Text forms, and a loaded
// graph's sweep and code) answer {ok: false, error: {code: "not_in_module", message}}; they never call into it.
// It rejects only with FusionError code "load_failed". Its files are generated/fusion_plan.mjs and
// generated/fusion_plan.wasm (tools/build.sh wasm), separate from the full module's: a page that loads both
// downloads both. Shown by tests/wasm/plan-module.test.mjs and tests/browser/page-budget.test.mjs.
import { moduleLoader } from './fusion-module.mjs';

const planOnly = moduleLoader({
  name: 'fusion_plan',
  importFactory: () => import('./generated/fusion_plan.mjs'),
  wasmUrl: new URL('./generated/fusion_plan.wasm', import.meta.url),
});

export function loadFusionPlan() {
  return planOnly.load();
}

export function loadedFusionPlan() {
  return planOnly.loaded();
}
