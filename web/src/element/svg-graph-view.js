// svg-graph-view.js — a read-only drawing of a small plan as SVG, for embeds: the <fusion-playground> element
// draws graphs of up to SVG_MAX_NODES boxes with it, so an embed of a small graph never downloads Cytoscape
// (views/graph-view.js, about 140 KiB gzipped). Same picture as views/graph-view.js: fusion groups as tinted
// clusters titled "kernel N · <pattern label>", ops as boxes (category colours, sources dashed, barriers dark,
// outputs double-bordered, a violet halo on an op the plan recomputes elsewhere), fused edges thick in their
// kernel's colour, edges a barrier blocks orange with their short reason, other edges grey and dashed.
//
// Contract: createSvgGraphView(container) → {render(vm, {positions, routes}), setColorBy(mode), clear()}.
// render draws a view model (view-model.js) at the node positions of layout.js (centres); an edge follows its
// route when it has one, otherwise a straight line between the box borders. The drawing is fitted into the
// container (viewBox, never enlarged past MAX_ZOOM, so it follows the container's size); the wheel zooms about
// the pointer, a drag pans, a double-click fits again. setColorBy('bytes') fills each op with its bytes-moved
// colour (node.heat), 'group' (default) shows categories and kernel colours. Every text is inserted as text.
// Each op's <g> carries data-op and a <title> (name, kind and shape); each cluster's, data-group.
// With onSelect (createSvgGraphView(container, {onSelect})) the ops, clusters and edges are focusable buttons:
// a click (not a drag) or Enter/Space on a focused one calls onSelect({kind:'op', id: op index} |
// {kind:'group', id} | {kind:'edge', id:{producer, consumer}}), a click on the background or Escape
// onSelect(null); select(target, {reveal}) marks the selected one (reveal: and pans to it). minZoom (default 0.05) is the smallest fit: an embed
// passes 1, so labels stay at their 11 px on screen and a wider drawing is panned instead of shrunk; such a
// drawing starts centred on its largest kernel. A container that changes size is fitted again.
// Browser-only; shown by tests/browser/element.test.mjs and tests/browser/page-budget.test.mjs.

import { boxOf, nodeLines } from '../layout/layout-input.js';
import { shortReason, isBlocked } from '../present/reasons.js';

export const SVG_MAX_NODES = 50; // drawn boxes; layout.js's LIGHT_MAX_NODES, past which ELK routes the edges
const NS = 'http://www.w3.org/2000/svg';
const MAX_ZOOM = 1.3; // as graph-view.js's fit: a small graph is not blown up past a readable size
const MARGIN = 30; // px around the fitted drawing
const CLUSTER_PAD = 10; // around a cluster's members, as graph-view.js's compound padding
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';

// The border colour of an output's double line, by category (graph-view.js's node.output styles).
const OUTLINE = { barrier: '#0d1117', unknown: '#c62828' };

// An SVG element with attributes and children (strings become text).
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null && v !== false) el.setAttribute(k, String(v));
  for (const c of children) if (c != null) el.append(c);
  return el;
}

const STYLE = `
text { font-family: ${FONT}; font-size: 11px; fill: #1f2328; text-anchor: middle; dominant-baseline: central; }
.op rect.box { fill: #fff; stroke: #8c959f; stroke-width: 1.5; }
.op.source rect.box { fill: #eef1f4; stroke-dasharray: 4 3; }
.op.source text { fill: #424a53; }
.op.barrier rect.box { fill: #3d4852; stroke: #3d4852; }
.op.barrier text { fill: #fff; }
.op.barrier.output rect.box { stroke: #0d1117; }
.op.unknown rect.box { fill: #fdecea; stroke: #c62828; }
.op rect.inner { fill: none; stroke-width: 1.5; }
.op rect.halo { fill: #8250df; opacity: 0.32; }
.cluster rect { fill-opacity: 0.13; stroke-width: 1.5; }
.cluster text { font-weight: 600; }
.edge path { fill: none; stroke: #9aa5b1; stroke-width: 1.6; stroke-dasharray: 5 4; }
.edge polygon { fill: #9aa5b1; }
.edge.fused path { stroke-width: 3; stroke-dasharray: none; }
.edge.blocked path { stroke: #d9480f; stroke-width: 2.4; }
.edge.blocked polygon { fill: #d9480f; }
.tag text { font-size: 10px; fill: #8a3300; }
.tag rect { fill: #fff; opacity: 0.9; }
svg.grabbing { cursor: grabbing; }
.pick { cursor: pointer; outline: none; }
.edge path.hit { stroke: transparent; stroke-width: 12; stroke-dasharray: none; }
.op.selected rect.box, .op.pick:focus-visible rect.box { stroke: var(--accent, #0b63c5); stroke-width: 3.5; }
.cluster.selected rect, .cluster.pick:focus-visible rect { stroke-width: 3.5; stroke-dasharray: 6 3; }
.edge.selected path:not(.hit), .edge.pick:focus-visible path:not(.hit) { stroke-width: 4.5; }
`;

