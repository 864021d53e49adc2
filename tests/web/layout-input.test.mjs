// layout-input.test.mjs — the ELK input for a view model, and positions/routes read back from ELK output.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import ELK from 'elkjs/lib/elk.bundled.js';
import { boxOf, buildElkGraph, readLayout, edgeShape, nodeSize } from '../../web/src/layout/layout-input.js';

// Two fused ops in kernel 1, a source and a barrier as singletons.
const VM = {
  nodes: [
    { id: 'op0', label: 'x', kind: 'input', shape: [4], parent: null },
    { id: 'op1', label: 'a', kind: 'exp', shape: [4], parent: 'g1' },
    { id: 'op2', label: 'b', kind: 'relu', shape: [4], parent: 'g1' },
    { id: 'op3', label: 'm', kind: 'matmul', shape: [4, 4], parent: null },
  ],
  groups: [
    { id: 'g0', multi: false },
    { id: 'g1', multi: true },
    { id: 'g2', multi: false },
    { id: 'g3', multi: false },
  ],
  edges: [
    { id: 'e0-1', source: 'op0', target: 'op1' },
    { id: 'e1-2', source: 'op1', target: 'op2' },
    { id: 'e2-3', source: 'op2', target: 'op3' },
    { id: 'e0-3', source: 'op0', target: 'op3' },
  ],
};

test('multi-op groups become compound nodes; singletons stay plain nodes; edges sit at the root', () => {
  const g = buildElkGraph(VM, { direction: 'RIGHT' });
  assert.deepEqual(
    g.children.map((c) => c.id),
    ['g1', 'op0', 'op3'],
  );
  assert.deepEqual(
    g.children[0].children.map((c) => c.id),
    ['op1', 'op2'],
  );
  assert.equal(g.edges.length, 4);
  assert.equal(g.layoutOptions['elk.direction'], 'RIGHT');
  assert.equal(g.layoutOptions['elk.hierarchyHandling'], 'INCLUDE_CHILDREN');
});

test('node boxes grow with their labels, within limits', () => {
  assert.ok(nodeSize('a_much_longer_name').width > nodeSize('x').width);
  assert.ok(nodeSize('x'.repeat(200)).width <= 260);
});

test('a collapsed group’s box keeps its size whatever its bytes (a size slider moves only the numbers)', () => {
  const box = (bytesRead, bytesWritten) =>
    boxOf({ collapsed: true, label: '▸ kernel 7 · 2 ops', sub: 'a … b', bytesRead, bytesWritten });
  const sizes = [
    [12, 16],
    [1023, 1024],
    [768 * 1024, 1.5 * 2 ** 20],
    [100 * 2 ** 30, 1000 * 2 ** 20],
  ].map(([r, w]) => box(r, w));
  for (const s of sizes) assert.deepEqual(s, sizes[0]);
  assert.ok(sizes[0].height > nodeSize('x').height, 'taller by its bytes line');
  const op = (name) => boxOf({ label: name, kind: 'add', shape: [4] });
  assert.ok(op('a_much_longer_name').width > op('x').width, 'an op box still fits its label');
});

test('ELK output reads back as absolute centres, grouped ops inside their group, routes ending at their nodes', async () => {
  const out = await new ELK().layout(buildElkGraph(VM));
  const { positions, routes } = readLayout(out);
  assert.deepEqual(Object.keys(positions).sort(), ['op0', 'op1', 'op2', 'op3']);
  const g1 = out.children.find((c) => c.id === 'g1');
  for (const id of ['op1', 'op2']) {
    assert.ok(positions[id].x > g1.x && positions[id].x < g1.x + g1.width, `${id} inside its group`);
    assert.ok(positions[id].y > g1.y && positions[id].y < g1.y + g1.height, `${id} inside its group`);
  }
  // Down: every edge starts below its source's centre and ends above its target's centre.
  for (const e of VM.edges) {
    const r = routes[e.id];
    assert.ok(r.length >= 2, e.id);
    assert.ok(r[0].y > positions[e.source].y, `${e.id} starts at the bottom of its source`);
    assert.ok(r[r.length - 1].y < positions[e.target].y, `${e.id} ends at the top of its target`);
  }
});

test('a bend point becomes a weight along and a distance across the centre line', () => {
  const s = edgeShape(
    [
      { x: 0, y: 10 },
      { x: 0, y: 50 },
      { x: 30, y: 50 },
      { x: 30, y: 90 },
    ],
    { x: 0, y: 0 },
    { x: 30, y: 100 },
  );
  assert.equal(s.sourceEndpoint, '0.0px 10.0px');
  assert.equal(s.targetEndpoint, '0.0px -10.0px');
  assert.equal(s.weights.length, 2);
  assert.ok(s.weights[0] > 0 && s.weights[0] < s.weights[1] && s.weights[1] < 1);
  assert.ok(s.distances[0] * s.distances[1] < 0, 'the two bends lie on opposite sides of the centre line');
});

test('above LARGE_GRAPH ops the layout switches to its fast settings', async () => {
  const { LARGE_GRAPH } = await import('../../web/src/layout/layout-input.js');
  const nodes = Array.from({ length: LARGE_GRAPH + 1 }, (_, i) => ({
    id: `op${i}`,
    label: `n${i}`,
    kind: 'relu',
    shape: [1],
    parent: null,
  }));
  nodes[1].parent = nodes[2].parent = 'g7';
  const groups = [{ id: 'g7', group: 7, ops: [1, 2], multi: true }];
  const big = buildElkGraph({ nodes, groups, edges: [] });
  assert.equal(big.layoutOptions['elk.layered.thoroughness'], '1');
  assert.equal(big.children.length, LARGE_GRAPH + 1, 'laid out flat: every op at the root, no compound node');
  assert.ok(big.children.every((c) => !c.children));
  const small = buildElkGraph({ nodes: nodes.slice(0, 10), groups, edges: [] });
  assert.deepEqual(
    small.children.find((c) => c.id === 'g7').children.map((c) => c.id),
    ['op1', 'op2'],
  );
  assert.equal(buildElkGraph(VM).layoutOptions['elk.layered.thoroughness'], undefined);
});
