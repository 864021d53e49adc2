// graph-view.js — the op graph on screen (Cytoscape.js): clusters per fusion group, edit gestures.
//
// Contract: createGraphView(container, handlers) → {render, setSelection, setMatches, setConnectMode,
// setEditable, setColorBy, fit, refreshTheme, center, centerGroup, png, drawnState, screenPosition}. handlers
// may carry minZoom (default 0.05): an embed passes READABLE_ZOOM, so every label stays ≥ 11 px on screen, and
// a graph too big for its box at that zoom is panned, starting on its largest kernel. Colours are the theme's
// (theme/palette.js, as themeOf(container) says when created and at refreshTheme()). A collapsed group (collapse.js) is
// one box; selecting, finding, centring or locating an op inside it uses that box (vm.nodeOf), and an edge
// merged into a collapsed group's edge selects that one. Clicking a collapsed box calls onSelect(group) and
// onToggleGroup(k); double-clicking an open cluster calls onToggleGroup(k). Above LITE_ABOVE drawn nodes
// labels hide when zoomed far out and edges are plain straight lines. setColorBy('bytes') fills each op with
// its bytes-moved colour from the view model (node.heat); 'group' (default) shows categories and kernel
// colours. render(vm, {positions, routes}, {fit}) → Promise<drawn> draws a view model (view-model.js; a big
// one CHUNK elements per frame) with the node positions and edge routes from layout.js; it reads nothing
// else. update(vm) redraws a view model of the same drawing as the last one rendered (the same node, cluster
// and edge ids) in place — texts, box sizes, colours, classes; positions, routes and the viewport stay — and
// returns false, changing nothing, when the drawing differs (a size slider re-plans without a new layout); only
// elements whose data or classes differ are touched, since Cytoscape restyles every element it is handed and
// then redraws the whole graph. A collapsed box's text (its kernel's bytes, which change with the sizes) is
// drawn by box-labels.js on a layer over the graph, so a new size redraws a few texts and leaves Cytoscape's
// drawing alone; update draws them before it returns (boxText(id) → the lines on box id), and png() hands them
// to Cytoscape for the picture. The bytes colours are brought up to date while they are shown (setColorBy). A
// cluster is titled "kernel N · <pattern label>" (short: the rule that formed it rides in its data as `rule`, for
// hover); an op the plan also recomputes in another kernel has a violet halo. Gestures only call
// handlers — onSelect(target|null), onConnect(producer, consumer), onHoverEdge(edge data|null),
// onHoverGroup(group id|null) for a cluster's frame or a collapsed box — the view never changes the graph or
// the state itself (state → view). targetOf(element) → the selection target a drawn element stands for
// (keyboard/graph-keys.js chooses one by keyboard).
// Browser-only; shown by tests/browser/page-strategies.test.mjs (cluster titles, the recomputed halo),
// tests/browser/page-large.test.mjs (collapsed groups), tests/browser/page-heat.test.mjs (colour by bytes) and
// tests/browser/page-edit.test.mjs (gestures).

import cytoscape from 'cytoscape';
import { boxOf, nodeLines, edgeShape } from '../layout/layout-input.js';
import { shortReason, isBlocked } from '../present/reasons.js';
import { createBoxLabels } from './box-labels.js';
import { GRAPH_COLORS, graphColors } from '../theme/palette.js';
import { onThemeChange, themeOf } from '../theme/theme.js';

// The edge-drawing extension (the Connect tool) is registered with its first use, so a page that only shows
// plans never downloads it (its own chunk, about 6 KiB gzipped). Resolves to whether it is there; a failed
// download is tried again on the next use.
let edgeDrawing = null;
const loadEdgeDrawing = () =>
  (edgeDrawing ??= import('cytoscape-edgehandles').then(
    ({ default: edgehandles }) => {
      cytoscape.use(edgehandles);
      return true;
    },
    () => {
      edgeDrawing = null;
      return false;
    },
  ));

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
const FONT_SIZE = 11;
const LINE_HEIGHT = 1.35;
const EDGE_FONT = 10; // an edge's tag (why it was not fused), the smallest label
// The smallest zoom at which every label is ≥ 11 px on screen: an embed's minZoom, panning instead of shrinking.
export const READABLE_ZOOM = 11 / EDGE_FONT;
const LITE_FONT = 7; // a big graph's labels are not drawn below this size on screen (zoomed far out)

