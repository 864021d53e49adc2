// layered-layout.js — the light layout: a quick layered placement of an ELK input graph, for small graphs (no
// need to load ELK), for graphs ELK is too slow for, and where ELK fails (it can overflow its stack on big
// graphs).
//
// Contract: layeredLayout(elkGraph) → an ELK-shaped result {id, children:[{id, x, y, width, height,
// children?}], edges:[]} that layout-input.js readLayout() reads: every leaf node of the input placed at its
// top-left corner, no edge routes (the view draws straight edges). A compound node at the top level (a fusion
// group, as buildElkGraph writes it for graphs of up to LARGE_GRAPH ops) is laid out as one box: its members
// are placed by themselves (the edges between them) inside the box's padding (30 px above for the title, 12
// elsewhere, as ELK's), and the box takes part in the top-level placement like a node, the edges of its
// members lifted to it; deeper nesting is flattened into that box. So clusters never overlap other nodes.
// Nodes sit in layers by longest path from the sources (a source sits just before its first consumer), ordered
// inside a layer by the barycentre of their neighbours (a down, an up and a down sweep), layers wrapped into
// several rows past MAX_ROW nodes, along layoutOptions 'elk.direction' (DOWN, default, or RIGHT); a graph much
// longer than the view is folded into side-by-side columns so that width : height comes near layoutOptions
// 'elk.aspectRatio' (default 1.6) (a cluster's inside is never folded). Edges naming unknown nodes are ignored;
// a cycle (the planner's graphs have none) is broken by ignoring edges that go back in input order.
// Iterative, no recursion; O((V + E) log V). Pure; runs in the layout worker, or on the main thread without
// one. Shown by tests/web/layered-layout.test.mjs.

export const MAX_ROW = 60;
const GAP_ALONG = 42; // between layers (px), as ELK's nodeNodeBetweenLayers
const GAP_ACROSS = 28; // between nodes in a layer (px), as ELK's spacing.nodeNode
const GAP_COLUMNS = 90; // between the columns a long graph is folded into (px)
const PAD = { top: 30, left: 12, bottom: 12, right: 12 }; // inside a cluster's box (px), as layout-input.js asks ELK

// The leaf nodes of an ELK graph, in input order.
function leaves(graph) {
  const out = [];
  const stack = [...(graph.children ?? [])].reverse();
  while (stack.length) {
    const n = stack.pop();
    if (n.children?.length) for (let k = n.children.length - 1; k >= 0; k--) stack.push(n.children[k]);
    else out.push(n);
  }
  return out;
}

// Adjacency in both directions over node indices, without self loops and unknown ends.
function adjacency(nodes, edges) {
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const succ = nodes.map(() => []);
  const pred = nodes.map(() => []);
  for (const e of edges ?? []) {
    const s = index.get(e.sources?.[0]);
    const t = index.get(e.targets?.[0]);
    if (s === undefined || t === undefined || s === t) continue;
    succ[s].push(t);
    pred[t].push(s);
  }
  return { succ, pred };
}

// A topological order (Kahn); nodes left on a cycle follow in input order.
function topoOrder(succ, pred) {
  const n = succ.length;
  const indeg = pred.map((p) => p.length);
  const queue = [];
  for (let i = 0; i < n; i++) if (indeg[i] === 0) queue.push(i);
  for (let head = 0; head < queue.length; head++) {
    for (const t of succ[queue[head]]) if (--indeg[t] === 0) queue.push(t);
  }
  if (queue.length < n) {
    const seen = new Set(queue);
    for (let i = 0; i < n; i++) if (!seen.has(i)) queue.push(i);
  }
  return queue;
}

// Longest-path layers; a source moves down to just above its nearest consumer.
function layersOf(order, succ, pred) {
  const rank = new Array(order.length);
  order.forEach((v, k) => {
    rank[v] = k;
  });
  const layer = new Array(order.length).fill(0);
  for (const v of order) for (const u of pred[v]) if (rank[u] < rank[v]) layer[v] = Math.max(layer[v], layer[u] + 1);
  for (const v of order) {
    if (pred[v].length || !succ[v].length) continue;
    let first = Infinity;
    for (const t of succ[v]) first = Math.min(first, layer[t]);
    layer[v] = Math.max(0, first - 1);
  }
  return layer;
}

// Reorders each layer by the mean position of the neighbours in `side` (a stable sort).
function sweep(rows, side, pos, upward) {
  const seq = upward ? [...rows.keys()].reverse() : [...rows.keys()];
  for (const r of seq) {
    const key = (v) => {
      const ns = side[v];
      if (!ns.length) return pos[v];
      let s = 0;
      for (const u of ns) s += pos[u];
      return s / ns.length;
    };
    const keyed = rows[r].map((v) => [key(v), pos[v], v]);
    keyed.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    rows[r] = keyed.map((x) => x[2]);
    rows[r].forEach((v, k) => {
      pos[v] = k / Math.max(1, rows[r].length - 1);
    });
  }
}

