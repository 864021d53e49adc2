// import-file.test.mjs — a file's bytes become the JSON box's text: ONNX through the importer, JSON as written;
// every failure is a value naming what went wrong (and the node, when the importer knows it).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { importBytes, LONG_LINE } from '../../web/src/import/import-file.js';
import { importOnnx } from '../../web/src/import/onnx/import.js';
import { formatGraph } from '../../web/src/graph/graph-text.js';
import { F32, graph, info, modelBytes, node } from '../onnx/onnx-model-builder.mjs';

const file = (path) => new Uint8Array(readFileSync(new URL(`../../${path}`, import.meta.url)));
const text = (s) => new TextEncoder().encode(s);

test("an ONNX model becomes the importer's graph, one op per line", () => {
  const bytes = file('examples/models/resnet18.onnx');
  const r = importBytes('resnet18.onnx', bytes);
  assert.equal(r.ok, true);
  assert.deepEqual([r.format, r.name, r.bytes], ['onnx', 'resnet18.onnx', bytes.length]);
  assert.equal(r.text, formatGraph(importOnnx(bytes).graph));
  assert.equal(r.ops, JSON.parse(r.text).ops.length);
  assert.ok(Array.isArray(r.warnings) && r.ms >= 0);
});

test('a JSON graph is kept as written; a minified one is laid out one op per line', () => {
  const written = readFileSync(new URL('../../examples/bias-relu.json', import.meta.url), 'utf8');
  assert.equal(importBytes('g.json', text(written)).text, written);
  const ops = Array.from({ length: 200 }, (_, i) => ({
    name: `op_${i}`,
    kind: i ? 'relu' : 'input',
    inputs: i ? [`op_${i - 1}`] : undefined,
    shape: [4],
    dtype: 'f32',
  }));
  const minified = JSON.stringify({ ops });
  assert.ok(minified.length > LONG_LINE);
  const r = importBytes('min.json', text(`\ufeff${minified}`));
  assert.equal(r.ok, true);
  assert.equal(r.text, formatGraph({ ops }));
  assert.equal(r.ops, 200);
});

test('a model the importer refuses names the node, its type and where it is', () => {
  const bytes = modelBytes(
    graph({
      inputs: [info('x', F32, [1, 8])],
      outputs: [info('y', F32)],
      nodes: [node('Relu', ['x'], ['r'], {}, 'act'), node('MyCustomOp', ['r'], ['y'], {}, 'nms', 'com.example')],
    }),
  );
  const r = importBytes('det.onnx', bytes);
  assert.equal(r.ok, false);
  assert.deepEqual([r.error.node, r.error.opType, r.error.path], ['nms', 'MyCustomOp', 'graph.node[1]']);
  assert.match(r.error.message, /node 'nms' \(MyCustomOp\) at graph\.node\[1\]/);
});

test('bytes that are no model, no graph or no JSON say so', () => {
  const cases = [
    ['x.onnx', Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13), /not a valid ONNX file/],
    ['empty.onnx', new Uint8Array(), /empty/],
    ['cut.onnx', file('examples/models/resnet18.onnx').subarray(0, 4000), /not a valid ONNX file/],
    ['bad.json', text('{"ops": [1, 2'), /not valid JSON/],
    ['other.json', text('{"nodes": []}'), /not an op graph: the top level needs an "ops" list/],
    ['latin1.json', Uint8Array.of(0x7b, 0xe9, 0x7d), /not UTF-8/],
  ];
  for (const [name, bytes, why] of cases) {
    const r = importBytes(name, bytes);
    assert.equal(r.ok, false, name);
    assert.match(r.error.message, why, name);
  }
});
