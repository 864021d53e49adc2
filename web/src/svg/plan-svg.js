// plan-svg.js — a plan drawn as SVG elements: fusion groups as tinted clusters titled "kernel N · <pattern
// label>", ops as boxes (category colours, sources dashed, barriers filled, outputs double-bordered, a violet
// halo on an op the plan recomputes elsewhere, a collapsed group as one box in its kernel colour), fused edges
// thick in their kernel's colour, edges a barrier blocks orange with their short reason, other edges grey and
// dashed. Shared by the element's drawing (element/svg-graph-view.js) and the page's SVG export
// (svg/svg-export.js), so both draw the same picture as views/graph-view.js.
//
// Contract: drawPlan(vm, {positions, routes}, {colorBy, colors, pickable}) → {layers, extent, focus}. layers are
// the SVG elements to append in order (a <style>, then the clusters, edges, ops and edge tags); extent
// {x0, y0, x1, y1} is the box around everything drawn (null for an empty view model); focus the box of the
// largest kernel's cluster (null when no kernel fuses two ops), where a drawing too big for its view starts. vm is a view model (present/view-model.js
// or collapse.js's drawnViewModel), positions the node centres of layout.js, routes its edge routes (an edge
// without one is a straight line between the box borders). colorBy 'bytes' fills each op with its bytes-moved
// colour (node.heat); colors is theme/palette.js's set. Each op's <g class="op …"> carries data-op (its op
// index; a collapsed group's box, class "collapsed", has data-ops, its ops' indices), data-node (the drawn
// node's id) and data-kernel (its kernel), a <title> (name, kind and shape) and an aria-label; each cluster's
// <g class="cluster"> carries data-group and its title text; each edge's <g class="edge …"> data-edge,
// data-producer, data-consumer and an aria-label ("edge a → b: fused" | "… not fused (reason)"). pickable (the
// element's and the light embed's selectable drawing) adds an invisible wide "hit" path under each edge, so a
// thin line is easy to click, and the marks of the selected (class "selected") or keyboard-focused (class
// "pick") element in the theme's selection colour. Every text is inserted as text (never markup). Browser-only
// (document.createElementNS); shown by tests/browser/element.test.mjs and tests/browser/page-svg.test.mjs.

import { boxOf, nodeLines } from '../layout/layout-input.js';
import { shortReason, isBlocked } from '../present/reasons.js';
import { CLUSTER_TINT } from '../theme/palette.js';

export const NS = 'http://www.w3.org/2000/svg';
export const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
const FONT_SIZE = 11;
const CLUSTER_PAD = 10; // around a cluster's members, as graph-view.js's compound padding
const TITLE_ROOM = 18; // above a cluster, for its title

// An SVG element with attributes and children (strings become text).
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null && v !== false) el.setAttribute(k, String(v));
  for (const c of children) if (c != null) el.append(c);
  return el;
}

const styleOf = (c) => `
text { font-family: ${FONT}; font-size: ${FONT_SIZE}px; fill: ${c.ink}; text-anchor: middle; dominant-baseline: central; }
.op rect.box { fill: ${c.nodeFill}; stroke: ${c.nodeLine}; stroke-width: 1.5; }
.op.source rect.box { fill: ${c.sourceFill}; stroke-dasharray: 4 3; }
.op.source text { fill: ${c.sourceInk}; }
.op.barrier rect.box { fill: ${c.barrierFill}; stroke: ${c.barrierFill}; }
.op.barrier text { fill: ${c.barrierInk}; }
.op.unknown rect.box { fill: ${c.unknownFill}; stroke: ${c.unknownLine}; }
.op.collapsed text { font-weight: 600; }
.op rect.inner { fill: none; stroke-width: 1.5; }
.op rect.halo { fill: ${c.halo}; opacity: 0.32; }
.cluster rect { fill-opacity: ${CLUSTER_TINT}; stroke-width: 1.5; }
.cluster text { font-weight: 600; }
.edge path { fill: none; stroke: ${c.edge}; stroke-width: 1.6; stroke-dasharray: 5 4; }
.edge polygon { fill: ${c.edge}; }
.edge.fused path { stroke-width: 3; stroke-dasharray: none; }
.edge.blocked path { stroke: ${c.blocked}; stroke-width: 2.4; }
.edge.blocked polygon { fill: ${c.blocked}; }
.tag text { font-size: 10px; fill: ${c.tagInk}; }
.tag rect { fill: ${c.tagGround}; opacity: 0.9; }
`;

