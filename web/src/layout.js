// layout.js — lays a view model out off the main thread, so the page never freezes on big graphs.
//
// Contract: layoutGraph(viewModel, options) → Promise<{positions, routes, engine, reason}> (layout-input.js
// builds the ELK input and reads the result). The work runs in layout-worker.js: ELK's layered algorithm up
// to ELK_MAX_NODES drawn nodes, the quick layered placement (layered-layout.js) above that, when ELK throws,
// and when ELK has not answered within ELK_TIMEOUT_MS (the worker is then stopped and a fresh one places the
// graph). engine is 'elk' or 'layered'; reason says why ELK was not used (null when it was). One worker is
// started lazily and reused; requests are answered in order. If workers cannot start (e.g. a script from
// another origin), the same work runs on the main thread. Browser-only (Vite resolves the worker URL);
// the pure parts are tested in tests/web/layout-input.test.mjs and tests/web/layered-layout.test.mjs.

import { buildElkGraph, readLayout } from './layout-input.js';

export const ELK_MAX_NODES = 500;
export const ELK_TIMEOUT_MS = 10_000;

let worker = null;
let noWorker = false; // workers cannot start here: everything runs on the main thread
let seq = 0;
const pending = new Map(); // id → {graph, engine, done, fail, timer}

function startWorker() {
  try {
    const w = new Worker(new URL('./layout-worker.js', import.meta.url), { type: 'module' });
    w.onmessage = ({ data }) => settle(data);
    w.onerror = (e) => {
      e.preventDefault?.();
      noWorker = true;
      restart('the layout worker stopped');
    };
    return w;
  } catch {
    noWorker = true;
    return null;
  }
}

function settle(data) {
  const job = pending.get(data.id);
  if (!job) return;
  pending.delete(data.id);
  clearTimeout(job.timer);
  if (data.ok) job.done({ ...data, reason: data.engine === 'elk' ? null : job.reason ?? data.reason });
  else job.fail(new Error(data.error));
}

// Stops the worker and sends every unanswered request again, to the quick placement.
function restart(reason) {
  worker?.terminate();
  worker = noWorker ? null : startWorker();
  const jobs = [...pending.values()];
  pending.clear();
  for (const job of jobs) {
    clearTimeout(job.timer);
    post({ ...job, engine: 'layered', reason: job.reason ?? reason });
  }
}

// Runs the work on the main thread (no worker available).
async function onMainThread({ graph, engine, reason, done, fail }) {
  try {
    if (engine === 'elk') {
      const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
      try {
        return done({ engine: 'elk', result: await new ELK().layout(graph) });
      } catch (e) {
        reason = `ELK failed: ${e?.message ?? e}`;
      }
    }
    const { layeredLayout } = await import('./layered-layout.js');
    done({ engine: 'layered', result: layeredLayout(graph), reason });
  } catch (e) {
    fail(e);
  }
}

function post(job) {
  if (!worker) return onMainThread(job);
  const id = ++seq;
  if (job.engine === 'elk') job.timer = setTimeout(() => restart(`ELK took longer than ${ELK_TIMEOUT_MS / 1000} s`), ELK_TIMEOUT_MS);
  pending.set(id, job);
  worker.postMessage({ id, graph: job.graph, engine: job.engine });
}

export function layoutGraph(vm, options) {
  if (!worker && !noWorker) worker = startWorker();
  const graph = buildElkGraph(vm, options);
  const big = vm.nodes.length > ELK_MAX_NODES;
  return new Promise((resolve, reject) => {
    const done = ({ engine, result, reason }) => resolve({ ...readLayout(result), engine, reason: reason ?? null });
    post({ graph, engine: big ? 'layered' : 'elk', reason: big ? `more than ${ELK_MAX_NODES} nodes to draw` : null, done, fail: reject });
  });
}
