// planner-client.js — a small promise client over the WASM planner; errors come back as data.
//
// Contract: createPlanner(load) → {ready: Promise<version>, plan(text, options) → Promise<result>}.
// `load` resolves to the fusion API of wasm/fusion.mjs (default: import and loadFusion()). plan() resolves
// to the planner's result object exactly as returned (never recomputed); a load failure resolves to
// {ok:false, error:{code:'load_failed', message}} so the page can say so. The planner runs on the main
// thread (the module is built for the web environment, not workers); timing is measured by the caller.

export function createPlanner(load = defaultLoad) {
  const loading = Promise.resolve().then(load);
  const failed = (e) => ({ ok: false, error: { code: e?.code ?? 'load_failed', message: e?.message ?? String(e) } });
  return {
    ready: loading.then((f) => f.version()),
    plan: (text, options) => loading.then((f) => f.plan(text, options), (e) => { const r = failed(e); r.errors = [r.error]; return r; }),
  };
}

async function defaultLoad() {
  const { loadFusion } = await import('../../wasm/fusion.mjs');
  return loadFusion();
}
