// graph-pane.js — the graph pane's drawing: the last valid plan laid out (layout/) and drawn by the graph
// view, with its bytes legend, and a note over the graph while a slow layout runs.
//
// Contract: createGraphPane({graphView, container, overlay, legend, layoutGraph, getState, restoreOverlay,
// onLaidOut?, onDrawn?}) → {render(state), shownPlan(), shownDrawing()}; shownDrawing() → {vm, layout} of the
// graph on screen (the view model drawn and the layout it was placed by; null before the first draw). render lays out and draws present/collapse.js's
// drawnViewModel of state.graph/plan/expanded when the plan or the open groups changed since the last render
// (the view is fitted only for a new plan); a newer render wins over an older one still laying out. A new plan
// of the same graph text that groups the ops as the one on screen does (a size slider moved and the grouping
// stayed), so draws the same boxes, clusters and edges, is not laid out again: the graph view updates it in
// place (texts, colours), unfitted, at the next animation frame, with the latest plan then (one redraw per frame
// however fast plans come, and each reaches the screen beside the numbers of the same plan). The layout's
// direction and aspect follow the container's box. After a draw: the heat legend shows the view model's bins,
// the current selection (getState()) is marked, shownPlan() is the plan drawn, and the body's data-plan-shown
// counts up (tests, bench/page-dims.mjs and page/controls/large-graph.js wait for it). Once the latest layout is
// in, restoreOverlay() hands the overlay back to its owner (views/editor-status.js's note). onLaidOut({ms,
// engine, reason, nodes}) reports each layout, onDrawn(ms) each draw (ms from the layout's start), for the
// page's timings. render also marks a changed selection at once, and refits the view when the compare view
// closes (the pane had no size). Browser-only; shown by tests/browser/page-large.test.mjs, page.test.mjs and
// page-dims.test.mjs.

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
  let last = null; // {plan, expanded, text, grouping, drawn} of the latest drawing
  let shown = { selection: undefined, compare: null };
  let shownPlan = null; // the plan the graph on screen draws
  let drawing = null; // {vm, layout} on screen

  function render(state) {
    if (!state.compare && shown.compare) {
      graphView.cy.resize();
      graphView.fit();
    }
    draw(state);
    if (state.selection !== shown.selection) graphView.setSelection(state.selection);
    shown = { selection: state.selection, compare: state.compare };
  }

  // What decides the drawing besides the graph and the open groups: which ops each group holds (a plan that
  // groups them the same way draws the same boxes, clusters and edges; only texts and colours differ).
  const groupingOf = (plan) => plan.groups.map((g) => `${g.ops}/${g.recomputed ?? ''}`).join(';');

  // In-place redraws wait for the next animation frame and draw the latest plan then: one per frame at most,
  // however fast plans arrive, and each one reaches the screen.
  let frame = null;

  function redrawInPlace() {
    frame = null;
    const state = getState();
    const vm = drawnViewModel(state.graph, last.plan, state.expanded);
    if (!graphView.update(vm)) {
      last = null; // the drawing on screen is not the one expected: lay out afresh
      draw(state);
      return;
    }
    drawing = { ...drawing, vm };
    renderHeatLegend(legend, vm.heat); // (the selection stays marked: render marks a new one at once)
    shownPlan = last.plan;
    document.body.dataset.planShown = String((Number(document.body.dataset.planShown) || 0) + 1);
  }

  // Draws a new plan of the same drawing in place (at the next frame); false when it needs a layout.
  function sameDrawing(state, grouping) {
    if (!last || last.text !== state.graphText || last.expanded !== state.expanded || last.grouping !== grouping)
      return false;
    seq += 1; // a layout still running for an older plan is dropped
    last = { ...last, plan: state.plan };
    frame ??= requestAnimationFrame(redrawInPlace);
    return true;
  }

  async function draw(state) {
    if (!state.graph || !state.plan) return;
    if (state.plan === last?.plan && state.expanded === last?.expanded) return;
    const grouping = groupingOf(state.plan);
    if (last?.drawn && sameDrawing(state, grouping)) return;
    const fit = state.plan !== last?.plan;
    cancelAnimationFrame(frame); // an in-place redraw still waiting is for a drawing about to be replaced
    frame = null;
    last = { plan: state.plan, expanded: state.expanded, text: state.graphText, grouping, drawn: false };
    const vm = drawnViewModel(state.graph, state.plan, state.expanded);
    const mine = ++seq;
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
    last.drawn = true;
    shownPlan = last.plan;
    drawing = { vm, layout };
    renderHeatLegend(legend, vm.heat);
    graphView.setSelection(getState().selection);
    onDrawn(performance.now() - t0);
    document.body.dataset.planShown = String((Number(document.body.dataset.planShown) || 0) + 1);
  }
  return { render, shownPlan: () => shownPlan, shownDrawing: () => drawing };
}
