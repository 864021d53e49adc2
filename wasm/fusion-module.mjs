// fusion-module.mjs — one WASM module, loaded once, wrapped in the value API that never throws.
//
// Contract: moduleLoader({name, importFactory, wasmUrl}) → {load(), loaded()}. load() instantiates the module
// (the generated loader importFactory() resolves to, and its binary at wasmUrl) and resolves to the value API
// described in fusion-loader.mjs; it rejects only with a FusionError code "load_failed" (missing module,
// failed instantiation), and a later call tries again. loaded() is the API once loaded, or null. The entries
// are fusion-loader.mjs (the full module, fusion_core) and fusion-plan.mjs (the plan-only module, fusion_plan);
// each names its own files, so a bundler sees (and a page downloads) only the module its entry names. Both
// give the same API: a function the module does not bind (the plan-only module has no validate, verify, sweep
// or code) answers the error value {ok: false, error: {code: "not_in_module", message}} instead of calling
// into it. Binary loading: in browsers the binary is fetched from wasmUrl (a hashed name in a Vite build) and
// compiled while it downloads (instantiateStreaming; from the whole response where the host does not serve
// application/wasm); in Node (a file: URL) it is read from disk. It is compiled once; a restarted instance
// reuses it. Not here: any planning logic; it all runs in C++ (core/). Shown by tests/wasm/module.test.mjs,
// tests/wasm/plan-module.test.mjs and tests/browser/page-budget.test.mjs.
import { FusionError, errorValue, internalValue } from './fusion-error.mjs';

const NODE_FS = 'node:fs/promises'; // a variable, so bundlers for the browser leave the import alone

export function moduleLoader({ name, importFactory, wasmUrl }) {
  let loading = null;
  let loaded = null;
  let compiled = null; // the compiled module: a restarted instance reuses it instead of fetching again

  async function instantiateWasm(imports) {
    if (compiled) return { instance: await WebAssembly.instantiate(await compiled, imports), module: await compiled };
    const first = firstInstance(wasmUrl, imports);
    compiled = first.then(({ module }) => module);
    compiled.catch(() => (compiled = null)); // a later load tries again
    return first;
  }

  async function instantiate() {
    const { default: createFusionCore } = await importFactory();
    const create = () => createCore(createFusionCore, instantiateWasm);
    loaded = valueApi(await create(), create, name);
    return loaded;
  }

  return {
    load() {
      loading ??= instantiate().catch((cause) => {
        loading = null;
        throw new FusionError({
          code: 'load_failed',
          message:
            `could not load the planner's WASM module ${name} (${cause?.message ?? cause}); ` +
            'build it with npm run build',
        });
      });
      return loading;
    },
    loaded: () => loaded,
  };
}

// The answer of a function the loaded module does not bind, in the facade's text form.
const PUBLIC_NAMES = { sweepLoaded: 'sweep', codeLoaded: 'code', planLoaded: 'plan', loadGraph: 'loadGraph' };
function notInModule(name, moduleName) {
  const what = PUBLIC_NAMES[name] ?? name;
  return JSON.stringify(
    errorValue(
      'not_in_module',
      `${what} is not in the WASM module ${moduleName}, which only plans; load wasm/fusion.mjs (fusion_core) for it`,
    ),
  );
}

// One instance of the embind module, its WebAssembly instantiated by us (Emscripten's instantiateWasm hook):
// streaming compilation from the network in browsers, the file's bytes in Node. A failure rejects (the
// generated loader would otherwise wait for ever).
function createCore(createFusionCore, instantiateWasm) {
  return new Promise((resolve, reject) => {
    createFusionCore({
      instantiateWasm(imports, receive) {
        instantiateWasm(imports).then(({ instance, module }) => receive(instance, module), reject);
        return {};
      },
    }).then(resolve, reject);
  });
}

// The first instance: instantiateStreaming (compiled while it downloads) when the host serves application/wasm;
// otherwise (another MIME type, which streaming refuses, or an older browser) from the whole response's bytes,
// without a second download; in Node, from the file read from disk.
async function firstInstance(wasmUrl, imports) {
  if (wasmUrl.protocol === 'file:') {
    const { readFile } = await import(/* @vite-ignore */ NODE_FS);
    return WebAssembly.instantiate(await readFile(wasmUrl), imports);
  }
  const response = await fetchWasm(wasmUrl);
  const wasmType = /^application\/wasm\b/.test(response.headers.get('content-type') ?? '');
  if (wasmType && typeof WebAssembly.instantiateStreaming === 'function') {
    try {
      return await WebAssembly.instantiateStreaming(response, imports);
    } catch {
      // the stream was cut off or refused: fetch again and compile from the bytes
      return WebAssembly.instantiate(await (await fetchWasm(wasmUrl)).arrayBuffer(), imports);
    }
  }
  return WebAssembly.instantiate(await response.arrayBuffer(), imports);
}

async function fetchWasm(wasmUrl) {
  const response = await fetch(wasmUrl, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${wasmUrl.pathname} answered HTTP ${response.status}`);
  return response;
}

// The API over the raw embind functions; every entry point returns a value, never throws. After a trap (an
// abort inside the module, e.g. std::terminate) the instance's memory can no longer be trusted, so it is
// replaced by a fresh one; calls made while that one is created return an error value.
function valueApi(firstCore, createCore, moduleName) {
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
    if (typeof core[name] !== 'function') return notInModule(name, moduleName);
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
        if (core === loadedCore) core.unloadGraph?.(handle);
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
