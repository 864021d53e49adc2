// layered-layout.test.mjs — the fallback layout places every node, in layers along the edges, without overlap,
// and needs no recursion on big graphs (how fast it is: bench/page-modules.mjs, `npm run bench:page`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { layeredLayout, MAX_ROW } from '../../web/src/layout/layered-layout.js';
import { readLayout } from '../../web/src/layout/layout-input.js';

const node = (id, width = 80, height = 46) => ({ id, width, height });
const edge = (s, t) => ({ id: `${s}-${t}`, sources: [s], targets: [t] });

test('every leaf is placed once; a compound node is a box around its members; edges go down the layers', () => {
  const graph = {
    id: 'root',
    layoutOptions: { 'elk.direction': 'DOWN' },
    children: [node('x'), { id: 'g1', children: [node('a'), node('b')] }, node('m')],
    edges: [edge('x', 'a'), edge('a', 'b'), edge('b', 'm'), edge('x', 'm'), edge('nope', 'm')],
  };
  const { positions, routes } = readLayout(layeredLayout(graph));
  assert.deepEqual(Object.keys(positions).sort(), ['a', 'b', 'm', 'x']);
  assert.deepEqual(routes, {});
  assert.ok(positions.x.y < positions.a.y && positions.a.y < positions.b.y && positions.b.y < positions.m.y);
});

test('a cluster box holds its members inside its padding and overlaps no other node', () => {
  const graph = {
    children: [node('x'), node('w', 200), { id: 'g1', children: [node('a'), node('b'), node('c', 120)] }, node('m')],
    edges: [edge('x', 'a'), edge('w', 'b'), edge('a', 'c'), edge('b', 'c'), edge('c', 'm'), edge('x', 'm')],
  };
  const out = layeredLayout(graph);
  const box = out.children.find((c) => c.id === 'g1');
  for (const m of box.children) {
    assert.ok(m.x >= 12 && m.y >= 30, `${m.id} sits inside the padding`);
    assert.ok(m.x + m.width <= box.width - 12 + 1e-9 && m.y + m.height <= box.height - 12 + 1e-9);
  }
  const apart = (p, q) =>
    p.x + p.width <= q.x || q.x + q.width <= p.x || p.y + p.height <= q.y || q.y + q.height <= p.y;
  for (const other of out.children.filter((c) => c.id !== 'g1')) assert.ok(apart(box, other), `${other.id} is outside`);
  const { positions } = readLayout(out);
  assert.ok(positions.x.y < positions.a.y && positions.c.y < positions.m.y, 'lifted edges keep the layers');
});

test('a source sits just above its first consumer, not at the top', () => {
  const graph = {
    children: ['x', 'a', 'b', 'c', 'w'].map((id) => node(id)),
    edges: [edge('x', 'a'), edge('a', 'b'), edge('b', 'c'), edge('w', 'c')],
  };
  const { positions } = readLayout(layeredLayout(graph));
  assert.equal(positions.w.y, positions.b.y);
});

test('RIGHT lays the layers out left to right', () => {
  const graph = {
    layoutOptions: { 'elk.direction': 'RIGHT' },
    children: [node('a'), node('b')],
    edges: [edge('a', 'b')],
  };
  const { positions } = readLayout(layeredLayout(graph));
  assert.ok(positions.a.x < positions.b.x);
  assert.equal(positions.a.y, positions.b.y);
});

test('no two boxes overlap, wide layers wrap into rows, and a cycle does not hang', () => {
  const children = [node('root')];
  const edges = [];
  for (let i = 0; i < 3 * MAX_ROW; i++) {
    children.push(node(`n${i}`, 60 + (i % 5) * 20));
    edges.push(edge('root', `n${i}`));
  }
  edges.push(edge('n1', 'n2'), edge('n2', 'n1'));
  const out = layeredLayout({ children, edges });
  const boxes = out.children;
  assert.equal(boxes.length, children.length);
  const rows = new Set(boxes.map((b) => b.y));
  assert.ok(rows.size >= 4, 'a layer of 180 nodes wraps into rows');
  const byRow = new Map();
  for (const b of boxes) byRow.set(b.y, [...(byRow.get(b.y) ?? []), b]);
  for (const row of byRow.values()) {
    row.sort((p, q) => p.x - q.x);
    for (let k = 1; k < row.length; k++) assert.ok(row[k].x >= row[k - 1].x + row[k - 1].width, 'no overlap in a row');
  }
});

test('a 200,000-node chain lays out without overflowing the stack (no recursion along the chain)', () => {
  const n = 200_000;
  const children = Array.from({ length: n }, (_, i) => node(`n${i}`));
  const edges = Array.from({ length: n - 1 }, (_, i) => edge(`n${i}`, `n${i + 1}`));
  const out = layeredLayout({ children, edges });
  assert.equal(out.children.length, n);
  assert.ok(out.children[n - 1].y > out.children[0].y);
});

test('a long chain is folded into side-by-side columns, near the aspect ratio asked for', () => {
  const n = 400;
  const children = Array.from({ length: n }, (_, i) => node(`n${i}`));
  const edges = Array.from({ length: n - 1 }, (_, i) => edge(`n${i}`, `n${i + 1}`));
  for (const aspect of [1, 2]) {
    const { positions } = readLayout(
      layeredLayout({ layoutOptions: { 'elk.aspectRatio': String(aspect) }, children, edges }),
    );
    const xs = Object.values(positions).map((p) => p.x);
    const ys = Object.values(positions).map((p) => p.y);
    const w = Math.max(...xs) - Math.min(...xs) + 80;
    const h = Math.max(...ys) - Math.min(...ys) + 46;
    assert.ok(new Set(xs).size > 3, 'several columns');
    assert.ok(w / h > aspect / 2 && w / h < aspect * 2, `aspect ${aspect}: drawn ${(w / h).toFixed(2)}`);
    assert.ok(positions.n1.y > positions.n0.y, 'a column still runs down');
  }
});