// Where the segment from the centre of box b (x, y, w, h) towards point p leaves the box.
function border(b, p) {
  const dx = p.x - b.x;
  const dy = p.y - b.y;
  if (!dx && !dy) return { x: b.x, y: b.y };
  const t = Math.min(dx ? b.w / 2 / Math.abs(dx) : Infinity, dy ? b.h / 2 / Math.abs(dy) : Infinity, 1);
  return { x: b.x + dx * t, y: b.y + dy * t };
}

// An arrowhead (triangle) ending at the last point of a polyline.
function arrow(points, size) {
  const tip = points[points.length - 1];
  const from = points[points.length - 2];
  const len = Math.hypot(tip.x - from.x, tip.y - from.y) || 1;
  const ux = (tip.x - from.x) / len;
  const uy = (tip.y - from.y) / len;
  const bx = tip.x - ux * size;
  const by = tip.y - uy * size;
  const half = size * 0.55;
  return [tip, { x: bx - uy * half, y: by + ux * half }, { x: bx + uy * half, y: by - ux * half }]
    .map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`)
    .join(' ');
}

// The box around rectangles {x0, y0, x1, y1}, or null for none.
function union(boxes) {
  if (!boxes.length) return null;
  return boxes.reduce((a, b) => ({
    x0: Math.min(a.x0, b.x0),
    y0: Math.min(a.y0, b.y0),
    x1: Math.max(a.x1, b.x1),
    y1: Math.max(a.y1, b.y1),
  }));
}

function drawOp(n, b, colorBy) {
  const classes = ['op', n.category, n.output ? 'output' : '', n.copies?.length ? 'recomputed' : '']
    .filter(Boolean)
    .join(' ');
  const stroke = n.color && n.category === 'elementwise' ? n.color : null;
  // An output's border is double (two lines, as Cytoscape's 'double' style), solid even on a source.
  const outline = stroke ?? OUTLINE[n.category] ?? '#8c959f';
  const heat = colorBy === 'bytes' && n.heat ? n.heat : null;
  const x = b.x - b.w / 2;
  const y = b.y - b.h / 2;
  const lines = nodeLines(n);
  const lineHeight = 11 * 1.35;
  return s(
    'g',
    { class: classes, 'data-op': n.op, 'aria-label': `op ${n.label}: ${lines.slice(1).join(' · ')}` },
    s('title', {}, `${n.label}: ${lines.slice(1).join(' · ')}`),
    n.copies?.length
      ? s('rect', { class: 'halo', x: x - 5, y: y - 5, width: b.w + 10, height: b.h + 10, rx: 10 })
      : null,
    s('rect', {
      class: 'box',
      x,
      y,
      width: b.w,
      height: b.h,
      rx: n.category === 'barrier' ? 0 : 7,
      style: [
        stroke ? `stroke:${stroke};stroke-width:2` : '',
        n.output ? `stroke:${outline};stroke-dasharray:none` : '',
        heat ? `fill:${heat.color}` : '',
      ].join(';'),
    }),
    n.output
      ? s('rect', {
          class: 'inner',
          x: x + 3.5,
          y: y + 3.5,
          width: b.w - 7,
          height: b.h - 7,
          rx: n.category === 'barrier' ? 0 : 4,
          style: `stroke:${outline}`,
        })
      : null,
    ...lines.map((line, k) =>
      s(
        'text',
        {
          x: b.x,
          y: b.y + (k - (lines.length - 1) / 2) * lineHeight,
          style: heat ? `fill:${heat.ink}` : null,
        },
        line,
      ),
    ),
  );
}

function drawEdge(e, from, to, route) {
  const blocked = !e.fused && isBlocked(e.reason);
  const inner = route?.length >= 2 ? route.slice(1, -1) : [];
  const start = border(from, inner[0] ?? to);
  const end = border(to, inner[inner.length - 1] ?? from);
  const points = [start, ...inner, end];
  const color = e.fused ? (e.color ?? '#4e79a7') : null;
  const arrowSize = e.fused ? 9 : 8;
  // The line stops where the arrowhead begins, so a thick line does not show past its tip.
  const last = points[points.length - 1];
  const prev = points[points.length - 2];
  const len = Math.hypot(last.x - prev.x, last.y - prev.y) || 1;
  const cut = Math.min(arrowSize * 0.8, len / 2);
  const linePoints = [
    ...points.slice(0, -1),
    { x: last.x - ((last.x - prev.x) / len) * cut, y: last.y - ((last.y - prev.y) / len) * cut },
  ];
  const d = linePoints.map((p, k) => `${k ? 'L' : 'M'}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join('');
  const tag = e.fused ? 'fused' : shortReason(e.reason);
  return s(
    'g',
    {
      class: `edge ${e.fused ? 'fused' : blocked ? 'blocked' : 'unfused'}`,
      'data-edge': e.id,
      'data-producer': e.producer,
      'data-consumer': e.consumer,
      'aria-label': `edge ${e.label ?? e.id}: ${e.fused ? 'fused' : `not fused (${tag})`}`,
    },
    s('title', {}, tag),
    s('path', { class: 'hit', d }),
    s('path', { d, style: color ? `stroke:${color}` : null }),
    s('polygon', { points: arrow(points, arrowSize), style: color ? `fill:${color}` : null }),
  );
}

