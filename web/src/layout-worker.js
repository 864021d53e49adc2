// layout-worker.js — lays out ELK input graphs off the main thread: ELK's layered algorithm, or the quick
// layered placement of layered-layout.js when asked for it or when ELK throws (e.g. a stack overflow).
//
// Protocol (layout.js is the only peer): each {id, graph, engine:'elk'|'layered'} message is answered with
// {id, ok:true, engine, result, reason?} — result is ELK-shaped output (layout-input.js readLayout reads it);
// engine says which one produced it and reason why ELK was not used — or {id, ok:false, error} when even the
// fallback failed. ELK is loaded on first use only, so a fallback request from a fresh worker (after a
// timeout) answers at once. Not here: timeouts (layout.js terminates a worker that takes too long).
import { layeredLayout } from './layered-layout.js';

let elk = null;

async function runElk(graph) {
  if (!elk) {
    const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
    elk = new ELK();
  }
  return elk.layout(graph);
}

async function onMessage({ data: { id, graph, engine } }) {
  let reason = engine === 'layered' ? 'asked for' : null;
  if (engine === 'elk') {
    try {
      postMessage({ id, ok: true, engine: 'elk', result: await runElk(graph) });
      return;
    } catch (e) {
      reason = `ELK failed: ${e?.message ?? e}`;
      elk = null; // a failed run may leave ELK's state broken
    }
  }
  try {
    postMessage({ id, ok: true, engine: 'layered', result: layeredLayout(graph), reason });
  } catch (e) {
    postMessage({ id, ok: false, error: String(e?.message ?? e) });
  }
}

// A listener, not self.onmessage: ELK's code, finding itself in a worker, sets self.onmessage to its own
// dispatcher on first use (it ignores messages without its `cmd` field, such as these).
self.addEventListener('message', onMessage);
