// graph-view.js — the op graph on screen (Cytoscape.js): clusters per fusion group, edit gestures.
//
// Contract: createGraphView(container, handlers) → {render, setSelection, setMatches, setConnectMode,
// setEditable, setColorBy, fit, center, png, screenPosition}. setColorBy('bytes') fills each op with its
// bytes-moved colour from the view model (node.heat); 'group' (default) shows categories and kernel colours. render(vm, {positions, routes}, {fit}) draws a view model (view-model.js)
// with the node positions and edge routes from layout.js; it reads nothing else. Gestures only call handlers — onSelect(target|null),
// onConnect(producer, consumer) — the view never changes the graph or the state itself (state → view).
// Browser-only; shown by tests/browser/page-graph.test.mjs.

import cytoscape from 'cytoscape';
import edgehandles from 'cytoscape-edgehandles';
import { nodeSize, subLabel, edgeShape } from './layout-input.js';
import { shortReason } from './reasons.js';

cytoscape.use(edgehandles);

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
const BLOCKED = new Set(['shape', 'cycle']);

const STYLE = [
  { selector: 'node[w]', style: { width: 'data(w)', height: 'data(h)' } },
  { selector: 'node', style: {
    shape: 'round-rectangle', 'background-color': '#ffffff',
    'border-width': 1.5, 'border-color': '#8c959f', label: 'data(text)', 'text-wrap': 'wrap',
    'text-valign': 'center', 'text-halign': 'center', 'font-family': FONT, 'font-size': 11, color: '#1f2328',
    'line-height': 1.35 } },
  { selector: 'node[color]', style: { 'border-color': 'data(color)', 'border-width': 2 } },
  { selector: 'node.source', style: { 'background-color': '#eef1f4', 'border-style': 'dashed', 'border-color': '#8c959f', 'border-width': 1.5, color: '#424a53' } },
  { selector: 'node.barrier', style: { 'background-color': '#3d4852', 'border-color': '#3d4852', color: '#ffffff', shape: 'rectangle' } },
  { selector: 'node.unknown', style: { 'background-color': '#fdecea', 'border-color': '#c62828' } },
  { selector: 'node.output', style: { 'border-style': 'double', 'border-width': 5 } },
  { selector: 'node.barrier.output', style: { 'border-color': '#0d1117' } },
  { selector: 'node.heat[heat]', style: { 'background-color': 'data(heat)', color: 'data(heatInk)' } },
  { selector: 'node.group', style: {
    shape: 'round-rectangle', 'background-color': 'data(color)', 'background-opacity': 0.13,
    'border-color': 'data(color)', 'border-width': 1.5, 'border-style': 'solid', label: 'data(text)',
    'text-valign': 'top', 'text-halign': 'center', 'text-margin-y': -3, 'font-size': 11, 'font-weight': 600,
    color: '#1f2328', 'text-wrap': 'none', padding: 10 } },
  { selector: 'edge', style: {
    width: 1.6, 'line-color': '#9aa5b1', 'target-arrow-color': '#9aa5b1', 'target-arrow-shape': 'triangle',
    'curve-style': 'bezier', 'arrow-scale': 0.9, 'line-style': 'dashed', 'line-dash-pattern': [5, 4] } },
  { selector: 'edge[se]', style: { 'curve-style': 'straight', 'source-endpoint': 'data(se)', 'target-endpoint': 'data(te)' } },
  { selector: 'edge[sw]', style: { 'curve-style': 'round-segments', 'segment-radius': 8, 'segment-weights': 'data(sw)',
    'segment-distances': 'data(sd)', 'edge-distances': 'node-position' } },
  { selector: 'edge.fused', style: { width: 3, 'line-style': 'solid', 'line-color': 'data(color)', 'target-arrow-color': 'data(color)' } },
  { selector: 'edge.blocked', style: {
    width: 2.4, 'line-color': '#d9480f', 'target-arrow-color': '#d9480f', label: 'data(tag)', 'font-size': 10,
    'font-family': FONT, color: '#8a3300', 'text-background-color': '#fff', 'text-background-opacity': 0.9,
    'text-background-padding': 2, 'text-rotation': 'autorotate' } },
  { selector: 'edge.hover', style: { label: 'data(tag)', 'font-size': 10, 'font-family': FONT, color: '#1f2328',
    'text-background-color': '#fff', 'text-background-opacity': 0.9, 'text-background-padding': 2 } },
  { selector: '.selected', style: { 'overlay-color': '#0b63c5', 'overlay-opacity': 0.18, 'overlay-padding': 5 } },
  { selector: 'node.group.selected', style: { 'border-width': 3, 'background-opacity': 0.24, 'overlay-opacity': 0 } },
  { selector: 'edge.selected', style: { width: 4, 'overlay-opacity': 0.12 } },
  { selector: '.match', style: { 'underlay-color': '#f5c400', 'underlay-opacity': 0.55, 'underlay-padding': 6 } },
  { selector: '.faded', style: { opacity: 0.35 } },
  { selector: '.eh-handle', style: { 'background-color': '#0b63c5', width: 12, height: 12, shape: 'ellipse', 'overlay-opacity': 0, 'border-width': 0, label: '' } },
  { selector: '.eh-ghost-edge, .eh-preview', style: { 'line-color': '#0b63c5', 'target-arrow-color': '#0b63c5', 'line-style': 'solid', width: 2.5 } },
  { selector: '.eh-source, .eh-target', style: { 'overlay-color': '#0b63c5', 'overlay-opacity': 0.2 } },
];

