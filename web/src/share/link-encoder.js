// link-encoder.js — share-link hashes for the address bar, computed off the main thread for big graphs.
//
// Contract: createLinkEncoder() → {encode(state, exampleText) → Promise<hash>}: the same string as
// url-state.js encodeState(state, exampleText). Texts of up to OFF_THREAD_ABOVE characters are encoded at once
// on the main thread (a few ms); longer ones in link-worker.js, started on first use, since compressing
// megabytes of JSON holds the thread for seconds. Only example, text, options, compare and optimal are sent. Without
// workers, if one stops, or when it answers with an error, the link is encoded on the main thread. Requests go
// through worker-rpc.js. Browser-only; shown by tests/browser/page-large.test.mjs (the link of a 5,000-op
// model) and page-share.test.mjs.
import { createWorkerRpc } from '../worker-rpc/worker-rpc.js';
import { encodeState } from './url-state.js';

export const OFF_THREAD_ABOVE = 128 * 1024;

const encodeHere = ({ state, exampleText }) => encodeState(state, exampleText);

export function createLinkEncoder() {
  const rpc = createWorkerRpc({
    start: () => new Worker(new URL('./link-worker.js', import.meta.url), { type: 'module' }),
    main: (request) => ({ hash: encodeHere(request) }),
  });
  return {
    async encode({ example, text, options, compare, optimal }, exampleText) {
      const request = { state: { example, text, options, compare, ...(optimal ? { optimal } : {}) }, exampleText };
      if (text.length <= OFF_THREAD_ABOVE) return encodeHere(request);
      const reply = await rpc.call(request);
      return reply.error === undefined ? reply.hash : encodeHere(request);
    },
  };
}
