// search-worker.js — the plan search's Web Worker (search-client.js starts it): the full WASM module
// (wasm/fusion.mjs); each {id, text, options} is answered with {id, resultText, ms}: the planner's answer as its
// JSON text and the milliseconds the call took, measured here around it. A module that does not load answers
// each request with a load_failed error value. Ended by search-client.js to cancel a search. Shown by
// tests/browser/page-search.test.mjs.
import { loadFusion } from '../../../wasm/fusion.mjs';

const loading = loadFusion();

self.onmessage = async ({ data: { id, text, options } }) => {
  const fusion = await loading.catch(() => null);
  if (!fusion) {
    const error = { code: 'load_failed', message: 'the planner module did not load for the search' };
    return postMessage({ id, resultText: JSON.stringify({ ok: false, error, errors: [error] }), ms: 0 });
  }
  const t0 = performance.now();
  const resultText = fusion.planText(text, options);
  postMessage({ id, resultText, ms: performance.now() - t0 });
};
