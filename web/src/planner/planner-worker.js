// planner-worker.js — the page's planner Web Worker, behind the protocol of serve-planner.js: the plan-only WASM
// module (wasm/fusion-plan.mjs) first, so the first plan needs only its download, and the full module
// (wasm/fusion.mjs, imported on first use) for what the plan-only one lacks (sweeps, kernel code, numerics
// evaluations). Started by planner-client.js. Shown by tests/browser/page-worker.test.mjs and page-budget.test.mjs.
import { loadFusionPlan } from '../../../wasm/fusion-plan.mjs';
import { servePlanner } from './serve-planner.js';

servePlanner(loadFusionPlan(), async () => (await import('../../../wasm/fusion.mjs')).loadFusion());
