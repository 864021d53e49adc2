// planner-worker.js — runs the WASM planner in a Web Worker so a large graph never freezes the page.
//
// Protocol (planner-client.js is the only peer): on start it loads the planner and posts
// {type:'ready', version} or {type:'failed', error:{code, message}}; each {id, text, options} message is
// answered with {type:'plan', id, result}, the planner's result exactly as returned (errors are values).
// Not here: any planning logic (core/, via wasm/fusion.mjs). Shown by tests/browser/page-worker.test.mjs.

import { loadFusion } from '../../wasm/fusion.mjs';

const loading = loadFusion();
loading.then((f) => postMessage({ type: 'ready', version: f.version() }),
  (e) => postMessage({ type: 'failed', error: { code: e?.code ?? 'load_failed', message: e?.message ?? String(e) } }));

self.onmessage = async ({ data: { id, text, options } }) => {
  const fusion = await loading.catch(() => null);
  if (fusion) postMessage({ type: 'plan', id, result: fusion.plan(text, options) });
};
