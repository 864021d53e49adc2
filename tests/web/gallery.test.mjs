// gallery.test.mjs — every gallery example exists, is valid, and shows what its title promises (planned by
// the real WASM module; the expectations are the rules of docs/design.md each example was written to demonstrate).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { loadFusion } from '../../wasm/fusion.mjs';
import { GALLERY, DEFAULT_EXAMPLE, exampleFile, findExample } from '../../web/src/gallery/gallery.js';

const dir = new URL('../../examples/', import.meta.url);
const text = (id) => readFileSync(new URL(exampleFile(findExample(id)), dir), 'utf8');
const jsonFiles = (sub) =>
  readdirSync(new URL(sub, dir))
    .filter((f) => f.endsWith('.json'))
    .map((f) => `${sub}${f}`);
let fusion;
before(async () => {
  fusion = await loadFusion();
});

// The plan of an example, with helpers to ask about it by op name.
function planOf(id, options = {}) {
  const graph = JSON.parse(text(id));
  const plan = fusion.plan(text(id), { broadcast: true, resident_sources: false, ...options });
  assert.equal(plan.ok, true, `${id}: ${JSON.stringify(plan.error)}`);
  const idx = (name) => graph.ops.findIndex((o) => o.name === name);
  const groupOf = (name) => plan.op_group[idx(name)];
  const edge = (p, c) => plan.edges.find((e) => e.producer === idx(p) && e.consumer === idx(c));
  const multi = plan.groups.filter((g) => g.ops.length > 1).map((g) => g.ops.map((i) => graph.ops[i].name).sort());
  return { plan, groupOf, edge, multi };
}

test('the gallery and examples/ (with examples/models/) list the same graphs, the default among them', () => {
  const files = [...jsonFiles(''), ...jsonFiles('models/')].sort();
  assert.deepEqual(GALLERY.map(exampleFile).sort(), files);
  assert.equal(new Set(GALLERY.map((e) => e.id)).size, GALLERY.length);
  for (const e of GALLERY) assert.equal(exampleFile(e).replace(/^.*\/|\.json$/g, ''), e.id, 'file name is the id');
  assert.ok(findExample(DEFAULT_EXAMPLE));
  assert.equal(new Set(GALLERY.map((e) => e.title)).size, GALLERY.length);
});

test('every example validates, names all its ops uniquely, and plans', () => {
  for (const { id } of GALLERY) {
    const graph = JSON.parse(text(id));
    const names = graph.ops.map((o) => o.name);
    assert.ok(names.every(Boolean), `${id}: every op has a name`);
    assert.equal(new Set(names).size, names.length, `${id}: names are unique`);
    assert.equal(fusion.validate(text(id)).ok, true, id);
    planOf(id);
  }
});

test('the transformer examples name their leading dimensions; the defaults are the sizes their stories tell', () => {
  const named = { 'transformer-mlp': { tokens: 4096 }, 'attention-scores': { batch: 8, seq: 512 } };
  for (const [id, dims] of Object.entries(named)) {
    assert.deepEqual(JSON.parse(text(id)).dims, dims, id);
    const { plan } = planOf(id);
    assert.deepEqual(plan.dims, dims, id);
    assert.equal(plan.grouping_independent_of_dims, true, `${id}: the groups do not depend on the sizes`);
  }
  assert.deepEqual(planOf('transformer-mlp', { dims: { tokens: 8 } }).multi, planOf('transformer-mlp').multi);
});

test('bias + relu and the elementwise chain each become one kernel after their sources', () => {
  assert.deepEqual(planOf('bias-relu').multi, [['y', 'z']]);
  assert.deepEqual(planOf('elementwise-chain').multi, [['act', 'out', 'scaled', 'shifted']]);
});

test('the diamond fuses all four ops; the multi-consumer intermediate is written once', () => {
  assert.deepEqual(planOf('diamond').multi, [['a', 'b', 'c', 'd']]);
  const mc = planOf('multi-consumer');
  assert.deepEqual(mc.multi, [['gate', 'h', 'y']]);
  const g = mc.plan.groups[mc.groupOf('h')];
  assert.ok(g.outputs.length === 2, 'h (read by the matmul) and gate (a terminal) are both written');
});

test('the barrier sandwich rejects a → c with the reason "cycle"', () => {
  const { edge, groupOf } = planOf('barrier-sandwich');
  assert.equal(edge('a', 'c').fused, false);
  assert.equal(edge('a', 'c').reason, 'cycle');
  assert.notEqual(groupOf('a'), groupOf('c'));
});

test('broadcast: [4096,1] fuses into [4096,1024], [4096] does not; with the rule off neither does', () => {
  const on = planOf('broadcast');
  assert.equal(on.edge('inv_std_ok', 'norm_ok').fused, true);
  assert.equal(on.edge('inv_std_bad', 'norm_bad').reason, 'shape');
  const off = planOf('broadcast', { broadcast: false });
  assert.equal(off.edge('inv_std_ok', 'norm_ok').reason, 'shape');
});

test('transformer MLP, attention and ResNet fuse their elementwise runs between barriers', () => {
  assert.deepEqual(planOf('transformer-mlp').multi, [
    ['act', 'fc1_bias'],
    ['fc2_bias', 'residual'],
  ]);
  const att = planOf('attention-scores');
  assert.deepEqual(att.multi, [['masked', 'scaled']]);
  assert.equal(att.edge('masked', 'probs').reason, 'barrier_consumer');
  assert.deepEqual(planOf('resnet-basic-block').multi, [
    ['bn1_add', 'bn1_mul', 'relu1'],
    ['bn2_add', 'bn2_mul', 'out', 'skip'],
  ]);
});

test('the greedy trap: greedy fuses scale into scaled; the optimal plan fuses scaled with out and moves fewer bytes', () => {
  const greedy = planOf('greedy-trap');
  assert.deepEqual(greedy.multi, [['scale', 'scaled']]);
  assert.equal(greedy.edge('scaled', 'out').reason, 'cycle');
  const optimal = planOf('greedy-trap', { search: 'optimal' });
  assert.deepEqual(optimal.multi, [['out', 'scaled']]);
  assert.equal(optimal.edge('scale', 'scaled').reason, 'cycle');
  assert.equal(optimal.plan.search.status, 'optimal');
  assert.ok(optimal.plan.bytes_fused < greedy.plan.bytes_fused);
  assert.equal(optimal.plan.search.greedy_bytes_fused, greedy.plan.bytes_fused);
  assert.equal(findExample('greedy-trap').optimal, true, 'it opens with the Optimal switch on');
});