// The Cytoscape style in theme/palette.js's colours c (light or dark).
const styleFor = (c) => [
  { selector: 'node[w]', style: { width: 'data(w)', height: 'data(h)' } },
  {
    selector: 'node',
    style: {
      shape: 'round-rectangle',
      'background-color': c.nodeFill,
      'border-width': 1.5,
      'border-color': c.nodeLine,
      label: 'data(text)',
      'text-wrap': 'wrap',
      'text-valign': 'center',
      'text-halign': 'center',
      'font-family': FONT,
      'font-size': FONT_SIZE,
      color: c.ink,
      'line-height': LINE_HEIGHT,
    },
  },
  { selector: 'node[color]', style: { 'border-color': 'data(color)', 'border-width': 2 } },
  {
    selector: 'node.source',
    style: {
      'background-color': c.sourceFill,
      'border-style': 'dashed',
      'border-color': c.nodeLine,
      'border-width': 1.5,
      color: c.sourceInk,
    },
  },
  {
    selector: 'node.barrier',
    style: {
      'background-color': c.barrierFill,
      'border-color': c.barrierFill,
      color: c.barrierInk,
      shape: 'rectangle',
    },
  },
  { selector: 'node.unknown', style: { 'background-color': c.unknownFill, 'border-color': c.unknownLine } },
  { selector: 'node.output', style: { 'border-style': 'double', 'border-width': 5 } },
  { selector: 'node.barrier.output', style: { 'border-color': c.barrierOutline } },
  {
    selector: 'node.recomputed',
    style: {
      'underlay-color': c.halo,
      'underlay-opacity': 0.32,
      'underlay-padding': 5,
      'underlay-shape': 'round-rectangle',
    },
  },
  { selector: 'node.heat[heat]', style: { 'background-color': 'data(heat)', color: 'data(heatInk)' } },
  {
    selector: 'node.group',
    style: {
      shape: 'round-rectangle',
      'background-color': 'data(color)',
      'background-opacity': 0.13,
      'border-color': 'data(color)',
      'border-width': 1.5,
      'border-style': 'solid',
      label: 'data(text)',
      'text-valign': 'top',
      'text-halign': 'center',
      'text-margin-y': -3,
      'font-size': 11,
      'font-weight': 600,
      color: c.ink,
      'text-wrap': 'none',
      padding: 10,
    },
  },
  {
    selector: 'edge',
    style: {
      width: 1.6,
      'line-color': c.edge,
      'target-arrow-color': c.edge,
      'target-arrow-shape': 'triangle',
      'curve-style': 'bezier',
      'arrow-scale': 0.9,
      'line-style': 'dashed',
      'line-dash-pattern': [5, 4],
    },
  },
  {
    selector: 'edge[se]',
    style: { 'curve-style': 'straight', 'source-endpoint': 'data(se)', 'target-endpoint': 'data(te)' },
  },
  {
    selector: 'edge[sw]',
    style: {
      'curve-style': 'round-segments',
      'segment-radius': 8,
      'segment-weights': 'data(sw)',
      'segment-distances': 'data(sd)',
      'edge-distances': 'node-position',
    },
  },
  {
    selector: 'edge.fused',
    style: { width: 3, 'line-style': 'solid', 'line-color': 'data(color)', 'target-arrow-color': 'data(color)' },
  },
  {
    selector: 'edge.blocked',
    style: {
      width: 2.4,
      'line-color': c.blocked,
      'target-arrow-color': c.blocked,
      label: 'data(tag)',
      'font-size': EDGE_FONT,
      'font-family': FONT,
      color: c.tagInk,
      'text-background-color': c.tagGround,
      'text-background-opacity': 0.9,
      'text-background-padding': 2,
      'text-rotation': 'autorotate',
    },
  },
  {
    selector: 'edge.hover',
    style: {
      label: 'data(tag)',
      'font-size': EDGE_FONT,
      'font-family': FONT,
      color: c.ink,
      'text-background-color': c.tagGround,
      'text-background-opacity': 0.9,
      'text-background-padding': 2,
    },
  },
  { selector: '.selected', style: { 'overlay-color': c.select, 'overlay-opacity': 0.18, 'overlay-padding': 5 } },
  { selector: 'node.group.selected', style: { 'border-width': 3, 'background-opacity': 0.24, 'overlay-opacity': 0 } },
  { selector: 'edge.selected', style: { width: 4, 'overlay-opacity': 0.12 } },
  { selector: '.match', style: { 'underlay-color': c.match, 'underlay-opacity': 0.55, 'underlay-padding': 6 } },
  { selector: '.faded', style: { opacity: 0.35 } },
  {
    selector: '.eh-handle',
    style: {
      'background-color': c.select,
      width: 12,
      height: 12,
      shape: 'ellipse',
      'overlay-opacity': 0,
      'border-width': 0,
      label: '',
    },
  },
  {
    selector: '.eh-ghost-edge, .eh-preview',
    style: { 'line-color': c.select, 'target-arrow-color': c.select, 'line-style': 'solid', width: 2.5 },
  },
  { selector: '.eh-source, .eh-target', style: { 'overlay-color': c.select, 'overlay-opacity': 0.2 } },
  // A collapsed fusion group (collapse.js): one box in its kernel colour; a click opens it.
  {
    selector: 'node.collapsed',
    style: {
      'background-color': 'data(color)',
      'background-opacity': 0.2,
      'border-color': 'data(color)',
      'border-width': 2.5,
      'border-style': 'solid',
      'font-weight': 600,
      'text-wrap': 'wrap',
    },
  },
  { selector: 'node.collapsed.selected', style: { 'border-width': 4, 'background-opacity': 0.32 } },
  // A collapsed box's text is drawn by box-labels.js over the graph (its bytes change as a size slider moves);
  // Cytoscape draws it only into an exported picture (class print, set for the moment of png()).
  { selector: 'node.collapsed', style: { label: '' } },
  { selector: 'node.collapsed.print', style: { label: 'data(text)' } },
  // Big graphs: no labels when zoomed far out, plain straight edges (much cheaper to draw).
  { selector: 'node.lite', style: { 'min-zoomed-font-size': LITE_FONT } },
  {
    selector: 'edge.lite',
    style: { 'curve-style': 'straight', 'line-style': 'solid', 'arrow-scale': 0.7, 'min-zoomed-font-size': LITE_FONT },
  },
  { selector: 'edge.lite.unfused', style: { 'line-color': c.edgeLite, 'target-arrow-color': c.edgeLite } },
];
export const LITE_ABOVE = 600; // drawn nodes
export const CHUNK = 3000; // elements added per frame when drawing a big graph

