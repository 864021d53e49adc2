// planner-worker.js — the page's planner Web Worker: the full WASM module (wasm/fusion.mjs) behind the protocol
// of serve-planner.js. Started by planner-client.js. Shown by tests/browser/page-worker.test.mjs.
import { loadFusion } from '../../../wasm/fusion.mjs';
import { servePlanner } from './serve-planner.js';

servePlanner(loadFusion());