// The short reason on a blocked edge, at its middle, on a white ground.
function drawTag(e, from, to) {
  const text = shortReason(e.reason);
  const x = (from.x + to.x) / 2;
  const y = (from.y + to.y) / 2;
  let angle = (Math.atan2(to.y - from.y, to.x - from.x) * 180) / Math.PI;
  if (angle > 90) angle -= 180;
  if (angle < -90) angle += 180;
  const w = text.length * 5.6 + 4;
  return s(
    'g',
    { class: 'tag', transform: `translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${angle.toFixed(1)})` },
    s('rect', { x: -w / 2, y: -8, width: w, height: 16, rx: 2 }),
    s('text', {}, text),
  );
}

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

  const draw = () => {
    svg.replaceChildren();
    focus = null;
    if (!last) return;
    const { vm, positions, routes } = last;
    const boxes = new Map();
    for (const n of vm.nodes) {
      const size = boxOf(n);
      const p = positions[n.id] ?? { x: 0, y: 0 };
      boxes.set(n.id, { x: p.x, y: p.y, w: size.width, h: size.height });
    }
    const extent = (b) => ({ x0: b.x - b.w / 2, y0: b.y - b.h / 2, x1: b.x + b.w / 2, y1: b.y + b.h / 2 });
    const clusters = s('g', {});
    const all = [];
    for (const g of vm.groups) {
      if (!g.multi) continue;
      const b = union(vm.nodes.filter((n) => n.parent === g.id).map((n) => extent(boxes.get(n.id))));
      if (!b) continue;
      const r = { x0: b.x0 - CLUSTER_PAD, y0: b.y0 - CLUSTER_PAD, x1: b.x1 + CLUSTER_PAD, y1: b.y1 + CLUSTER_PAD };
      all.push({ ...r, y0: r.y0 - 18 });
      const members = vm.nodes.filter((n) => n.parent === g.id).length;
      if (!focus || members > focus.members) focus = { ...r, members };
      clusters.append(
        s(
          'g',
          { class: 'cluster', 'data-group': g.group },
          s('title', {}, g.rule || `kernel ${g.group}`),
          s('rect', {
            x: r.x0,
            y: r.y0,
            width: r.x1 - r.x0,
            height: r.y1 - r.y0,
            rx: 8,
            style: `fill:${g.color};stroke:${g.color}`,
          }),
          s('text', { x: (r.x0 + r.x1) / 2, y: r.y0 - 9 }, `kernel ${g.group}${g.label ? ` · ${g.label}` : ''}`),
        ),
      );
    }
    const edges = s('g', {});
    const names = new Map(vm.nodes.map((n) => [n.id, n.label]));
    const tags = s('g', {});
    for (const e of vm.edges) {
      const from = boxes.get(e.source);
      const to = boxes.get(e.target);
      if (!from || !to) continue;
      const label = `${names.get(e.source)} → ${names.get(e.target)}`;
      edges.append(drawEdge({ ...e, label }, from, to, routes?.[e.id]));
      if (!e.fused && isBlocked(e.reason) && !routes?.[e.id]) tags.append(drawTag(e, from, to));
    }
    const ops = s('g', {});
    for (const n of vm.nodes) {
      ops.append(drawOp(n, boxes.get(n.id), colorBy));
      all.push(extent(boxes.get(n.id)));
    }
    svg.append(s('style', {}, STYLE), clusters, edges, ops, tags);
    if (onSelect)
      for (const g of svg.querySelectorAll('[data-op], [data-edge], [data-group]')) {
        g.classList.add('pick');
        g.setAttribute('tabindex', '0');
        g.setAttribute('role', 'button');
        if (!g.getAttribute('aria-label')) g.setAttribute('aria-label', g.querySelector('title').textContent);
      }
    mark();
    return union(all);
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
  // The selection's mark on the drawing (class "selected" on its element).
  const mark = () => {
    for (const el of svg.querySelectorAll('.selected')) el.classList.remove('selected');
    for (const el of svg.querySelectorAll('.pick'))
      if (sameTarget(targetOf(el), selected)) el.classList.add('selected');
  };
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
