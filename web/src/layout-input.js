// layout-input.js — the ELK (layered) input graph for a view model, and positions read back from ELK.
//
// Contract: buildElkGraph(viewModel, {direction}) → an ELK JSON graph: multi-op groups are compound nodes
// holding their ops, all edges sit at the root with hierarchyHandling INCLUDE_CHILDREN, node sizes come from
// nodeSize(label). readPositions(elkResult) → {id: {x, y}} centre positions in one absolute frame (what
// Cytoscape's preset layout wants). Pure: ELK itself runs in a worker (layout.js).
// Shown by tests/web/layout-input.test.mjs.

export const NODE_HEIGHT = 46;

// Width of an op box: enough for its label (bold) and its sub-line (kind and shape).
export function nodeSize(label, sub = '') {
  const px = Math.max(String(label).length * 8, String(sub).length * 6.6, 48);
  return { width: Math.round(Math.min(260, 26 + px)), height: NODE_HEIGHT };
}

// The second line of an op box: "add [4096,3072]".
export function subLabel(n) {
  return `${n.kind} ${Array.isArray(n.shape) ? `[${n.shape.join(',')}]` : ''}`.trim();
}

export function buildElkGraph(vm, { direction = 'DOWN' } = {}) {
  const box = (n) => ({ id: n.id, ...nodeSize(n.label, subLabel(n)) });
  const children = [];
  for (const g of vm.groups) {
    if (!g.multi) continue;
    children.push({
      id: g.id,
      layoutOptions: { 'elk.padding': '[top=26,left=14,bottom=14,right=14]' },
      children: vm.nodes.filter((n) => n.parent === g.id).map(box),
    });
  }
  for (const n of vm.nodes) if (!n.parent) children.push(box(n));
  return {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': direction,
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.layered.spacing.nodeNodeBetweenLayers': '42',
      'elk.spacing.nodeNode': '28',
      'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
      'elk.edgeRouting': 'SPLINES',
    },
    children,
    edges: vm.edges.map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  };
}

export function readPositions(elk) {
  const out = {};
  const walk = (node, ox, oy) => {
    for (const c of node.children ?? []) {
      const x = ox + (c.x ?? 0);
      const y = oy + (c.y ?? 0);
      if (!c.children || c.children.length === 0) out[c.id] = { x: x + c.width / 2, y: y + c.height / 2 };
      else walk(c, x, y);
    }
  };
  walk(elk, 0, 0);
  return out;
}
