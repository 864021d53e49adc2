// import-client.js — a small promise client over the import worker.
//
// Contract: createImporter() → {importFile(name, buffer: ArrayBuffer) → Promise<result>, where()}: result
// as import-file.js importBytes returns it (never rejects; a crash of the worker is an error result with code
// 'worker_failed', and the next import starts a fresh worker). The worker (import-worker.js) starts on the
// first import and is reused; the buffer is transferred, not copied. If workers cannot start, the import runs
// on the main thread and where() says 'main'. Requests go through worker-rpc.js. Browser-only; shown by
// tests/browser/page-import.test.mjs.

import { createWorkerRpc } from '../worker-rpc/worker-rpc.js';

// The worker's work, on the main thread: the same reply.
async function onMainThread({ name, buffer }) {
  const { importBytes } = await import('./import-file.js');
  return { result: importBytes(name, new Uint8Array(buffer)) };
}

export function createImporter() {
  const rpc = createWorkerRpc({
    start: () => new Worker(new URL('./import-worker.js', import.meta.url), { type: 'module' }),
    main: onMainThread,
    afterCrash: 'restart',
    crashReason: (e) => `the import stopped unexpectedly (${e?.message || 'worker error'}); try again`,
  });
  return {
    where: rpc.where,
    async importFile(name, buffer) {
      const failed = (message) => ({
        result: { ok: false, name, error: { message, node: null, opType: null, path: null, code: 'worker_failed' } },
      });
      const reply = await rpc.call({ name, buffer }, { transfer: [buffer], lost: failed });
      return reply.result;
    },
  };
}
