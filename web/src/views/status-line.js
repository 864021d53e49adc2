// status-line.js — the line under the graph: what the planner made of the graph, why it did not plan, or
// (while an edge is hovered) the planner's reason for that edge in words.
//
// Contract: createStatusLine(el, {planMs}) → {render(state), showEdge(state, edge)}. render writes "Planned N
// ops into K kernels in T ms (F fused)…", "Not planned: <first error>" (keeping the last valid plan on
// screen) or "Loading the planner…"; planMs() → the last plan's time in ms, or null. showEdge(state,
// {producer, consumer}) writes present/reasons.js's words for that plan edge; showEdge(state, null) goes back
// to render. showGroup(state, id) writes kernel id's pattern label, op count and the rule that formed it (the
// plan group's `label` and `rule`, as the planner words them); showGroup(state, null) goes back to render.
// Every number is the planner's. Browser-only; shown by tests/browser/page.test.mjs and
// tests/browser/page-rules.test.mjs.

import { summarize } from '../graph/diagnostics.js';
import { opLabel } from '../graph/graph-text.js';
import { explainReason } from '../present/reasons.js';

export function createStatusLine(el, { planMs }) {
  function render(state) {
    el.classList.toggle('error', !!state.error);
    if (state.error) {
      const err = state.error.error;
      el.textContent =
        `${err?.code === 'load_failed' ? 'The planner could not be loaded' : 'Not planned'}: ${summarize(err)}` +
        (state.plan ? ' — showing the last valid plan.' : '');
    } else if (state.plan) {
      const p = state.plan;
      const ms = planMs() !== null ? ` in ${planMs().toFixed(1)} ms` : '';
      el.textContent =
        `Planned ${state.graph.ops.length} ops into ${p.kernels_fused} kernel${p.kernels_fused === 1 ? '' : 's'}${ms}` +
        ` (${p.groups.filter((g) => g.ops.length > 1).length} fused) · hover an edge to see why it was not fused`;
    } else el.textContent = 'Loading the planner…';
  }

  function showEdge(state, edge) {
    const { graph, plan } = state;
    if (!edge || !graph || !plan) return render(state);
    const e = plan.edges.find((x) => x.producer === edge.producer && x.consumer === edge.consumer);
    if (e)
      el.textContent = explainReason(e, { producer: opLabel(graph, e.producer), consumer: opLabel(graph, e.consumer) });
  }
  function showGroup(state, id) {
    const g = id === null || id === undefined ? null : state.plan?.groups.find((x) => x.id === id);
    if (!g || !state.graph) return render(state);
    const ops = `${g.ops.length} op${g.ops.length === 1 ? '' : 's'}`;
    el.textContent = `Kernel ${g.id}${g.label ? ` (${g.label})` : ''}, ${ops}${g.rule ? ` — formed by: ${g.rule}` : ''}`;
  }
  return { render, showEdge, showGroup };
}
