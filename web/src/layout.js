// layout.js — runs ELK's layered layout in a Web Worker so the page never freezes on big graphs.
//
// Contract: layoutGraph(viewModel, options) → Promise<{positions, routes}> (layout-input.js builds
// the ELK input and reads the result). One worker is started lazily and reused. Browser-only (Vite resolves
// the worker script URL); the pure parts are tested in tests/web/layout-input.test.mjs.

import ELK from 'elkjs/lib/elk-api.js';
import elkWorkerUrl from 'elkjs/lib/elk-worker.min.js?url';
import { buildElkGraph, readLayout } from './layout-input.js';

let elk = null;

export async function layoutGraph(vm, options) {
  elk ??= new ELK({ workerUrl: elkWorkerUrl });
  const result = await elk.layout(buildElkGraph(vm, options));
  return readLayout(result);
}
