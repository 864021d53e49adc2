// import-client.js — a small promise client over the import worker.
//
// Contract: createImporter() → {importFile(name, buffer: ArrayBuffer) → Promise<result>, where()}: result
// as import-file.js importBytes returns it (never rejects; a crash of the worker is an error result). The
// worker (import-worker.js) starts on the first import and is reused; the buffer is transferred, not
// copied. If workers cannot start, the import runs on the main thread and where() says 'main'.
// Browser-only; shown by tests/browser/page-import.test.mjs.

export function createImporter() {
  let worker = null;
  let noWorker = false;
  let seq = 0;
  const pending = new Map();

  const failAll = (message) => {
    for (const { name, done } of pending.values()) done({ ok: false, name, error: { message, node: null, opType: null, path: null, code: 'worker_failed' } });
    pending.clear();
  };

  function start() {
    try {
      const w = new Worker(new URL('./import-worker.js', import.meta.url), { type: 'module' });
      w.onmessage = ({ data }) => {
        pending.get(data.id)?.done(data.result);
        pending.delete(data.id);
      };
      w.onerror = (e) => {
        e.preventDefault?.();
        w.terminate();
        worker = null;
        failAll(`the import stopped unexpectedly (${e.message || 'worker error'}); try again`);
      };
      return w;
    } catch {
      noWorker = true;
      return null;
    }
  }

  async function onMainThread(name, buffer) {
    const { importBytes } = await import('./import-file.js');
    return importBytes(name, new Uint8Array(buffer));
  }

  return {
    where: () => (noWorker ? 'main' : 'worker'),
    importFile(name, buffer) {
      if (!worker && !noWorker) worker = start();
      if (!worker) return onMainThread(name, buffer);
      return new Promise((done) => {
        const id = ++seq;
        pending.set(id, { name, done });
        worker.postMessage({ id, name, buffer }, [buffer]);
      });
    },
  };
}