// Cytoscape elements for a view model placed at positions, edges along their routes.
function toElements(vm, { positions, routes }) {
  const els = [];
  const lite = vm.nodes.length > LITE_ABOVE ? ' lite' : '';
  for (const g of vm.groups) {
    if (g.multi)
      els.push({
        group: 'nodes',
        data: {
          id: g.id,
          text: `kernel ${g.group}${g.label ? ` · ${g.label}` : ''}`,
          color: g.color,
          kind: 'group',
          group: g.group,
          label: g.label ?? '',
          rule: g.rule ?? '',
        },
        classes: 'group',
      });
  }
  for (const n of vm.nodes) {
    const size = boxOf(n);
    const data = { id: n.id, op: n.op, text: nodeLines(n).join('\n'), w: size.width, h: size.height, group: n.group };
    if (n.parent) data.parent = n.parent;
    if (n.color && (n.category === 'elementwise' || n.collapsed)) data.color = n.color;
    if (n.heat) Object.assign(data, { heat: n.heat.color, heatInk: n.heat.ink });
    if (n.collapsed) data.rule = n.rule ?? '';
    els.push({
      group: 'nodes',
      data,
      position: positions[n.id] ?? { x: 0, y: 0 },
      classes:
        [
          n.category,
          n.output ? 'output' : '',
          n.copies?.length ? 'recomputed' : '',
          n.collapsed ? 'collapsed' : '',
        ].join(' ') + lite,
    });
  }
  for (const e of vm.edges) {
    const blocked = !e.fused && isBlocked(e.reason);
    const route = routes[e.id];
    const shape =
      route?.length >= 2 && positions[e.source] && positions[e.target]
        ? edgeShape(route, positions[e.source], positions[e.target])
        : null;
    els.push({
      group: 'edges',
      data: {
        id: e.id,
        source: e.source,
        target: e.target,
        producer: e.producer,
        consumer: e.consumer,
        color: e.color ?? GRAPH_COLORS.light.kernel,
        tag: e.fused ? 'fused' : shortReason(e.reason),
        ...(shape ? { se: shape.sourceEndpoint, te: shape.targetEndpoint } : {}),
        ...(shape?.weights.length ? { sw: shape.weights, sd: shape.distances } : {}),
      },
      classes: (e.fused ? 'fused' : blocked ? 'blocked' : 'unfused') + lite,
    });
  }
  return els;
}

