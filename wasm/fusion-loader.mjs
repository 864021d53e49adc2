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
// The module is the generated loader (generated/fusion_core.mjs) and its binary (generated/fusion_core.wasm,
// not inlined): in browsers the binary is fetched from beside this file (a hashed name in a Vite build) and
// compiled while it downloads (instantiateStreaming; from the whole response where the host does not serve
// application/wasm); in Node it is read from disk. It is compiled once; a restarted instance reuses it.
// Not here: any planning logic; it all runs in C++ (core/). Shown by tests/wasm/module.test.mjs and
// tests/browser/page-budget.test.mjs.
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
  const create = () => createCore(createFusionCore);
  loaded = valueApi(await create(), create);
  return loaded;
}

// The WebAssembly binary beside its loader. Vite sees this pattern and emits the file with a hashed name;
// in Node it is a file: URL.
const WASM_URL = new URL('./generated/fusion_core.wasm', import.meta.url);
const NODE_FS = 'node:fs/promises'; // a variable, so bundlers for the browser leave the import alone
let compiled = null; // the compiled module: a restarted instance reuses it instead of fetching again

// One instance of the embind module, its WebAssembly instantiated by us (Emscripten's instantiateWasm hook):
// streaming compilation from the network in browsers, the file's bytes in Node. A failure rejects (the
// generated loader would otherwise wait for ever).
function createCore(createFusionCore) {
  return new Promise((resolve, reject) => {
    createFusionCore({
      instantiateWasm(imports, receive) {
        instantiateWasm(imports).then(({ instance, module }) => receive(instance, module), reject);
        return {};
      },
    }).then(resolve, reject);
  });
}

async function instantiateWasm(imports) {
  if (compiled) return { instance: await WebAssembly.instantiate(await compiled, imports), module: await compiled };
  const first = firstInstance(imports);
  compiled = first.then(({ module }) => module);
  compiled.catch(() => (compiled = null)); // a later load tries again
  return first;
}

// The first instance: instantiateStreaming (compiled while it downloads) when the host serves application/wasm;
// otherwise (another MIME type, which streaming refuses, or an older browser) from the whole response's bytes,
// without a second download; in Node, from the file read from disk.
async function firstInstance(imports) {
  if (WASM_URL.protocol === 'file:') {
    const { readFile } = await import(/* @vite-ignore */ NODE_FS);
    return WebAssembly.instantiate(await readFile(WASM_URL), imports);
  }
  const response = await fetchWasm();
  const wasmType = /^application\/wasm\b/.test(response.headers.get('content-type') ?? '');
  if (wasmType && typeof WebAssembly.instantiateStreaming === 'function') {
    try {
      return await WebAssembly.instantiateStreaming(response, imports);
    } catch {
      // the stream was cut off or refused: fetch again and compile from the bytes
      return WebAssembly.instantiate(await (await fetchWasm()).arrayBuffer(), imports);
    }
  }
  return WebAssembly.instantiate(await response.arrayBuffer(), imports);
}

async function fetchWasm() {
  const response = await fetch(WASM_URL, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${WASM_URL.pathname} answered HTTP ${response.status}`);
  return response;
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
