// svg-graph-view.js — a read-only drawing of a small plan as SVG, for embeds: the <fusion-playground> element
// and the light ?embed draw graphs of up to SVG_MAX_NODES boxes with it, so an embed of a small graph never
// downloads Cytoscape (views/graph-view.js, about 140 KiB gzipped). Same picture as views/graph-view.js, drawn
// by svg/plan-svg.js (shared with the page's SVG export) in the colours of the theme in force where it is
// drawn (theme/palette.js's light or dark set, read from the container's color-scheme at each draw: the
// element's theme attribute, the page's data-theme).
//
// Contract: createSvgGraphView(container, {onSelect, minZoom}) → {svg, render(vm, {positions, routes}),
// setColorBy(mode), repaint(), clear(), select(target, {reveal}), fit()}. render draws a view model
// (view-model.js) at the node positions of layout.js (centres); an edge follows its route when it has one,
// otherwise a straight line between the box borders. The drawing is fitted into the container (viewBox, never
// enlarged past MAX_ZOOM, so it follows the container's size); the wheel zooms about the pointer, a drag pans,
// a double-click or fit() fits again. setColorBy('bytes') fills each op with its bytes-moved colour
// (node.heat), 'group' (default) shows categories and kernel colours. repaint() draws the same plan again in
// the theme now in force, keeping the view. Every text is inserted as text. Each op's <g> carries data-op and
// a <title> (name, kind and shape); each cluster's, data-group; each edge's, data-producer and data-consumer
// (plan-svg.js).
// With onSelect the ops, clusters and edges are focusable buttons: a click (not a drag) or Enter/Space on a
// focused one calls onSelect({kind:'op', id: op index} | {kind:'group', id} | {kind:'edge', id:{producer,
// consumer}}), a click on the background or Escape onSelect(null); select(target, {reveal}) marks the selected
// one (reveal: and pans to it). minZoom (default 0.05) is the smallest fit: an embed passes 1, so labels stay
// at their 11 px on screen and a wider drawing is panned instead of shrunk; such a drawing starts centred on
// its largest kernel. A container that changes size is fitted again.
// Browser-only; shown by tests/browser/element.test.mjs, page-embed.test.mjs and page-budget.test.mjs.

import { drawPlan, s } from '../svg/plan-svg.js';
import { graphColors } from '../theme/palette.js';
import { themeOf } from '../theme/theme.js';

export const SVG_MAX_NODES = 50; // drawn boxes; layout.js's LIGHT_MAX_NODES, past which ELK routes the edges
const MAX_ZOOM = 1.3; // as graph-view.js's fit: a small graph is not blown up past a readable size
const MARGIN = 30; // px around the fitted drawing

// The selection target a drawn element stands for, or null.
function targetOf(el) {
  const g = el?.closest?.('[data-op], [data-edge], [data-group]');
  if (!g) return null;
  if (g.dataset.op !== undefined) return { kind: 'op', id: Number(g.dataset.op) };
  if (g.dataset.group !== undefined) return { kind: 'group', id: Number(g.dataset.group) };
  return { kind: 'edge', id: { producer: Number(g.dataset.producer), consumer: Number(g.dataset.consumer) } };
}

const sameTarget = (a, b) => Boolean(a && b && a.kind === b.kind && JSON.stringify(a.id) === JSON.stringify(b.id));

