// embed-params.test.mjs — an embed's query string (share/embed-params.js) and the readable example links
// (share/example-link.js): which embeds need the page's code, &compare=, and the &select= syntax, resolved
// against a graph and its plan with a message in words for what is not there.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMode, parseSelect, resolveSelect, usesPage } from '../../web/src/share/embed-params.js';
import { decodeReadableLink } from '../../web/src/share/example-link.js';

test('the new parameters: compare, select and onnx', () => {
  assert.deepEqual(parseMode('?embed&compare=xla,TVM').compare, ['xla', 'tvm']);
  assert.match(parseMode('?embed&compare=xla').compare.error, /not two strategy names.*compare=xla,tvm/);
  assert.match(parseMode('?embed&compare=a,b,c').compare.error, /not two strategy names/);
  assert.equal(parseMode('?embed').compare, null);
  assert.equal(parseMode('?embed&select=edge:a%3Eb').select, 'edge:a>b');
  assert.equal(parseMode('?embed&select=').select, null);
  assert.equal(parseMode('?embed&onnx=m.onnx').onnx, true);
});

test('only the edit tools, the JSON box, the compare view or an import need the page in an embed', () => {
  for (const q of ['?embed', '?embed&code', '?embed&select=op:a', '?embed&json=0'])
    assert.equal(usesPage(parseMode(q)), false, q);
  for (const q of ['', '?embed=0', '?embed&json', '?embed&editable', '?embed&compare=xla,tvm', '?embed&onnx=x'])
    assert.equal(usesPage(parseMode(q)), true, q);
});

test('select= syntax: op:NAME, edge:PRODUCER>CONSUMER, kernel:N, else a message naming the forms', () => {
  assert.deepEqual(parseSelect('op:fc1'), { kind: 'op', name: 'fc1' });
  assert.deepEqual(parseSelect('edge:fc1>act'), { kind: 'edge', producer: 'fc1', consumer: 'act' });
  assert.deepEqual(parseSelect('kernel:6'), { kind: 'kernel', id: 6 });
  assert.match(parseSelect('fc1').error, /select=op:NAME, select=edge:PRODUCER>CONSUMER or select=kernel:N/);
  assert.match(parseSelect('kernel:x').error, /kernel number/);
  assert.match(parseSelect('edge:a>b>c').error, /one '>'/);
  assert.match(parseSelect('edge:a').error, /one '>'/);
});

const graph = { ops: [{ name: 'x' }, { name: 'a' }, { name: 'b' }] };
const plan = {
  groups: [
    { id: 0, ops: [0] },
    { id: 1, ops: [1, 2] },
  ],
  edges: [
    { producer: 0, consumer: 1, fused: false },
    { producer: 1, consumer: 2, fused: true },
  ],
};

test('a selection is found by op names (or an op index) and plan group ids', () => {
  assert.deepEqual(resolveSelect('op:a', graph, plan), { target: { kind: 'op', id: 1 } });
  assert.deepEqual(resolveSelect('op:2', graph, plan), { target: { kind: 'op', id: 2 } });
  assert.deepEqual(resolveSelect('kernel:1', graph, plan), { target: { kind: 'group', id: 1 } });
  assert.deepEqual(resolveSelect('edge:x>a', graph, plan), {
    target: { kind: 'edge', id: { producer: 0, consumer: 1 } },
  });
});

test('what is not in the graph or plan is named in the message', () => {
  assert.match(resolveSelect('op:nope', graph, plan).error, /no op called “nope”/);
  assert.match(resolveSelect('op:7', graph, plan).error, /no op called “7”/);
  assert.match(resolveSelect('kernel:9', graph, plan).error, /no kernel 9 in this plan \(it has 2\)/);
  assert.match(resolveSelect('edge:x>b', graph, plan).error, /no edge from x to b/);
  assert.match(resolveSelect('edge:x>zz', graph, plan).error, /no op called “zz”/);
  assert.match(resolveSelect('what', graph, plan).error, /is not understood/);
});

test('readable links are read without the codec; state links are left to it', () => {
  assert.deepEqual(decodeReadableLink(''), { kind: 'empty' });
  const link = decodeReadableLink('#example=diamond&strategy=xla&compare=xla,tvm');
  assert.equal(link.kind, 'state');
  assert.deepEqual(
    [link.state.example, link.state.options.strategy, link.state.compare],
    ['diamond', 'xla', ['xla', 'tvm']],
  );
  assert.equal(decodeReadableLink('#state=1.abc'), null);
  assert.equal(decodeReadableLink('#example=diamond&bogus=1').kind, 'error');
  assert.equal(decodeReadableLink('#example=%E0%A4%A').kind, 'error');
});