// The box around node boxes [{x, y, w, h, child}] (a cluster member adds room for its cluster's padding and
// title), or null for none.
function around(boxes) {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const { x, y, w = 60, h = 40, child } of boxes) {
    const pad = child ? 24 : 0;
    x0 = Math.min(x0, x - w / 2 - pad);
    x1 = Math.max(x1, x + w / 2 + pad);
    y0 = Math.min(y0, y - h / 2 - 2 * pad);
    y1 = Math.max(y1, y + h / 2 + pad);
  }
  return Number.isFinite(x0) ? { x0, y0, x1, y1 } : null;
}

// The box around the members of the cluster with the most of them (the largest kernel), or null.
function largestKernel(boxes) {
  const by = new Map();
  for (const b of boxes) if (b.parent) by.set(b.parent, [...(by.get(b.parent) ?? []), b]);
  return around([...by.values()].reduce((a, b) => (b.length > a.length ? b : a), []));
}

// Zoom and pan so the boxes fill the view with a margin, at most 1.3x; one wider or taller than the view at
// the smallest zoom (a minZoom that keeps labels readable) starts on its largest kernel, kept inside it.
function fitBox(cy, boxes, margin = 30) {
  const box = around(boxes);
  if (!box) return;
  const [W, H] = [cy.width(), cy.height()];
  const zoom = Math.max(
    cy.minZoom(),
    Math.min(1.3, (W - 2 * margin) / (box.x1 - box.x0), (H - 2 * margin) / (box.y1 - box.y0)),
  );
  const m = margin / zoom;
  const f = largestKernel(boxes) ?? box;
  // The view's left (top) edge on one axis, in graph coordinates.
  const start = (lo, hi, size, flo, fhi) =>
    size < hi - lo + 2 * m
      ? Math.min(Math.max((flo + fhi) / 2 - size / 2, lo - m), hi + m - size)
      : (lo + hi) / 2 - size / 2;
  const x = start(box.x0, box.x1, W / zoom, f.x0, f.x1);
  const y = start(box.y0, box.y1, H / zoom, f.y0, f.y1);
  cy.viewport({ zoom, pan: { x: -zoom * x, y: -zoom * y } });
}

// The selection target a drawn element stands for (an op, a kernel: its cluster or collapsed box, an edge).
export function targetOf(t) {
  if (t.hasClass('collapsed') || t.hasClass('group')) return { kind: 'group', id: t.data('group') };
  if (t.isEdge()) return { kind: 'edge', id: { producer: t.data('producer'), consumer: t.data('consumer') } };
  return t.data('op') !== undefined ? { kind: 'op', id: t.data('op') } : null;
}

// The data an update may change, and the marks of the moment (selection, Find) an update keeps.
// A collapsed box's text is box-labels.js's, and the bytes colours (heat) are brought up to date only while
// they are shown (setColorBy): any data set on an element restyles it and redraws the whole graph.
const UPDATED = ['text', 'w', 'h', 'color', 'heat', 'heatInk', 'tag', 'rule', 'label'];
const HEAT = ['heat', 'heatInk'];
const keysFor = (box, heat) => UPDATED.filter((k) => !(box && k === 'text') && (heat || !HEAT.includes(k)));
const KEYS = [keysFor(false, false), keysFor(false, true), keysFor(true, false), keysFor(true, true)];
const updatedKeys = (box, heat) => KEYS[2 * box + heat];
const isBox = (el) => el.group === 'nodes' && / collapsed( |$)/.test(el.classes);
const KEPT = ['selected', 'match', 'hover'];

