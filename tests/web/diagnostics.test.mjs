// diagnostics.test.mjs — planner errors land on the right text: line/column, or the node a JSON path names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { offsetOf, rangeOfPath, toDiagnostics, summarize, pointerSegments } from '../../web/src/graph/diagnostics.js';

const TEXT =
  '{"ops": [\n  {"name": "x", "kind": "input", "shape": [4], "dtype": "f32"},\n  {"name": "y", "kind": "relu", "inputs": ["nope"], "shape": [4], "dtype": "f32"}\n]}\n';

test('a 1-based line and column map to an offset, clamped to its line', () => {
  assert.equal(offsetOf(TEXT, 1, 1), 0);
  assert.equal(TEXT.slice(offsetOf(TEXT, 2, 4)).slice(0, 6), '"name"');
  assert.equal(offsetOf(TEXT, 2, 999), TEXT.indexOf('\n', 10));
  assert.equal(offsetOf(TEXT, 99, 1), TEXT.length);
});

test('a JSON pointer finds its node in the text', () => {
  assert.deepEqual(pointerSegments('/ops/1/inputs/0'), ['ops', 1, 'inputs', 0]);
  const r = rangeOfPath(TEXT, '/ops/1/inputs/0');
  assert.equal(TEXT.slice(r.from, r.to), '"nope"');
});

test('a path to a missing field points at the nearest existing ancestor, on one line', () => {
  const r = rangeOfPath(TEXT, '/ops/1/dtype_bytes');
  assert.equal(r.from, TEXT.indexOf('{"name": "y"'));
  assert.equal(TEXT.slice(r.from, r.to).includes('\n'), false);
});

test('every error of a result becomes a diagnostic; syntax errors sit at their line', () => {
  const result = {
    ok: false,
    error: { code: 'unknown_input', message: 'op y: input "nope" names no op', path: '/ops/1/inputs/0' },
    errors: [
      { code: 'unknown_input', message: 'op y: input "nope" names no op', path: '/ops/1/inputs/0' },
      { code: 'json_syntax', message: 'unexpected end', line: 3, column: 5 },
    ],
  };
  const d = toDiagnostics(TEXT, result);
  assert.equal(d.length, 2);
  assert.equal(TEXT.slice(d[0].from, d[0].to), '"nope"');
  assert.equal(d[1].from, offsetOf(TEXT, 3, 5));
  assert.equal(d[0].severity, 'error');
  assert.equal(d[0].message, 'op y: input "nope" names no op');
});

test('a broken text still gets a range for a path error', () => {
  const d = toDiagnostics('{"ops": [ {', { ok: false, error: { code: 'x', message: 'm', path: '/ops/0' } });
  assert.ok(d[0].from >= 0 && d[0].to <= 11);
});

test('the summary names the line and column when there is one', () => {
  assert.equal(summarize({ message: 'unexpected end', line: 3, column: 5 }), 'Line 3, column 5: unexpected end');
  assert.equal(summarize({ code: 'cycle', message: 'a → b → a' }), 'a → b → a');
});

test('the summary does not repeat a line the message already names', () => {
  assert.equal(
    summarize({ message: 'JSON syntax error at line 3, column 5: x', line: 3, column: 5 }),
    'JSON syntax error at line 3, column 5: x',
  );
});
