// graph-cache.js — plans, and sweeps, a graph text without reading it again while the text stays the same.
//
// Contract: createGraphCache(fusion) over the value API of wasm/fusion.mjs → {plan(text, options),
// planText(text, options), planMany(text, [options…]), sweep(text, options, spec), code(text, options, request),
// counts}; planText is plan's answer as the planner's JSON text. The first call for a text reads it once
// (fusion.loadGraph) and releases the graph read for the previous text; later calls with the same text
// re-plan that graph with the new options (new dimension values, a strategy …), which is what keeps dragging
// a size slider quick. Every answer is exactly the planner's: when the text cannot be loaded, or a loaded
// plan or sweep fails (bad options, an unbound dimension, an overflow, a restarted module), the answer is
// fusion.plan / fusion.sweep on the text itself, and the loaded graph is forgotten. counts = {loads, reused}:
// texts read by loadGraph and answers from a graph already loaded (for tests and the benchmark).
// Runs wherever the planner runs (planner-worker.js, or planner-client.js's main-thread fallback).
// Shown by tests/web/graph-cache.test.mjs and tests/browser/page-dims.test.mjs.

export function createGraphCache(fusion) {
  let text = null;
  let loaded = null; // fusion.loadGraph(text) when it was ok
  const counts = { loads: 0, reused: 0 };

  function forget() {
    loaded?.release();
    loaded = null;
    text = null;
  }

  // The loaded graph for a text (read now when the text is new), or null when it does not load.
  function graphFor(t) {
    if (t === text && loaded) {
      counts.reused += 1;
      return loaded;
    }
    forget();
    const answer = fusion.loadGraph(t);
    if (!answer.ok) return null;
    counts.loads += 1;
    text = t;
    loaded = answer;
    return loaded;
  }

  // A loaded graph's answer, or the planner's answer on the text when the loaded one failed.
  function answer(t, viaLoaded, viaText, ok = (result) => result?.ok) {
    const graph = graphFor(t);
    const result = graph ? viaLoaded(graph) : null;
    if (ok(result)) return result;
    if (graph) forget();
    return viaText();
  }

  return {
    counts,
    plan: (t, options) =>
      answer(
        t,
        (g) => g.plan(options),
        () => fusion.plan(t, options),
      ),
    // The same answer as JSON text, as the planner writes it (which is what a worker sends on: a string crosses
    // to the page much faster than the object). The planner writes "ok" first, so an answer that planned starts
    // with {"ok":true; anything else counts as a failure (and is answered on the text).
    planText: (t, options) =>
      answer(
        t,
        (g) => g.planText(options),
        () => fusion.planText(t, options),
        (text) => typeof text === 'string' && text.startsWith('{"ok":true'),
      ),
    planMany: (t, list) =>
      list.map((options) =>
        answer(
          t,
          (g) => g.plan(options),
          () => fusion.plan(t, options),
        ),
      ),
    sweep: (t, options, spec) =>
      answer(
        t,
        (g) => g.sweep(options, spec),
        () => fusion.sweep(t, options, spec),
      ),
    code: (t, options, request) =>
      answer(
        t,
        (g) => g.code?.(options, request) ?? null,
        () => fusion.code(t, options, request),
      ),
  };
}