export function createSvgGraphView(container, { onSelect = null, minZoom = 0.05 } = {}) {
  const svg = s('svg', {
    width: '100%',
    height: '100%',
    'aria-hidden': onSelect ? null : 'true',
    role: onSelect ? 'group' : null,
    'aria-label': onSelect ? 'Op graph: Tab to an op, a kernel or an edge, Enter to explain it' : null,
    style: 'display:block',
  });
  container.append(svg);
  let last = null; // the last drawing's view model and layout, for setColorBy
  let colorBy = 'group';
  let view = null; // the viewBox {x, y, w, h}
  let fitted = null;
  let selected = null; // the selection target marked on the drawing
  let bounds = null; // the drawing's extent, fitted again when the container changes size
  let focus = null; // the largest kernel's cluster: where a drawing too big for the view starts
  // A container that changes size (the cards above it wrap once their numbers are in, the window is resized)
  // gets the drawing fitted again, so its scale (and minZoom's readable labels) holds.
  let fittedIn = null; // the container's size the last fit was made for
  new ResizeObserver(() => {
    if (!bounds || !last || !fittedIn) return;
    const rect = container.getBoundingClientRect();
    if (Math.abs(rect.width - fittedIn.width) > 0.5 || Math.abs(rect.height - fittedIn.height) > 0.5) fitTo(bounds);
  }).observe(container);

  const setView = (v) => {
    view = v;
    svg.setAttribute('viewBox', `${v.x} ${v.y} ${v.w} ${v.h}`);
  };
  // The viewBox that shows box b with a margin, never zoomed past MAX_ZOOM for the container's size.
  const fitTo = (b) => {
    const rect = container.getBoundingClientRect();
    fittedIn = { width: rect.width, height: rect.height };
    const W = rect.width || 600;
    const H = rect.height || 400;
    const w = b.x1 - b.x0;
    const h = b.y1 - b.y0;
    const zoom = Math.max(minZoom, Math.min(MAX_ZOOM, (W - 2 * MARGIN) / w, (H - 2 * MARGIN) / h));
    const vw = W / zoom;
    const vh = H / zoom;
    // A drawing wider or taller than the view (minZoom) starts on its largest kernel, kept inside the drawing.
    const m = MARGIN / zoom;
    const start = (lo, hi, size, mid) => Math.min(Math.max(mid - size / 2, lo - m), hi + m - size);
    const f = focus ?? b;
    const x = vw < w + 2 * m ? start(b.x0, b.x1, vw, (f.x0 + f.x1) / 2) : (b.x0 + b.x1) / 2 - vw / 2;
    const y = vh < h + 2 * m ? start(b.y0, b.y1, vh, (f.y0 + f.y1) / 2) : (b.y0 + b.y1) / 2 - vh / 2;
    fitted = { x, y, w: vw, h: vh };
    setView(fitted);
  };

  // The selection's mark on the drawing (class "selected" on its element).
  const mark = () => {
    for (const el of svg.querySelectorAll('.selected')) el.classList.remove('selected');
    for (const el of svg.querySelectorAll('.pick'))
      if (sameTarget(targetOf(el), selected)) el.classList.add('selected');
  };

  const draw = () => {
    svg.replaceChildren();
    focus = null;
    if (!last) return;
    const colors = graphColors(themeOf(container));
    const drawn = drawPlan(last.vm, last, { colorBy, colors, pickable: Boolean(onSelect) });
    focus = drawn.focus;
    svg.append(...drawn.layers, s('style', {}, 'svg.grabbing { cursor: grabbing; }'));
    if (onSelect)
      for (const g of svg.querySelectorAll('[data-op], [data-edge], [data-group]')) {
        g.classList.add('pick');
        g.setAttribute('tabindex', '0');
        g.setAttribute('role', 'button');
        if (!g.getAttribute('aria-label')) g.setAttribute('aria-label', g.querySelector('title').textContent);
      }
    mark();
    return drawn.extent;
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
  if (onSelect) {
    svg.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') return onSelect(null);
      if (ev.key !== 'Enter' && ev.key !== ' ') return;
      const t = targetOf(ev.target);
      if (!t) return;
      ev.preventDefault();
      onSelect(t);
    });
  }
  let drag = null;
  svg.addEventListener('pointerdown', (ev) => {
    if (!view || ev.button !== 0) return;
    drag = { x: ev.clientX, y: ev.clientY, view, target: targetOf(ev.target) };
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
  // A press and release without moving is a click: it selects what was pressed, or nothing.
  svg.addEventListener('pointerup', (ev) => {
    if (onSelect && drag && Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 4) onSelect(drag.target);
    stop();
  });
  svg.addEventListener('pointercancel', stop);
  svg.addEventListener('dblclick', () => fitted && setView(fitted));

  return {
    svg,
    render(vm, { positions, routes }) {
      last = { vm, positions, routes };
      bounds = draw();
      if (bounds) fitTo(bounds);
      else svg.removeAttribute('viewBox');
    },
    setColorBy(mode) {
      colorBy = mode;
      if (last) draw();
    },
    repaint() {
      if (last) draw();
    },
    clear() {
      last = null;
      bounds = null;
      draw();
    },
    // Marks target; with reveal, pans so that it sits in the view's upper part (above an explanation box).
    select(target, { reveal = false } = {}) {
      selected = target ?? null;
      mark();
      const el = reveal && view && svg.querySelector('.selected');
      if (!el) return;
      const b = el.getBBox();
      const cx = b.x + b.width / 2;
      const cy = b.y + b.height / 2;
      const seen = cx > view.x && cx < view.x + view.w && cy > view.y && cy < view.y + view.h * 0.4;
      if (!seen) setView({ ...view, x: cx - view.w / 2, y: cy - view.h * 0.25 });
    },
    fit() {
      if (fitted) setView(fitted);
    },
  };
}
