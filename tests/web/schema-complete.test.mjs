// schema-complete.test.mjs — the JSON box completes op fields, kinds and dtypes from the JSON Schema.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { schemaCompletions } from '../../web/src/graph/schema-complete.js';

const schema = JSON.parse(readFileSync(new URL('../../schema/graph.schema.json', import.meta.url), 'utf8'));
const at = (text, marker) => schemaCompletions(text.replace(marker, ''), text.indexOf(marker), schema);

test('inside the value of "kind" every kind of the schema is offered, with its category', () => {
  const r = at('{"ops": [{"name": "x", "kind": "re|", "shape": [4]}]}', '|');
  assert.equal(r.options.length, schema.definitions.kind.enum.length);
  const relu = r.options.find((o) => o.label === 'relu');
  assert.deepEqual([relu.apply, relu.detail], ['relu', 'elementwise']);
  assert.equal(r.options.find((o) => o.label === 'matmul').detail, 'barrier');
  assert.deepEqual([r.from, r.to], [32, 34], 'the word between the quotes is replaced');
});

test('inside the value of "dtype" the dtypes are offered', () => {
  const r = at('{"ops": [{"kind": "input", "dtype": "|"}]}', '|');
  assert.deepEqual(
    r.options.map((o) => o.label),
    schema.definitions.dtype.enum,
  );
});

test('at a key inside an op, the fields not yet written are offered; outside quotes they bring their own', () => {
  const r = at('{"ops": [{"name": "x", "kind": "input", |}]}', '|');
  assert.deepEqual(r.options.map((o) => o.label).sort(), [
    'dtype',
    'dtype_bytes',
    'inputs',
    'label',
    'output',
    'region',
    'shape',
  ]);
  assert.equal(r.options.find((o) => o.label === 'shape').apply, '"shape": ');
  assert.ok(
    r.options.every((o) => o.info),
    'each field has its description',
  );
});

test('at the top level "ops" is offered; elsewhere nothing', () => {
  assert.deepEqual(
    at('{"|"}', '|').options.map((o) => o.label),
    ['ops'],
  );
  assert.equal(at('{"ops": [{"shape": [4|]}]}', '|'), null);
  assert.equal(at('{"ops": [{"name": "a|"}]}', '|'), null);
});
