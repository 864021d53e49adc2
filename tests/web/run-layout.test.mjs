// run-layout.test.mjs — one layout request as the layout worker (or the main thread) runs it: ELK, the quick
// placement when asked or when ELK fails, and the reason that goes with each.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runLayout } from '../../web/src/layout/run-layout.js';

// Two boxes and an edge, as layout-input.js writes ELK's input.
const GRAPH = {
  id: 'root',
  layoutOptions: { 'elk.algorithm': 'layered', 'elk.direction': 'DOWN' },
  children: [
    { id: 'a', width: 80, height: 30 },
    { id: 'b', width: 80, height: 30 },
  ],
  edges: [{ id: 'e', sources: ['a'], targets: ['b'] }],
};
const loadElk = () => import('elkjs/lib/elk.bundled.js');
const placed = (result) => Object.fromEntries(result.children.map((c) => [c.id, [c.x, c.y]]));

test('ELK lays the graph out and says no reason', async () => {
  const reply = await runLayout({ graph: GRAPH, engine: 'elk' }, loadElk);
  assert.equal(reply.ok, true);
  assert.equal(reply.engine, 'elk');
  assert.equal(reply.reason, null);
  const at = placed(reply.result);
  assert.ok(at.b[1] > at.a[1], 'b sits below a');
});

test('the quick placement, when asked for, keeps the reason it was asked with', async () => {
  assert.equal((await runLayout({ graph: GRAPH, engine: 'layered' })).reason, 'asked for');
  const reply = await runLayout({ graph: GRAPH, engine: 'layered', reason: 'more than 500 nodes to draw' });
  assert.deepEqual([reply.ok, reply.engine, reply.reason], [true, 'layered', 'more than 500 nodes to draw']);
  const at = placed(reply.result);
  assert.ok(at.b[1] > at.a[1], 'b sits below a');
});

test('when ELK throws, the quick placement answers and says why', async () => {
  const broken = { ...GRAPH, edges: [{ id: 'e', sources: ['a'], targets: ['nowhere'] }] };
  const reply = await runLayout({ graph: broken, engine: 'elk' }, loadElk);
  assert.equal(reply.ok, true);
  assert.equal(reply.engine, 'layered');
  assert.match(reply.reason, /^ELK failed: /);
});

test('without a way to load ELK (the main thread), an ELK request gets the light placement and says why', async () => {
  const reply = await runLayout({ graph: GRAPH, engine: 'elk' });
  assert.deepEqual([reply.ok, reply.engine, reply.reason], [true, 'layered', 'ELK runs only in the layout worker']);
  assert.ok(placed(reply.result).b[1] > placed(reply.result).a[1]);
});
