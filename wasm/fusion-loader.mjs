// fusion-loader.mjs — loads the full WASM module (fusion_core) once and wraps it in the value API that never throws.
//
// loadFusion() resolves to { plan, validate, verify, sweep, code, loadGraph, version, catalog, planText,
// validateText, verifyText, sweepText, codeText, heapBytes }; it is the only call that may fail by rejecting (a
// FusionError with code "load_failed", when the module is missing or cannot be instantiated), and a later call
// tries again. Graphs, options and plans may
// be given as JSON text, as plain objects or (graphs) as a FusionGraph. The *Text functions return the C++
// facade's JSON text unchanged (what the native CLI prints); the others return it parsed. Failures come back
// as {ok: false, error, errors}; nothing thrown inside the module escapes. loadedFusion() is the loaded API,
// or null before loading finishes. heapBytes() is the size of the current instance's WASM memory (it grows
// on demand and never shrinks), for leak checks such as tests/wasm/load.test.mjs. sweep(graph, options, spec)
// answers the plan across one named dimension (docs/design.md §16); code(graph, options, request) the plan's
// generated code (request {dialect: 'c' | 'triton', group?}, docs/design.md §19). loadGraph(graph) reads a graph
// once and answers {ok: true, handle, ops, plan(options), planText(options), sweep(options, spec),
// code(options, request), release()} (or the error value): re-planning it with new options, e.g. new dimension
// values, does not read its text again.
// The module is the generated loader (generated/fusion_core.mjs) and its binary (generated/fusion_core.wasm,
// not inlined), loaded by fusion-module.mjs. The plan-only module (fusion-plan.mjs) gives the same API.
// Not here: any planning logic; it all runs in C++ (core/). Shown by tests/wasm/module.test.mjs and
// tests/browser/page-budget.test.mjs.
import { moduleLoader } from './fusion-module.mjs';

// The binary beside its loader: Vite sees new URL(…, import.meta.url) and emits the file with a hashed name; in
// Node it is a file: URL.
const full = moduleLoader({
  name: 'fusion_core',
  importFactory: () => import('./generated/fusion_core.mjs'),
  wasmUrl: new URL('./generated/fusion_core.wasm', import.meta.url),
});

export function loadFusion() {
  return full.load();
}

export function loadedFusion() {
  return full.loaded();
}
