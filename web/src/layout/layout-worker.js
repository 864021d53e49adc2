// layout-worker.js — lays out ELK input graphs off the main thread; run-layout.js does the work. The one place
// that loads ELK (its own chunk, elk-*.js), and only when a request asks for it.
//
// Protocol (layout.js, through worker-rpc.js, is the only peer): each {id, graph, engine:'elk'|'layered',
// reason?} message is answered with {id, ...runLayout's reply}: {ok:true, engine, result, reason} or {ok:false,
// error}. ELK is loaded on first use only, so a request for the quick placement from a fresh worker (after a
// timeout) answers at once. Not here: timeouts (layout.js replaces a worker that takes too long).
import { runLayout } from './run-layout.js';

const loadElk = () => import('elkjs/lib/elk.bundled.js');

// A listener, not self.onmessage: ELK's code, finding itself in a worker, sets self.onmessage to its own
// dispatcher on first use (it ignores messages without its `cmd` field, such as these).
self.addEventListener('message', async ({ data: { id, ...request } }) => {
  postMessage({ id, ...(await runLayout(request, loadElk)) });
});