// The selectable drawing's marks: the selected (or keyboard-focused) op, cluster or edge drawn thicker, the
// op's border in the theme's selection colour (important: a kernel-coloured or output border is an inline style).
const pickStyleOf = (c) => `
.pick { cursor: pointer; outline: none; }
.edge path.hit { stroke: transparent; stroke-width: 12; stroke-dasharray: none; }
.op.selected rect.box, .op.pick:focus-visible rect.box { stroke: ${c.select} !important; stroke-width: 3.5 !important; }
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

function drawOp(n, b, colorBy, c) {
  const classes = [
    'op',
    n.category,
    n.output ? 'output' : '',
    n.copies?.length ? 'recomputed' : '',
    n.collapsed ? 'collapsed' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const stroke = n.color && (n.category === 'elementwise' || n.collapsed) ? n.color : null;
  // An output's border is double (two lines, as Cytoscape's 'double' style), solid even on a source.
  const outline =
    stroke ?? (n.category === 'barrier' ? c.barrierOutline : n.category === 'unknown' ? c.unknownLine : c.nodeLine);
  const heat = colorBy === 'bytes' && n.heat ? n.heat : null;
  const x = b.x - b.w / 2;
  const y = b.y - b.h / 2;
  const lines = nodeLines(n);
  const lineHeight = FONT_SIZE * 1.35;
  const fill = heat ? heat.color : n.collapsed ? n.color : null;
  return s(
    'g',
    {
      class: classes,
      'data-op': n.op,
      'data-ops': n.collapsed ? n.ops.join(' ') : null,
      'data-node': n.id,
      'data-kernel': n.group,
      'aria-label': `op ${n.label}: ${lines.slice(1).join(' · ')}`,
    },
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
      rx: n.category === 'barrier' && !n.collapsed ? 0 : 7,
      style: [
        stroke ? `stroke:${stroke};stroke-width:${n.collapsed ? 2.5 : 2}` : '',
        n.output ? `stroke:${outline};stroke-dasharray:none` : '',
        fill ? `fill:${fill}` : '',
        n.collapsed && !heat ? 'fill-opacity:0.2' : '',
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
          style: heat ? `fill:${heat.ink}` : n.collapsed ? `fill:${c.ink}` : null,
        },
        line,
      ),
    ),
  );
}

function drawEdge(e, from, to, route, c, pickable) {
  const blocked = !e.fused && isBlocked(e.reason);
  const inner = route?.length >= 2 ? route.slice(1, -1) : [];
  const start = border(from, inner[0] ?? to);
  const end = border(to, inner[inner.length - 1] ?? from);
  const points = [start, ...inner, end];
  const color = e.fused ? (e.color ?? c.kernel) : null;
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
      'aria-label': `edge ${e.label}: ${e.fused ? 'fused' : `not fused (${tag})`}`,
    },
    s('title', {}, tag),
    pickable ? s('path', { class: 'hit', d }) : null,
    s('path', { d, style: color ? `stroke:${color}` : null }),
    s('polygon', { points: arrow(points, arrowSize), style: color ? `fill:${color}` : null }),
  );
}

// The short reason on a blocked edge, at its middle, on the tag's ground.
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

const extentOf = (b) => ({ x0: b.x - b.w / 2, y0: b.y - b.h / 2, x1: b.x + b.w / 2, y1: b.y + b.h / 2 });

function drawCluster(g, r) {
  return s(
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
  );
}

export function drawPlan(vm, { positions, routes }, { colorBy = 'group', colors, pickable = false }) {
  const boxes = new Map();
  for (const n of vm.nodes) {
    const size = boxOf(n);
    const p = positions[n.id] ?? { x: 0, y: 0 };
    boxes.set(n.id, { x: p.x, y: p.y, w: size.width, h: size.height });
  }
  const clusters = s('g', { class: 'clusters' });
  const all = [];
  let focus = null; // the largest kernel's cluster, with its member count
  for (const g of vm.groups) {
    if (!g.multi) continue;
    const members = vm.nodes.filter((n) => n.parent === g.id);
    const b = union(members.map((n) => extentOf(boxes.get(n.id))));
    if (!b) continue;
    const r = { x0: b.x0 - CLUSTER_PAD, y0: b.y0 - CLUSTER_PAD, x1: b.x1 + CLUSTER_PAD, y1: b.y1 + CLUSTER_PAD };
    all.push({ ...r, y0: r.y0 - TITLE_ROOM });
    if (!focus || members.length > focus.members) focus = { ...r, members: members.length };
    clusters.append(drawCluster(g, r));
  }
  const edges = s('g', { class: 'edges' });
  const tags = s('g', { class: 'tags' });
  const names = new Map(vm.nodes.map((n) => [n.id, n.label]));
  for (const e of vm.edges) {
    const from = boxes.get(e.source);
    const to = boxes.get(e.target);
    if (!from || !to) continue;
    const label = `${names.get(e.source)} → ${names.get(e.target)}`;
    edges.append(drawEdge({ ...e, label }, from, to, routes?.[e.id], colors, pickable));
    if (!e.fused && isBlocked(e.reason) && !routes?.[e.id]) tags.append(drawTag(e, from, to));
  }
  const ops = s('g', { class: 'ops' });
  for (const n of vm.nodes) {
    ops.append(drawOp(n, boxes.get(n.id), colorBy, colors));
    all.push(extentOf(boxes.get(n.id)));
  }
  const style = styleOf(colors) + (pickable ? pickStyleOf(colors) : '');
  return { layers: [s('style', {}, style), clusters, edges, ops, tags], extent: union(all), focus };
}