// Cytoscape elements for a view model placed at positions, edges along their routes.
function toElements(vm, { positions, routes }) {
  const els = [];
  for (const g of vm.groups) {
    if (g.multi) els.push({ group: 'nodes', data: { id: g.id, text: `kernel ${g.group}`, color: g.color, kind: 'group', group: g.group }, classes: 'group' });
  }
  for (const n of vm.nodes) {
    const size = nodeSize(n.label, subLabel(n));
    const data = { id: n.id, op: n.op, text: `${n.label}\n${subLabel(n)}`, w: size.width, h: size.height, group: n.group };
    if (n.parent) data.parent = n.parent;
    if (n.color && n.category === 'elementwise') data.color = n.color;
    if (n.heat) Object.assign(data, { heat: n.heat.color, heatInk: n.heat.ink });
    els.push({ group: 'nodes', data, position: positions[n.id] ?? { x: 0, y: 0 },
      classes: [n.category, n.output ? 'output' : ''].join(' ') });
  }
  for (const e of vm.edges) {
    const blocked = !e.fused && BLOCKED.has(e.reason);
    const route = routes[e.id];
    const shape = route?.length >= 2 && positions[e.source] && positions[e.target] ? edgeShape(route, positions[e.source], positions[e.target]) : null;
    els.push({ group: 'edges', data: { id: e.id, source: e.source, target: e.target, producer: e.producer,
      consumer: e.consumer, color: e.color ?? '#4e79a7', tag: e.fused ? 'fused' : shortReason(e.reason),
      ...(shape ? { se: shape.sourceEndpoint, te: shape.targetEndpoint } : {}),
      ...(shape?.weights.length ? { sw: shape.weights, sd: shape.distances } : {}) },
    classes: e.fused ? 'fused' : blocked ? 'blocked' : 'unfused' });
  }
  return els;
}

export function createGraphView(container, { onSelect, onConnect, onHoverEdge }) {
  const cy = cytoscape({ container, style: STYLE, minZoom: 0.05, maxZoom: 3,
    boxSelectionEnabled: false, autounselectify: true });
  const eh = cy.edgehandles({ canConnect: (s, t) => !s.same(t) && !s.isParent() && !t.isParent(), snap: true,
    hoverDelay: 100, noEdgeEventsInDraw: true, disableBrowserGestures: true });
  let editable = true;
  let colorBy = 'group';
  const applyColors = () => cy.nodes('[heat]').toggleClass('heat', colorBy === 'bytes');
  // Fit the graph, but never blow a small graph up past a readable size.
  const fitView = () => {
    cy.fit(undefined, 30);
    if (cy.zoom() > 1.3) {
      cy.zoom(1.3);
      cy.center();
    }
  };

  cy.on('ehcomplete', (evt, source, target, added) => {
    added.remove();
    onConnect(source.data('op'), target.data('op'));
  });
  cy.on('tap', (evt) => {
    const t = evt.target;
    if (t === cy) return onSelect(null);
    if (t.isEdge()) return onSelect({ kind: 'edge', id: { producer: t.data('producer'), consumer: t.data('consumer') } });
    if (t.hasClass('group')) return onSelect({ kind: 'group', id: t.data('group') });
    if (t.data('op') !== undefined) return onSelect({ kind: 'op', id: t.data('op') });
  });
  cy.on('mouseover', 'edge', (evt) => { evt.target.addClass('hover'); onHoverEdge?.(evt.target.data(), evt.renderedPosition); });
  cy.on('mouseout', 'edge', (evt) => { evt.target.removeClass('hover'); onHoverEdge?.(null); });

  return {
    cy,
    render(vm, positions, { fit = true } = {}) {
      cy.batch(() => {
        cy.elements().remove();
        cy.add(toElements(vm, positions));
        applyColors();
      });
      if (fit) fitView();
    },
    setSelection(sel) {
      cy.elements().removeClass('selected');
      if (!sel) return;
      if (sel.kind === 'op') cy.$id(`op${sel.id}`).addClass('selected');
      else if (sel.kind === 'group') {
        const g = cy.$id(`g${sel.id}`);
        (g.nonempty() ? g : cy.nodes().filter((n) => n.data('group') === sel.id && !n.hasClass('group'))).addClass('selected');
      } else if (sel.kind === 'edge') cy.$id(`e${sel.id.producer}-${sel.id.consumer}`).addClass('selected');
    },
    setMatches(ops) {
      cy.elements().removeClass('match');
      for (const i of ops) cy.$id(`op${i}`).addClass('match');
    },
    setConnectMode(on) {
      if (on && editable) eh.enableDrawMode();
      else eh.disableDrawMode();
    },
    setEditable(on) {
      editable = on;
      if (!on) eh.disableDrawMode();
    },
    setColorBy(mode) {
      colorBy = mode;
      applyColors();
    },
    fit: fitView,
    center(op) {
      const n = cy.$id(`op${op}`);
      if (n.nonempty()) cy.animate({ center: { eles: n }, zoom: Math.max(cy.zoom(), 0.9) }, { duration: 250 });
    },
    png: () => cy.png({ full: true, scale: 2, bg: '#ffffff', output: 'blob' }),
    // Where op i is drawn, in page coordinates (for pointer-driven tests and tooltips).
    screenPosition(op) {
      const n = cy.$id(`op${op}`);
      if (n.empty()) return null;
      const r = container.getBoundingClientRect();
      const p = n.renderedPosition();
      return { x: r.left + p.x, y: r.top + p.y };
    },
  };
}
