// edge-diff.test.mjs — which edges two plans of one graph decide differently, matched by producer → consumer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffEdges } from '../../web/src/present/edge-diff.js';

// matmul + bias + relu as XLA-style and TVM-style rules decide it (plan literals: only edges matter here).
const xla = {
  edges: [
    { producer: 0, consumer: 2, fused: false, reason: 'source' },
    { producer: 1, consumer: 2, fused: false, reason: 'source' },
    { producer: 2, consumer: 4, fused: false, reason: 'barrier_producer' },
    { producer: 3, consumer: 4, fused: false, reason: 'source' },
    { producer: 4, consumer: 5, fused: true },
    { producer: 5, consumer: 6, fused: false, reason: 'barrier_consumer' },
  ],
};
const tvm = {
  edges: [
    { producer: 0, consumer: 2, fused: false, reason: 'source' },
    { producer: 1, consumer: 2, fused: false, reason: 'source' },
    { producer: 2, consumer: 4, fused: true },
    { producer: 3, consumer: 4, fused: false, reason: 'source' },
    { producer: 4, consumer: 5, fused: true },
    { producer: 5, consumer: 6, fused: false, reason: 'anchor' },
  ],
};

test('an edge fused on one side only is a decision difference, with both sides as the plans say', () => {
  const diff = diffEdges(xla, tvm);
  assert.deepEqual(diff[0], {
    producer: 2,
    consumer: 4,
    kind: 'decision',
    left: { fused: false, reason: 'barrier_producer' },
    right: { fused: true, reason: null },
  });
});

test('unfused on both sides for different reasons comes after every decision difference', () => {
  assert.deepEqual(
    diffEdges(xla, tvm).map((d) => [d.producer, d.consumer, d.kind]),
    [
      [2, 4, 'decision'],
      [5, 6, 'reason'],
    ],
  );
});

test('the same plan twice has no differences; swapping the sides swaps left and right', () => {
  assert.deepEqual(diffEdges(tvm, tvm), []);
  const [d] = diffEdges(tvm, xla);
  assert.deepEqual([d.left.fused, d.right.reason], [true, 'barrier_producer']);
});

test('an edge only one plan lists is a decision difference with null on the other side', () => {
  const extra = { edges: [...tvm.edges, { producer: 6, consumer: 7, fused: true }] };
  const diff = diffEdges(tvm, extra);
  assert.deepEqual(diff, [
    { producer: 6, consumer: 7, kind: 'decision', left: null, right: { fused: true, reason: null } },
  ]);
});

test('a pair listed twice counts once, and the first listing decides', () => {
  const twice = {
    edges: [
      { producer: 0, consumer: 1, fused: true },
      { producer: 0, consumer: 1, fused: false, reason: 'shape' },
    ],
  };
  const once = { edges: [{ producer: 0, consumer: 1, fused: false, reason: 'shape' }] };
  assert.equal(diffEdges(twice, once).length, 1);
  assert.equal(diffEdges(twice, twice).length, 0);
});

test('100,000 edges diff in one pass: each edge is read a few times, not once per other edge', () => {
  const n = 100_000;
  const reads = new Uint32Array(n);
  // Edge i, counting every read of its fields into reads[i] (both plans' copies of it together).
  const counted = (i, e) =>
    new Proxy(e, {
      get: (edge, field) => {
        reads[i] += 1;
        return edge[field];
      },
    });
  const plain = Array.from({ length: n }, (_, i) => ({
    producer: i,
    consumer: i + 1,
    fused: i % 2 === 0,
    reason: i % 2 ? 'shape' : undefined,
  }));
  const changed = (e) => ({ ...e, fused: !e.fused, reason: e.fused ? 'limit' : undefined });
  const a = { edges: plain.map((e, i) => counted(i, e)) };
  const b = { edges: plain.map((e, i) => counted(i, i % 10 === 0 ? changed(e) : e)) };
  assert.equal(diffEdges(a, b).length, n / 10);
  const most = reads.reduce((m, r) => Math.max(m, r), 0);
  assert.ok(most <= 32, `an edge's fields were read ${most} times (a pairwise search reads them once per other edge)`);
});
