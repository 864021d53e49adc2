// plan-only-worker.js — the element's planner Web Worker: the plan-only WASM module (wasm/fusion-plan.mjs)
// behind the protocol of serve-planner.js. Started by plan-only-client.js. Shown by
// tests/browser/element.test.mjs and tests/browser/page-budget.test.mjs.
import { loadFusionPlan } from '../../../wasm/fusion-plan.mjs';
import { servePlanner } from './serve-planner.js';

servePlanner(loadFusionPlan());
