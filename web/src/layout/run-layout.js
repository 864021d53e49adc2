// run-layout.js — one layout request, wherever it runs: ELK's layered algorithm, or the light layered placement
// of layered-layout.js when asked for it, when ELK throws (e.g. a stack overflow) or where ELK is not at hand.
//
// Contract: runLayout({graph, engine: 'elk' | 'layered', reason?}, loadElk?) → Promise<{ok: true, engine,
// result, reason} | {ok: false, error}>. result is ELK-shaped output (layout-input.js readLayout reads it);
// engine says which one produced it; reason is null when ELK did, else why not: the request's reason (default
// 'asked for'), 'ELK failed: …', or, without loadElk, 'ELK runs only in the layout worker'. ok is false (error:
// a message) only when even the light placement failed. loadElk() resolves to elkjs's module; it is called on
// first use only, and again after a failure (a failed run may leave ELK's state broken). Only the layout
// worker passes it (layout-worker.js), so the page and the element ship one ELK bundle, the worker's; on the
// main thread (layout.js, without workers) every graph gets the light placement. Shown by
// tests/web/run-layout.test.mjs.

import { layeredLayout } from './layered-layout.js';

let elk = null;

async function runElk(graph, loadElk) {
  if (!elk) {
    const { default: ELK } = await loadElk();
    elk = new ELK();
  }
  return elk.layout(graph);
}

export async function runLayout({ graph, engine, reason = null }, loadElk = null) {
  let why = reason ?? 'asked for';
  if (engine === 'elk' && !loadElk) why = 'ELK runs only in the layout worker';
  else if (engine === 'elk') {
    try {
      return { ok: true, engine: 'elk', result: await runElk(graph, loadElk), reason: null };
    } catch (e) {
      why = `ELK failed: ${e?.message ?? e}`;
      elk = null;
    }
  }
  try {
    return { ok: true, engine: 'layered', result: layeredLayout(graph), reason: why };
  } catch (e) {
    return { ok: false, error: String(e?.message ?? e) };
  }
}
