// layout-input.js — the ELK (layered) input graph for a view model, and positions read back from ELK.
//
// Contract: buildElkGraph(viewModel, {direction, aspect?}) → an ELK JSON graph (aspect: the view's width ÷
// height, as elk.aspectRatio, which ELK's packing and the fallback layout's folding aim for): multi-op groups are compound nodes
// holding their ops, all edges sit at the root with hierarchyHandling INCLUDE_CHILDREN; node sizes come from
// boxOf(node) (nodeSize of its nodeLines; a collapsed group node of collapse.js is one plain node, taller by
// its bytes line, counted at its widest so the box does not change with the sizes bound). Above LARGE_GRAPH
// ops the graph is laid out flat (no compound nodes: the hierarchical crossing minimization is the slow part) with fast settings; Cytoscape still draws each group as a cluster
// around its members, which a layered layout keeps adjacent (measured on 1,000 ops: about 2x faster warm,
// about 1/4 less cold; see docs/playground.md). readLayout(elkResult) → {positions: {id: {x, y}} centre positions in one absolute frame
// (what Cytoscape's preset layout wants), routes: {edgeId: [{x, y}, …]} each edge's orthogonal polyline from
// its start point through its bends to its end point}. edgeShape(route, sourceCentre, targetCentre) turns a
// route into Cytoscape 'segments' data. Pure: ELK itself runs in a worker (layout.js).
// Shown by tests/web/layout-input.test.mjs.

import { formatBytes } from '../present/format.js';

export const NODE_HEIGHT = 46;
export const LARGE_GRAPH = 300; // ops; above this the layout trades some tidiness for speed

// Width of an op box: enough for its label (bold) and its sub-line (kind and shape).
export function nodeSize(label, sub = '') {
  const px = Math.max(String(label).length * 8, String(sub).length * 6.6, 48);
  return { width: Math.round(Math.min(260, 26 + px)), height: NODE_HEIGHT };
}

// The second line of an op box: "add [4096,3072]" (a collapsed group's own sub-line: its first … last op).
export function subLabel(n) {
  if (n.sub !== undefined) return n.sub;
  return `${n.kind} ${Array.isArray(n.shape) ? `[${n.shape.join(',')}]` : ''}`.trim();
}

// The text lines of a drawn node: label and sub-line, and for a collapsed group the bytes it reads and
// writes (the plan's numbers, formatted).
export function nodeLines(n) {
  const lines = [n.label, subLabel(n)];
  if (n.collapsed) lines.push(`reads ${formatBytes(n.bytesRead)} · writes ${formatBytes(n.bytesWritten)}`);
  return lines;
}

// The widest a formatted byte count gets (format.js formatBytes: "1023 B", "1024 KiB", "10.0 MiB").
const WIDEST_BYTES = '0000 KiB';

// The box of a drawn node: nodeSize of its lines, taller by a line per extra line. A collapsed group's bytes
// line counts at its widest, so its box keeps its size whatever the sizes bound (a slider moves the numbers,
// never the boxes).
export function boxOf(n) {
  const [label, ...rest] = nodeLines(n);
  if (n.collapsed) rest[rest.length - 1] = `reads ${WIDEST_BYTES} · writes ${WIDEST_BYTES}`;
  const size = nodeSize(
    label,
    rest.reduce((a, b) => (b.length > a.length ? b : a), ''),
  );
  return { width: size.width, height: size.height + 15 * (rest.length - 1) };
}

export function buildElkGraph(vm, { direction = 'DOWN', aspect } = {}) {
  const box = (n) => ({ id: n.id, ...boxOf(n) });
  const large = vm.nodes.length > LARGE_GRAPH;
  const children = [];
  for (const g of vm.groups) {
    if (!g.multi || large) continue;
    children.push({
      id: g.id,
      layoutOptions: {
        'elk.padding': '[top=30,left=12,bottom=12,right=12]',
        'elk.layered.spacing.nodeNodeBetweenLayers': '34',
      },
      children: vm.nodes.filter((n) => n.parent === g.id).map(box),
    });
  }
  for (const n of vm.nodes) if (!n.parent || large) children.push(box(n));
  // Past a few hundred ops the thorough settings take many seconds; these keep 1,000 ops to a few.
  const fast = large
    ? {
        'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
        'elk.layered.thoroughness': '1',
        'elk.layered.crossingMinimization.greedySwitch.type': 'OFF',
        'elk.layered.cycleBreaking.strategy': 'DEPTH_FIRST', // the graph is a DAG: nothing to break
      }
    : {};
  return {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': direction,
      ...(aspect > 0 ? { 'elk.aspectRatio': aspect.toFixed(2) } : {}),
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.layered.spacing.nodeNodeBetweenLayers': '42',
      'elk.spacing.nodeNode': '28',
      'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
      'elk.edgeRouting': 'ORTHOGONAL',
      ...fast,
    },
    children,
    edges: vm.edges.map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  };
}

export function readLayout(elk) {
  const positions = {};
  const origins = { [elk.id]: { x: 0, y: 0 } };
  const walk = (node, ox, oy) => {
    for (const c of node.children ?? []) {
      const x = ox + (c.x ?? 0);
      const y = oy + (c.y ?? 0);
      if (!c.children || c.children.length === 0) positions[c.id] = { x: x + c.width / 2, y: y + c.height / 2 };
      else {
        origins[c.id] = { x, y };
        walk(c, x, y);
      }
    }
  };
  walk(elk, 0, 0);
  const routes = {};
  for (const e of elk.edges ?? []) {
    const sec = e.sections?.[0];
    if (!sec) continue;
    const o = origins[e.container] ?? { x: 0, y: 0 };
    const pts = [sec.startPoint, ...(sec.bendPoints ?? []), sec.endPoint];
    routes[e.id] = pts.map((p) => ({ x: o.x + p.x, y: o.y + p.y }));
  }
  return { positions, routes };
}

// Cytoscape 'segments' data for a route: endpoints as offsets from the node centres, and each bend as a
// weight along / distance across the source→target centre line.
export function edgeShape(route, s, t) {
  const first = route[0];
  const last = route[route.length - 1];
  const dx = t.x - s.x;
  const dy = t.y - s.y;
  const len2 = dx * dx + dy * dy || 1;
  const len = Math.sqrt(len2);
  const bends = route.slice(1, -1);
  return {
    sourceEndpoint: `${(first.x - s.x).toFixed(1)}px ${(first.y - s.y).toFixed(1)}px`,
    targetEndpoint: `${(last.x - t.x).toFixed(1)}px ${(last.y - t.y).toFixed(1)}px`,
    weights: bends.map((p) => ((p.x - s.x) * dx + (p.y - s.y) * dy) / len2),
    distances: bends.map((p) => ((p.y - s.y) * dx - (p.x - s.x) * dy) / len),
  };
}