// Whether a new element differs from the one drawn with its id in what an update sets (keys, classes).
const differs = (was, el, keys) => was.classes !== el.classes || keys.some((k) => was.data[k] !== el.data[k]);

// One drawn element brought up to a new element of the same id (toElements), in place; only what differs is
// set, so Cytoscape restyles just those elements.
function refresh(e, el, keys = UPDATED) {
  const data = {};
  const gone = [];
  for (const k of keys) {
    const now = e.data(k);
    if (el.data[k] === undefined) {
      if (now !== undefined) gone.push(k);
    } else if (now !== el.data[k]) data[k] = el.data[k];
  }
  if (Object.keys(data).length) e.data(data);
  if (gone.length) e.removeData(gone.join(' '));
  const classes = [...el.classes.split(' ').filter(Boolean), ...KEPT.filter((c) => e.hasClass(c))];
  const drawn = e.classes().filter((c) => c !== 'heat');
  if (classes.length !== drawn.length || classes.some((c) => !e.hasClass(c))) e.classes(classes.join(' '));
}

// Resolves after the next frame has been drawn.
const nextFrame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));

export function createGraphView(
  container,
  { onSelect, onConnect, onHoverEdge, onHoverGroup, onToggleGroup, minZoom = 0.05 },
) {
  let colors = graphColors(themeOf(container)); // the theme's colours (theme/palette.js)
  const cy = cytoscape({
    container,
    style: styleFor(colors),
    minZoom,
    maxZoom: 3,
    boxSelectionEnabled: false,
    autounselectify: true,
  });
  // The Connect tool's edge drawing: created on the first setConnectMode(true); drawing follows the last wish.
  let eh = null;
  let drawWanted = false;
  const applyDrawMode = () => {
    if (drawWanted && editable) eh?.enableDrawMode();
    else eh?.disableDrawMode();
  };
  const setDrawMode = (on) => {
    drawWanted = on;
    if (eh || !on) return applyDrawMode();
    loadEdgeDrawing().then((loaded) => {
      if (!loaded) return;
      eh ??= cy.edgehandles({
        canConnect: (s, t) => !s.same(t) && !s.isParent() && !t.isParent(),
        snap: true,
        hoverDelay: 100,
        noEdgeEventsInDraw: true,
        disableBrowserGestures: true,
      });
      applyDrawMode();
    });
  };
  let editable = true;
  let colorBy = 'group';
  let renderSeq = 0;
  let lite = false;
  let shownVm = null; // the view model on screen
  // The elements (toElements) as last set on Cytoscape, by id, and whether all of them have been added.
  let drawn = { els: new Map(), all: false };
  // The bytes colours of the view model on screen, set on the nodes whose colours are not those (update leaves
  // them while the graph is coloured by kernel).
  const syncHeat = () => {
    for (const n of shownVm?.nodes ?? []) {
      const e = cy.$id(n.id);
      if (e.empty()) continue;
      if (n.heat && e.data('heat') !== n.heat.color) e.data({ heat: n.heat.color, heatInk: n.heat.ink });
      else if (!n.heat && e.data('heat') !== undefined) e.removeData('heat heatInk');
    }
  };
  const boxLabels = createBoxLabels(cy, container, {
    font: FONT,
    size: FONT_SIZE,
    weight: 600,
    color: () => colors.ink,
    lineHeight: LINE_HEIGHT,
    minZoomedSize: () => (lite ? LITE_FONT : 0),
  });
  // Where op i is drawn (its own node, or its collapsed group's), and the drawn edge for a pair of nodes.
  let nodeOf = null;
  let edgeOf = new Map();
  const drawnOf = (op) => cy.$id(nodeOf?.[op] ?? `op${op}`);
  const drawnEdge = (p, c) => {
    const e = cy.$id(`e${p}-${c}`);
    return e.nonempty() ? e : cy.$id(edgeOf.get(`${nodeOf?.[p]}>${nodeOf?.[c]}`) ?? '');
  };
  // Only nodes whose colouring is wrong are touched: toggling a class restyles a node even when it has it.
  const applyColors = () =>
    (colorBy === 'bytes' ? cy.nodes('[heat]').not('.heat') : cy.nodes('.heat')).toggleClass(
      'heat',
      colorBy === 'bytes',
    );
  // Fit the graph, but never blow a small graph up past a readable size. The box is computed from node
  // positions and sizes: Cytoscape's own fit measures every label first, which takes seconds on big graphs.
  const fitView = () =>
    fitBox(
      cy,
      cy
        .nodes()
        .filter((n) => !n.isParent())
        .map((n) => ({
          ...n.position(),
          w: n.data('w'),
          h: n.data('h'),
          child: n.isChild(),
          parent: n.data('parent'),
        })),
    );

  // Repaints in the theme now in force where the graph is drawn (theme/theme.js's themeOf); the page's theme
  // switch (applyTheme on the document's root) calls it.
  const refreshTheme = () => {
    const now = graphColors(themeOf(container));
    if (now === colors) return;
    colors = now;
    cy.style(styleFor(colors));
    boxLabels.restyle();
  };
  onThemeChange(document.documentElement, refreshTheme);

  cy.on('ehcomplete', (evt, source, target, added) => {
    added.remove();
    onConnect(source.data('op'), target.data('op'));
  });
  cy.on('tap', (evt) => {
    const t = evt.target;
    if (t === cy) return onSelect(null);
    const target = targetOf(t);
    if (target) onSelect(target);
    if (t.hasClass('collapsed')) onToggleGroup?.(t.data('group'));
  });
  cy.on('dbltap', 'node.group', (evt) => onToggleGroup?.(evt.target.data('group')));
  cy.on('mouseover', 'edge', (evt) => {
    evt.target.addClass('hover');
    onHoverEdge?.(evt.target.data(), evt.renderedPosition);
  });
  cy.on('mouseout', 'edge', (evt) => {
    evt.target.removeClass('hover');
    onHoverEdge?.(null);
  });
  // A cluster's own frame (not an op inside it) or a collapsed box: its kernel.
  cy.on('mouseover', 'node.group, node.collapsed', (evt) => onHoverGroup?.(evt.target.data('group')));
  cy.on('mouseout', 'node.group, node.collapsed', () => onHoverGroup?.(null));

  return {
    cy,
    // Draws a view model; a big one is added CHUNK elements per frame, spreading the styling of new elements.
    // Resolves to true once everything is drawn (false when a newer render took over).
    async render(vm, positions, { fit = true } = {}) {
      const seq = ++renderSeq;
      const els = toElements(vm, positions);
      // Big graphs pan and zoom as one picture, edges hidden while moving (Cytoscape's init options, set
      // per graph on its renderer).
      const renderer = cy.renderer();
      renderer.textureOnViewport = renderer.hideEdgesOnViewport = vm.nodes.length > LITE_ABOVE;
      nodeOf = vm.nodeOf ?? null;
      edgeOf = new Map(vm.edges.map((e) => [`${e.source}>${e.target}`, e.id]));
      lite = vm.nodes.length > LITE_ABOVE;
      shownVm = vm;
      boxLabels.clear();
      for (const el of els) if (isBox(el)) boxLabels.set(el.data.id, el.data.text.split('\n'));
      drawn = { els: new Map(els.map((el) => [el.data.id, el])), all: false };
      cy.batch(() => {
        cy.elements().remove();
        cy.add(els.slice(0, CHUNK));
        applyColors();
      });
      if (fit) {
        fitBox(
          cy,
          els
            .filter((e) => e.position && e.group === 'nodes' && !e.classes.startsWith('group'))
            .map((e) => ({ ...e.position, w: e.data.w, h: e.data.h, child: !!e.data.parent, parent: e.data.parent })),
        );
      }
      for (let k = CHUNK; k < els.length; k += CHUNK) {
        await nextFrame();
        if (seq !== renderSeq) return false;
        cy.batch(() => {
          cy.add(els.slice(k, k + CHUNK));
          applyColors();
        });
      }
      drawn.all = true;
      return true;
    },
    update(vm) {
      const els = toElements(vm, { positions: {}, routes: {} });
      if (!drawn.all || els.length !== drawn.els.size || els.some((el) => !drawn.els.has(el.data.id))) return false;
      nodeOf = vm.nodeOf ?? null;
      shownVm = vm;
      const heat = colorBy === 'bytes';
      cy.batch(() => {
        for (const el of els) {
          const box = isBox(el);
          const keys = updatedKeys(box, heat);
          if (box && el.data.text !== drawn.els.get(el.data.id).data.text)
            boxLabels.set(el.data.id, el.data.text.split('\n'));
          if (differs(drawn.els.get(el.data.id), el, keys)) refresh(cy.$id(el.data.id), el, keys);
          drawn.els.set(el.data.id, el);
        }
        if (heat) applyColors(); // a refreshed node's classes lose 'heat'
      });
      boxLabels.flush(); // the boxes' texts reach the screen in the frame the numbers beside the graph do
      return true;
    },
    // The lines of text drawn on collapsed box id (box-labels.js), or null (for tests).
    boxText: (id) => boxLabels.lines(id),
    setSelection(sel) {
      cy.elements('.selected').removeClass('selected'); // only those marked: touching every element restyles them all
      if (!sel) return;
      if (sel.kind === 'op') drawnOf(sel.id).addClass('selected');
      else if (sel.kind === 'group') {
        const g = cy.$id(`g${sel.id}`);
        (g.nonempty() ? g : cy.nodes().filter((n) => n.data('group') === sel.id && !n.hasClass('group'))).addClass(
          'selected',
        );
      } else if (sel.kind === 'edge') drawnEdge(sel.id.producer, sel.id.consumer).addClass('selected');
    },
    setMatches(ops) {
      cy.elements('.match').removeClass('match');
      for (const i of ops) drawnOf(i).addClass('match');
    },
    setConnectMode(on) {
      setDrawMode(on);
    },
    setEditable(on) {
      editable = on;
      applyDrawMode();
    },
    setColorBy(mode) {
      colorBy = mode;
      cy.batch(() => {
        if (mode === 'bytes') syncHeat();
        applyColors();
      });
    },
    fit: fitView,
    refreshTheme,
    center(op) {
      const n = drawnOf(op);
      if (n.nonempty()) cy.animate({ center: { eles: n }, zoom: Math.max(cy.zoom(), 0.9) }, { duration: 250 });
    },
    centerGroup(group) {
      const g = cy.$id(`g${group}`);
      const n = g.nonempty() ? g : cy.nodes().filter((x) => x.data('group') === group);
      if (n.nonempty()) cy.animate({ center: { eles: n }, zoom: Math.max(cy.zoom(), 0.7) }, { duration: 250 });
    },
    // The whole graph as a PNG; the collapsed boxes' texts (drawn over the graph on screen) are Cytoscape's here.
    png() {
      const boxes = cy.nodes('.collapsed');
      cy.batch(() => {
        boxes.forEach((b) => {
          b.data('text', (boxLabels.lines(b.id()) ?? []).join('\n'));
        });
        boxes.addClass('print');
      });
      boxes.boundingBox({ useCache: false }); // measures the labels now: png() draws from those measures
      const blob = cy.png({ full: true, scale: 2, bg: colors.ground, output: 'blob' });
      boxes.removeClass('print');
      boxes.boundingBox({ useCache: false });
      return blob;
    },
    // What an export redraws (svg/svg-export.js): each drawn op box's centre by node id (as dragged), the part
    // of the graph in view {x0, y0, x1, y1} (graph coordinates) and the colouring.
    drawnState() {
      const positions = {};
      cy.nodes()
        .filter((n) => !n.isParent())
        .forEach((n) => {
          positions[n.id()] = { ...n.position() };
        });
      const e = cy.extent();
      return { positions, viewport: { x0: e.x1, y0: e.y1, x1: e.x2, y1: e.y2 }, colorBy };
    },
    // Where op i is drawn, in page coordinates (for pointer-driven tests and tooltips).
    screenPosition(op) {
      const n = drawnOf(op);
      if (n.empty()) return null;
      const r = container.getBoundingClientRect();
      const p = n.renderedPosition();
      return { x: r.left + p.x, y: r.top + p.y };
    },
  };
}
