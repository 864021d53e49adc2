// timings.js — how long the page took to plan, lay out and draw: a record for tests and the timing note
// (window.fusionPlayground.timings); on the page only the status line reads it (the last plan's time).
//
// Contract: createTimings(now = performance.now) → {values, edited(), planned(ms), numbersShown(), laidOut({ms,
// engine, reason, nodes}), drawn(ms)}. values = {start, firstNumbersMs, firstPlanShownMs, lastEditToPlanMs,
// lastPlanMs, lastLayoutMs, lastElkMs, lastLayout: {engine, reason, nodes}}: ms, null until measured; first*
// count from start (page load). edited() marks a person's change; the next drawn() sets lastEditToPlanMs from
// it. Measures nothing by itself: the planner watcher and the graph pane report. Read by bench/page-timing.mjs
// (the page's timings) and tests/browser/page-large.test.mjs (the layout engine used).

export function createTimings(now = () => performance.now()) {
  const values = {
    start: now(),
    firstNumbersMs: null,
    firstPlanShownMs: null,
    lastEditToPlanMs: null,
    lastPlanMs: null,
    lastLayoutMs: null,
    lastElkMs: null,
  };
  let editAt = null;
  return {
    values,
    edited() {
      editAt = now();
    },
    planned(ms) {
      values.lastPlanMs = ms;
    },
    numbersShown() {
      values.firstNumbersMs ??= now() - values.start;
    },
    laidOut({ ms, engine, reason, nodes }) {
      values.lastElkMs = ms;
      values.lastLayout = { engine, reason, nodes };
    },
    drawn(ms) {
      values.lastLayoutMs = ms;
      values.firstPlanShownMs ??= now() - values.start;
      if (editAt !== null) values.lastEditToPlanMs = now() - editAt;
      editAt = null;
    },
  };
}
