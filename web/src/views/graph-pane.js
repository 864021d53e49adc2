// graph-pane.js — the graph pane's drawing: the last valid plan laid out (layout/) and drawn by the graph
// view, with its bytes legend, and a note over the graph while a slow layout runs.
//
// Contract: createGraphPane({graphView, container, overlay, legend, layoutGraph, getState, restoreOverlay,
// onLaidOut?, onDrawn?}) → {render(state)}. render lays out and draws present/collapse.js's drawnViewModel of
// state.graph/plan/expanded when the plan or the open groups changed since the last render (the view is fitted
// only for a new plan); a newer render wins over an older one still laying out. The layout's direction and
// aspect follow the container's box. After a draw: the heat legend shows the view model's bins, the current
// selection (getState()) is marked, and the body's data-plan-shown counts up (tests and
// page/controls/large-graph.js wait for it). Once the latest layout is in, restoreOverlay() hands the overlay
// back to its owner (views/editor-status.js's note). onLaidOut({ms, engine, reason, nodes}) reports each
// layout, onDrawn(ms) each draw (ms from the layout's start), for the page's timings. render also marks a
// changed selection at once, and refits the view when the compare view closes (the pane had no size). Browser-only; shown by
// tests/browser/page-large.test.mjs and page.test.mjs.

import { drawnViewModel } from '../present/collapse.js';
import { renderHeatLegend } from './heat-legend.js';

export function createGraphPane({
  graphView,
  container,
  overlay,
  legend,
  layoutGraph,
  getState,
  restoreOverlay,
  onLaidOut = () => {},
  onDrawn = () => {},
}) {
  let seq = 0;
  let last = null; // {plan, expanded} of the latest layout
  let shown = { selection: undefined, compare: null };

  function render(state) {
    if (!state.compare && shown.compare) {
      graphView.cy.resize();
      graphView.fit();
    }
    draw(state);
    if (state.selection !== shown.selection) graphView.setSelection(state.selection);
    shown = { selection: state.selection, compare: state.compare };
  }

  async function draw(state) {
    if (!state.graph || !state.plan) return;
    if (state.plan === last?.plan && state.expanded === last?.expanded) return;
    const fit = state.plan !== last?.plan;
    last = { plan: state.plan, expanded: state.expanded };
    const mine = ++seq;
    const vm = drawnViewModel(state.graph, state.plan, state.expanded);
    const slow = setTimeout(() => {
      overlay.hidden = false;
      overlay.classList.add('info');
      overlay.textContent = `Laying out ${vm.nodes.length} node${vm.nodes.length === 1 ? '' : 's'}… (the numbers are ready)`;
    }, 400);
    const t0 = performance.now();
    const box = container.getBoundingClientRect();
    const layout = await layoutGraph(vm, {
      direction: box.width > box.height * 1.6 ? 'RIGHT' : 'DOWN',
      aspect: box.width / Math.max(1, box.height),
    });
    onLaidOut({ ms: performance.now() - t0, engine: layout.engine, reason: layout.reason, nodes: vm.nodes.length });
    clearTimeout(slow);
    if (mine !== seq) return;
    overlay.classList.remove('info');
    restoreOverlay();
    if (!(await graphView.render(vm, layout, { fit })) || mine !== seq) return; // a big graph draws over several frames
    renderHeatLegend(legend, vm.heat);
    graphView.setSelection(getState().selection);
    onDrawn(performance.now() - t0);
    document.body.dataset.planShown = String((Number(document.body.dataset.planShown) || 0) + 1);
  }
  return { render };
}
