// run-layout.js — one layout request, wherever it runs: ELK's layered algorithm, or the quick layered
// placement of layered-layout.js when asked for it or when ELK throws (e.g. a stack overflow).
//
// Contract: runLayout({graph, engine: 'elk' | 'layered', reason?}) → Promise<{ok: true, engine, result, reason}
// | {ok: false, error}>. result is ELK-shaped output (layout-input.js readLayout reads it); engine says which
// one produced it; reason is null when ELK did, else why not: the request's reason (default 'asked for') or
// 'ELK failed: …'. ok is false (error: a message) only when even the quick placement failed. ELK is loaded on
// first use and dropped after a failure (a failed run may leave its state broken). Runs in layout-worker.js
// and, without workers, on the main thread (layout.js). Shown by tests/web/run-layout.test.mjs.

import { layeredLayout } from './layered-layout.js';

let elk = null;

async function runElk(graph) {
  if (!elk) {
    const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
    elk = new ELK();
  }
  return elk.layout(graph);
}

export async function runLayout({ graph, engine, reason = null }) {
  let why = reason ?? 'asked for';
  if (engine === 'elk') {
    try {
      return { ok: true, engine: 'elk', result: await runElk(graph), reason: null };
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
