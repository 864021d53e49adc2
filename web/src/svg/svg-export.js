// svg-export.js — the graph on the page as a stand-alone SVG file: for blog posts and docs.
//
// Contract: graphSvg({vm, layout, positions, viewport, colorBy, colors, title}) → the SVG document as text.
// vm and layout are the drawing on screen (views/graph-pane.js's shownDrawing(): the view model with its fusion
// groups, and layout.js's positions and routes); positions are the op boxes' centres now (views/graph-view.js's
// drawnState(): a box the person dragged is drawn where it is, and an edge of a moved box is drawn straight, not
// along its old route). viewport {x0, y0, x1, y1} keeps only that part of the graph (what is on screen; null:
// the whole graph, with a margin); colorBy 'bytes' | 'group' and colors (theme/palette.js) are the screen's.
// The picture is svg/plan-svg.js's (the element's drawing): one <g class="op"> per drawn box (data-op,
// data-kernel), one <g class="cluster"> per fusion group of more than one op (data-group, "kernel N · label"),
// texts as SVG text in the system font (no embedded fonts), on the theme's ground, with a <title>.
// Browser-only (builds DOM elements, serialises them with XMLSerializer); shown by tests/browser/page-svg.test.mjs.

import { drawPlan, s } from './plan-svg.js';

const MARGIN = 24; // around the whole graph

// The routes of edges whose two ends are still where the layout put them.
function keptRoutes(vm, layout, positions) {
  const still = (id) => {
    const a = layout.positions[id];
    const b = positions[id];
    return a && b && Math.abs(a.x - b.x) < 0.5 && Math.abs(a.y - b.y) < 0.5;
  };
  const routes = {};
  for (const e of vm.edges)
    if (layout.routes?.[e.id] && still(e.source) && still(e.target)) routes[e.id] = layout.routes[e.id];
  return routes;
}

export function graphSvg({ vm, layout, positions, viewport = null, colorBy = 'group', colors, title = 'Fusion plan' }) {
  const { layers, extent } = drawPlan(
    vm,
    { positions: { ...layout.positions, ...positions }, routes: keptRoutes(vm, layout, positions) },
    { colorBy, colors },
  );
  const whole = extent ?? { x0: 0, y0: 0, x1: 100, y1: 100 };
  const box = viewport ?? {
    x0: whole.x0 - MARGIN,
    y0: whole.y0 - MARGIN,
    x1: whole.x1 + MARGIN,
    y1: whole.y1 + MARGIN,
  };
  const w = Math.max(1, box.x1 - box.x0);
  const h = Math.max(1, box.y1 - box.y0);
  const f = (v) => Number(v.toFixed(1));
  const svg = s(
    'svg',
    {
      width: Math.round(w),
      height: Math.round(h),
      viewBox: `${f(box.x0)} ${f(box.y0)} ${f(w)} ${f(h)}`,
      role: 'img',
      'aria-label': title,
    },
    s('title', {}, title),
    s('rect', { class: 'ground', x: f(box.x0), y: f(box.y0), width: f(w), height: f(h), fill: colors.ground }),
    ...layers,
  );
  // XMLSerializer writes the SVG namespace itself (the element is created in it).
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(svg)}\n`;
}
