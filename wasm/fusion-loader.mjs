// fusion-loader.mjs — loads the WASM module once and wraps it in the value API that never throws.
//
// loadFusion() resolves to { plan, validate, verify, sweep, code, loadGraph, version, catalog, planText, validateText,
// verifyText, sweepText, codeText, heapBytes }; it is the only call that may fail by rejecting (a FusionError with code "load_failed", when the
// module is missing or cannot be instantiated), and a later call tries again. Graphs, options and plans may
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
// Not here: any planning logic; it all runs in C++ (core/). Shown by tests/wasm/module.test.mjs.
import { FusionError, errorValue, internalValue } from './fusion-error.mjs';

let loading = null;
let loaded = null;

export function loadFusion() {
  loading ??= instantiate().catch((cause) => {
    loading = null;
    throw new FusionError({
      code: 'load_failed',
      message: `could not load the planner's WASM module (${cause?.message ?? cause}); build it with npm run build`,
    });
  });
  return loading;
}

export function loadedFusion() {
  return loaded;
}

async function instantiate() {
  const { default: createFusionCore } = await import('./generated/fusion_core.mjs');
  loaded = valueApi(await createFusionCore(), createFusionCore);
  return loaded;
}

// The API over the raw embind functions; every entry point returns a value, never throws. After a trap (an
// abort inside the module, e.g. std::terminate) the instance's memory can no longer be trusted, so it is
// replaced by a fresh one; calls made while that one is created return an error value.
function valueApi(firstCore, createCore) {
  const version = firstCore.version();
  const catalog = JSON.parse(firstCore.catalog());
  let core = firstCore;
  const replaceCore = () => {
    core = null;
    createCore().then(
      (fresh) => {
        core = fresh;
      },
      () => {
        core = undefined;
      },
    );
  };
  const call = (name, args, raw = []) => {
    if (core === undefined) replaceCore(); // the last replacement failed: try again
    if (!core) {
      return JSON.stringify(
        internalValue('internal_error', 'the planner is restarting after an internal failure; try again in a moment'),
      );
    }
    return callCore(core[name], args, replaceCore, raw);
  };
  const planText = (graph, options) =>
    call('plan', [
      [graph, 'graph'],
      [options, 'options'],
    ]);
  const validateText = (graph) => call('validate', [[graph, 'graph']]);
  const verifyText = (graph, options, plan) =>
    call('verify', [
      [graph, 'graph'],
      [options, 'options'],
      [plan, 'plan'],
    ]);
  const sweepText = (graph, options, spec) =>
    call('sweep', [
      [graph, 'graph'],
      [options, 'options'],
      [spec, 'sweep'],
    ]);
  const codeText = (graph, options, request) =>
    call('code', [
      [graph, 'graph'],
      [options, 'options'],
      [request, 'code request'],
    ]);
  const loadGraph = (graph) => {
    const loadedCore = core;
    const answer = parseResult(call('loadGraph', [[graph, 'graph']]));
    if (!answer.ok) return answer;
    const { handle } = answer;
    // After a restart the handle belongs to the old instance: answer as an unknown handle would.
    const live = (name, args) => (core === loadedCore ? call(name, args, [handle]) : call(name, args, [-1]));
    const planLoadedText = (options) => live('planLoaded', [[options, 'options']]);
    return {
      ok: true,
      handle,
      ops: answer.ops,
      planText: planLoadedText,
      plan: (options) => parseResult(planLoadedText(options)),
      sweep: (options, spec) =>
        parseResult(
          live('sweepLoaded', [
            [options, 'options'],
            [spec, 'sweep'],
          ]),
        ),
      code: (options, request) =>
        parseResult(
          live('codeLoaded', [
            [options, 'options'],
            [request, 'code request'],
          ]),
        ),
      release: () => {
        if (core === loadedCore) core.unloadGraph(handle);
      },
    };
  };
  return {
    planText,
    validateText,
    verifyText,
    sweepText,
    codeText,
    loadGraph,
    plan: (graph, options) => parseResult(planText(graph, options)),
    sweep: (graph, options, spec) => parseResult(sweepText(graph, options, spec)),
    code: (graph, options, request) => parseResult(codeText(graph, options, request)),
    validate: (graph) => parseResult(validateText(graph)),
    verify: (graph, options, plan) => parseResult(verifyText(graph, options, plan)),
    version: () => version,
    catalog: () => structuredClone(catalog),
    heapBytes: () => core?.HEAP8?.buffer.byteLength ?? 0,
  };
}

// Calls one embind function with its arguments as JSON text; a bad argument or a trap becomes an error value
// (and a trap calls onTrap).
function callCore(fn, args, onTrap, raw = []) {
  const texts = [...raw];
  for (const [value, what] of args) {
    const text = jsonText(value, what);
    if (text === null) {
      return JSON.stringify(
        errorValue(
          'invalid_type',
          `the ${what} must be JSON text or a JSON-serializable object; got ${describe(value)}`,
        ),
      );
    }
    texts.push(text);
  }
  try {
    return fn(...texts);
  } catch (cause) {
    onTrap();
    return JSON.stringify(
      internalValue(
        'internal_error',
        `the planner failed inside the WASM module ` +
          `(${cause?.message ?? cause}) and is restarting; a graph large enough to exhaust its 1 GiB heap ` +
          'can cause this',
      ),
    );
  }
}

// JSON text for an argument: strings pass through, objects are serialized (a FusionGraph via its toJSON),
// missing options mean the defaults (empty text); null when the value has no JSON form.
function jsonText(value, what) {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return what === 'options' ? '' : null;
  try {
    const text = JSON.stringify(value);
    return typeof text === 'string' ? text : null;
  } catch {
    return null;
  }
}

function describe(value) {
  return value === null ? 'null' : typeof value;
}

function parseResult(text) {
  try {
    return JSON.parse(text);
  } catch (cause) {
    return internalValue('internal_error', `the WASM module returned unreadable JSON: ${cause.message}`);
  }
}
