// latest-only.js — runs one job at a time and, while one runs, keeps only the newest job waiting: what a
// slider being dragged needs (each position asks for a plan, only the last one matters).
//
// Contract: createLatestOnly(run) → {push(job), idle() → Promise}. push(job) starts run(job) (async) when
// nothing runs; otherwise job replaces any job already waiting, which is dropped unrun. When a run ends (or
// fails) the waiting job, if any, starts. idle() resolves once nothing runs and nothing waits. Pure (no
// DOM). Used by watch-plan.js, compare-planner.js and watch-sweep.js; shown by tests/web/graph-cache.test.mjs.

export function createLatestOnly(run) {
  let running = false;
  let waiting = null; // {job}
  let settle = [];

  async function start(job) {
    running = true;
    try {
      await run(job);
    } catch {
      /* the job reports its own failures */
    }
    running = false;
    if (waiting) {
      const next = waiting.job;
      waiting = null;
      start(next);
    } else {
      for (const done of settle) done();
      settle = [];
    }
  }

  return {
    push(job) {
      if (running) waiting = { job };
      else start(job);
    },
    idle: () => (running || waiting ? new Promise((done) => settle.push(done)) : Promise.resolve()),
  };
}
