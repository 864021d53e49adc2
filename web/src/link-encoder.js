// link-encoder.js — share-link hashes for the address bar, computed off the main thread for big graphs.
//
// Contract: createLinkEncoder() → {encode(state, exampleText) → Promise<hash>}: the same string as
// url-state.js encodeState(state, exampleText). Texts of up to OFF_THREAD_ABOVE characters are encoded at once
// on the main thread (a few ms); longer ones in link-worker.js, started on first use, since compressing
// megabytes of JSON holds the thread for seconds. Only example, text, options and compare are sent. Without
// workers (or if one fails) everything is encoded on the main thread. Browser-only; shown by
// tests/browser/page-large.test.mjs (the link of a 5,000-op model) and page-share.test.mjs.
import { encodeState } from './url-state.js';

export const OFF_THREAD_ABOVE = 128 * 1024;

export function createLinkEncoder() {
  let worker = null;
  let noWorker = false;
  let seq = 0;
  const pending = new Map(); // id → {state, exampleText, done}

  const onMain = ({ state, exampleText, done }) => done(encodeState(state, exampleText));
  function start() {
    try {
      const w = new Worker(new URL('./link-worker.js', import.meta.url), { type: 'module' });
      w.onmessage = ({ data }) => {
        const job = pending.get(data.id);
        pending.delete(data.id);
        if (job) (data.error === undefined ? job.done(data.hash) : onMain(job));
      };
      w.onerror = (e) => {
        e.preventDefault?.();
        noWorker = true;
        w.terminate();
        worker = null;
        for (const job of pending.values()) onMain(job);
        pending.clear();
      };
      return w;
    } catch {
      noWorker = true;
      return null;
    }
  }

  return {
    encode({ example, text, options, compare }, exampleText) {
      const state = { example, text, options, compare };
      return new Promise((done) => {
        if (text.length <= OFF_THREAD_ABOVE || noWorker) return onMain({ state, exampleText, done });
        worker ??= start();
        if (!worker) return onMain({ state, exampleText, done });
        const id = ++seq;
        pending.set(id, { state, exampleText, done });
        worker.postMessage({ id, state, exampleText });
      });
    },
  };
}