// Layers as lists of node indices, in topological order inside each.
function bucket(order, layer) {
  const rows = [];
  for (const v of order) (rows[layer[v]] ??= []).push(v);
  return rows.filter(Boolean);
}

// Splits layers wider than MAX_ROW into consecutive rows.
function wrap(rows) {
  const out = [];
  for (const row of rows) for (let k = 0; k < row.length; k += MAX_ROW) out.push(row.slice(k, k + MAX_ROW));
  return out;
}

// Splits the rows into columns of about equal length so the drawing's width : height is near `aspect`
// (a long chain becomes several side-by-side columns instead of one thin strip).
function columns(rows, along, across, aspect, right, fold) {
  const thick = rows.map((row) => Math.max(...row.map(along)));
  const span = rows.map((row) => row.reduce((s, v) => s + across(v), 0) + GAP_ACROSS * (row.length - 1));
  const total = thick.reduce((s, t) => s + t + GAP_ALONG, 0);
  const width = span.reduce((m, x) => Math.max(m, x), 1) + GAP_COLUMNS;
  const ideal = Math.sqrt(right ? total / (aspect * width) : (aspect * total) / width);
  const count = !fold || ideal < 2.5 ? 1 : Math.round(ideal); // fold only a graph far longer than the view
  const per = total / count;
  const out = [];
  let acc = 0;
  rows.forEach((row, r) => {
    const col = Math.min(count - 1, Math.floor(acc / per));
    (out[col] ??= []).push({ row, thick: thick[r], span: span[r] });
    acc += thick[r] + GAP_ALONG;
  });
  return { cols: out.filter(Boolean), width };
}

export function layeredLayout(graph) {
  const right = graph.layoutOptions?.['elk.direction'] === 'RIGHT';
  const aspect = Number(graph.layoutOptions?.['elk.aspectRatio']) || 1.6;
  const top = graph.children ?? [];
  if (!top.some((c) => c.children?.length)) {
    return { id: graph.id ?? 'root', children: place(leaves(graph), graph.edges, right, aspect, true), edges: [] };
  }
  const owner = new Map(); // leaf id → the id of the top-level node holding it
  for (const c of top) for (const leaf of c.children?.length ? leaves(c) : [c]) owner.set(leaf.id, c.id);
  const ends = (e) => [owner.get(e.sources?.[0]), owner.get(e.targets?.[0])];
  const inside = new Map();
  const lifted = [];
  for (const e of graph.edges ?? []) {
    const [s, t] = ends(e);
    if (s === undefined || t === undefined) continue;
    if (s === t) (inside.get(s) ?? inside.set(s, []).get(s)).push(e);
    else lifted.push({ sources: [s], targets: [t] });
  }
  const boxes = top.map((c) => (c.children?.length ? clusterBox(c, inside.get(c.id) ?? [], right) : c));
  return { id: graph.id ?? 'root', children: place(boxes, lifted, right, aspect, true), edges: [] };
}

// A cluster as one box: its leaves placed by themselves (never folded), moved inside the padding; the box's
// size holds them.
function clusterBox(cluster, edges, right) {
  const members = place(leaves(cluster), edges, right, 1, false);
  const minX = Math.min(...members.map((m) => m.x));
  const minY = Math.min(...members.map((m) => m.y));
  let width = 0;
  let height = 0;
  for (const m of members) {
    m.x += PAD.left - minX;
    m.y += PAD.top - minY;
    width = Math.max(width, m.x + m.width + PAD.right);
    height = Math.max(height, m.y + m.height + PAD.bottom);
  }
  return { id: cluster.id, width, height, children: members };
}

// Places nodes (each {id, width, height, children?}) in layers along the edges; their top-left corners.
function place(nodes, edges, right, aspect, fold) {
  const { succ, pred } = adjacency(nodes, edges);
  const order = topoOrder(succ, pred);
  const rows = bucket(order, layersOf(order, succ, pred));
  const pos = new Array(nodes.length).fill(0);
  for (const row of rows)
    row.forEach((v, k) => {
      pos[v] = k / Math.max(1, row.length - 1);
    });
  sweep(rows, pred, pos, false);
  sweep(rows, succ, pos, true);
  sweep(rows, pred, pos, false);
  const along = (v) => (right ? nodes[v].width : nodes[v].height) ?? 40;
  const across = (v) => (right ? nodes[v].height : nodes[v].width) ?? 80;
  const { cols, width } = columns(wrap(rows), along, across, aspect, right, fold);
  const children = new Array(nodes.length);
  cols.forEach((col, c) => {
    let offset = 0;
    for (const { row, thick, span } of col) {
      let x = c * width - span / 2;
      for (const v of row) {
        const a = offset + (thick - along(v)) / 2;
        const { id, width: w, height: h, children: inner } = nodes[v];
        children[v] = {
          id,
          width: w,
          height: h,
          x: right ? a : x,
          y: right ? x : a,
          ...(inner ? { children: inner } : {}),
        };
        x += across(v) + GAP_ACROSS;
      }
      offset += thick + GAP_ALONG;
    }
  });
  return children;
}
