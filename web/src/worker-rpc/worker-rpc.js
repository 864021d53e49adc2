// worker-rpc.js — one promise client over a Web Worker: request ids, replies matched to their requests, a
// main-thread fallback, and what becomes of unanswered requests when the worker stops.
//
// Contract: createWorkerRpc({start, main, lazy = true, afterCrash = 'main', crashReason?, onEvent?, onCrash?})
// → {call(request, {transfer?, lost?}?) → Promise<reply>, where() → 'worker' | 'main', restart(reason),
// toMain(reason)}.
//   start() → a Worker (anything with postMessage, terminate and onmessage/onerror); it may throw (no workers
//     here, a script from another origin): every request then runs on the main thread. The worker starts on
//     the first call, or at once with lazy false.
//   call(request) posts {...request, id} (transfer: the transferables, moved rather than copied) and resolves
//     with the worker's message that carries that id, in whatever order replies come; replies are data (an
//     error reply resolves like any other). Without a worker it resolves with main(request), the same work
//     on the main thread, answered in the worker's reply shape. A message without an id goes to
//     onEvent(data) (e.g. a ready handshake); one for an id no longer waiting is dropped.
//   The worker reports an error: onCrash(errorEvent) is called, the worker is terminated, later requests go to
//     the main thread (afterCrash 'main') or to a fresh worker started on the next call ('restart'), and then
//     each unanswered request resolves with its lost(reason, request) (default: main(request)); reason is
//     crashReason(errorEvent) (default: the event's message). restart(reason) does the same to a worker that
//     is alive (one that took too long), with a fresh worker next; toMain(reason) gives up workers for good.
//   where() is 'main' once requests run on the main thread, else 'worker'.
// Pure apart from the Worker start() gives (no DOM). The four clients: planner/planner-client.js,
// layout/layout.js, import/import-client.js, share/link-encoder.js. Shown by tests/web/worker-rpc.test.mjs.

const byMessage = (e) => e?.message || 'the worker stopped';

export function createWorkerRpc({
  start,
  main,
  lazy = true,
  afterCrash = 'main',
  crashReason = byMessage,
  onEvent = () => {},
  onCrash = () => {},
}) {
  let worker = null;
  let onMainThread = false;
  let seq = 0;
  const pending = new Map(); // id → {request, lost, resolve, reject}

  function open() {
    let w;
    try {
      w = start();
    } catch {
      onMainThread = true;
      return null;
    }
    w.onmessage = ({ data }) => settle(data);
    w.onerror = (e) => {
      e?.preventDefault?.();
      if (w !== worker) return;
      onCrash(e);
      stop(afterCrash === 'main', crashReason(e));
    };
    return w;
  }

  function settle(data) {
    if (data?.id === undefined) return onEvent(data);
    const job = pending.get(data.id);
    if (!job) return;
    pending.delete(data.id);
    job.resolve(data);
  }

  // Stops the worker, decides where later requests go, then answers every unanswered one with its lost().
  function stop(forGood, reason) {
    worker?.terminate();
    worker = null;
    if (forGood) onMainThread = true;
    const jobs = [...pending.values()];
    pending.clear();
    for (const job of jobs) {
      try {
        job.resolve(job.lost(reason, job.request));
      } catch (e) {
        job.reject(e);
      }
    }
  }

  function call(request, { transfer = [], lost = (_reason, r) => main(r) } = {}) {
    if (!worker && !onMainThread) worker = open();
    if (!worker) return Promise.resolve(request).then(main);
    return new Promise((resolve, reject) => {
      const id = ++seq;
      pending.set(id, { request, lost, resolve, reject });
      try {
        worker.postMessage({ ...request, id }, transfer);
      } catch (e) {
        pending.delete(id);
        reject(e);
      }
    });
  }

  if (!lazy) worker = open();
  return {
    call,
    where: () => (onMainThread ? 'main' : 'worker'),
    restart: (reason) => stop(false, reason),
    toMain: (reason) => stop(true, reason),
  };
}
