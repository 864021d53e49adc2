// svg-graph-view.js — a read-only drawing of a small plan as SVG, for embeds: the <fusion-playground> element
// draws graphs of up to SVG_MAX_NODES boxes with it, so an embed of a small graph never downloads Cytoscape
// (views/graph-view.js, about 140 KiB gzipped). Same picture as views/graph-view.js, drawn by svg/plan-svg.js
// (shared with the page's SVG export) in the colours of the element's theme (theme="dark": theme/palette.js's
// dark set, read from the element's color-scheme when a plan is drawn).
//
// Contract: createSvgGraphView(container) → {render(vm, {positions, routes}), setColorBy(mode), clear()}.
// render draws a view model (view-model.js) at the node positions of layout.js (centres); an edge follows its
// route when it has one, otherwise a straight line between the box borders. The drawing is fitted into the
// container (viewBox, never enlarged past MAX_ZOOM, so it follows the container's size); the wheel zooms about
// the pointer, a drag pans, a double-click fits again. setColorBy('bytes') fills each op with its bytes-moved
// colour (node.heat), 'group' (default) shows categories and kernel colours. Every text is inserted as text.
// Each op's <g> carries data-op and a <title> (name, kind and shape); each cluster's, data-group (plan-svg.js).
// Browser-only; shown by tests/browser/element.test.mjs and tests/browser/page-budget.test.mjs.

import { drawPlan, s } from '../svg/plan-svg.js';
import { graphColors } from '../theme/palette.js';
import { themeOf } from '../theme/theme.js';

export const SVG_MAX_NODES = 50; // drawn boxes; layout.js's LIGHT_MAX_NODES, past which ELK routes the edges
const MAX_ZOOM = 1.3; // as graph-view.js's fit: a small graph is not blown up past a readable size
const MARGIN = 30; // px around the fitted drawing

export function createSvgGraphView(container) {
  const svg = s('svg', { width: '100%', height: '100%', 'aria-hidden': 'true', style: 'display:block' });
  container.append(svg);
  let last = null; // the last drawing's view model and layout, for setColorBy
  let colorBy = 'group';
  let view = null; // the viewBox {x, y, w, h}
  let fitted = null;

  const setView = (v) => {
    view = v;
    svg.setAttribute('viewBox', `${v.x} ${v.y} ${v.w} ${v.h}`);
  };
  // The viewBox that shows box b with a margin, never zoomed past MAX_ZOOM for the container's size.
  const fitTo = (b) => {
    const rect = container.getBoundingClientRect();
    const W = rect.width || 600;
    const H = rect.height || 400;
    const w = b.x1 - b.x0;
    const h = b.y1 - b.y0;
    const zoom = Math.max(0.05, Math.min(MAX_ZOOM, (W - 2 * MARGIN) / w, (H - 2 * MARGIN) / h));
    const vw = W / zoom;
    const vh = H / zoom;
    fitted = { x: (b.x0 + b.x1) / 2 - vw / 2, y: (b.y0 + b.y1) / 2 - vh / 2, w: vw, h: vh };
    setView(fitted);
  };

  const draw = () => {
    svg.replaceChildren();
    if (!last) return;
    const { layers, extent } = drawPlan(last.vm, last, { colorBy, colors: graphColors(themeOf(container)) });
    svg.append(...layers, s('style', {}, 'svg.grabbing { cursor: grabbing; }'));
    return extent;
  };

  // Wheel: zoom about the pointer; drag: pan; double-click: fit again.
  const toDrawing = (ev) => {
    const rect = svg.getBoundingClientRect();
    return {
      x: view.x + ((ev.clientX - rect.left) / rect.width) * view.w,
      y: view.y + ((ev.clientY - rect.top) / rect.height) * view.h,
    };
  };
  svg.addEventListener(
    'wheel',
    (ev) => {
      if (!view) return;
      ev.preventDefault();
      const p = toDrawing(ev);
      const f = Math.exp(Math.max(-0.5, Math.min(0.5, ev.deltaY * 0.002)));
      const w = Math.min(fitted.w * 20, Math.max(fitted.w / 20, view.w * f));
      const k = w / view.w;
      setView({ x: p.x - (p.x - view.x) * k, y: p.y - (p.y - view.y) * k, w, h: view.h * k });
    },
    { passive: false },
  );
  let drag = null;
  svg.addEventListener('pointerdown', (ev) => {
    if (!view || ev.button !== 0) return;
    drag = { x: ev.clientX, y: ev.clientY, view };
    svg.setPointerCapture(ev.pointerId);
    svg.classList.add('grabbing');
  });
  svg.addEventListener('pointermove', (ev) => {
    if (!drag) return;
    const rect = svg.getBoundingClientRect();
    const k = drag.view.w / (rect.width || 1);
    setView({ ...drag.view, x: drag.view.x - (ev.clientX - drag.x) * k, y: drag.view.y - (ev.clientY - drag.y) * k });
  });
  const stop = () => {
    drag = null;
    svg.classList.remove('grabbing');
  };
  svg.addEventListener('pointerup', stop);
  svg.addEventListener('pointercancel', stop);
  svg.addEventListener('dblclick', () => fitted && setView(fitted));

  return {
    svg,
    render(vm, { positions, routes }) {
      last = { vm, positions, routes };
      const b = draw();
      if (b) fitTo(b);
      else svg.removeAttribute('viewBox');
    },
    setColorBy(mode) {
      colorBy = mode;
      if (last) draw();
    },
    clear() {
      last = null;
      draw();
    },
  };
}
