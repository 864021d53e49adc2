// errors.test.mjs — bad input gives the same error values in WASM as in the native CLI, one fixture per code.
//
// Each fixture is a small graph written inline with the code it must produce; the CLI (exit status 2) must
// print exactly the error line the WASM result implies: same code, message, path, line, column and count.
// Codes that only options or plan text can cause are checked in module.test.mjs (the CLI takes flags).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadFusion } from '../../wasm/fusion.mjs';
import { runCli } from './native-cli.mjs';

const x = { name: 'x', kind: 'input', shape: [4], dtype: 'f32' };
const graph = (...ops) => JSON.stringify({ ops });

const FIXTURES = [
  ['json_syntax', '{"ops": [ {"kind": "input",\n  "shape": [4] '],
  ['invalid_type', graph({ ...x, shape: 'four' })],
  ['missing_field', graph({ name: 'x', shape: [4], dtype: 'f32' })],
  ['unknown_field', graph({ ...x, colour: 'red' })],
  ['unknown_kind', graph(x, { kind: 'frobnicate', inputs: ['x'], shape: [4], dtype: 'f32' })],
  ['unknown_dtype', graph({ ...x, dtype: 'f7' })],
  ['invalid_dtype_bytes', graph({ name: 'x', kind: 'input', shape: [4], dtype_bytes: 0 })],
  ['invalid_dimension', graph({ ...x, shape: [4, -1] })],
  ['invalid_dimension', graph({ ...x, shape: [1.5] })],
  ['invalid_name', graph({ ...x, name: '' })],
  ['duplicate_name', graph(x, { ...x })],
  ['unknown_input', graph(x, { kind: 'relu', inputs: ['y'], shape: [4], dtype: 'f32' })],
  ['unknown_input', graph(x, { kind: 'relu', inputs: [7], shape: [4], dtype: 'f32' })],
  ['source_with_inputs', graph(x, { kind: 'input', inputs: ['x'], shape: [4], dtype: 'f32' })],
  [
    'cycle',
    graph(
      x,
      { name: 'a', kind: 'add', inputs: ['x', 'b'], shape: [4], dtype: 'f32' },
      { name: 'b', kind: 'relu', inputs: ['a'], shape: [4], dtype: 'f32' },
    ),
  ],
  ['byte_overflow', graph({ name: 'x', kind: 'input', shape: [1073741824, 1073741824], dtype_bytes: 8 })],
  ['unknown_strategy', graph(x), { strategy: 'no-such-strategy' }],
];

const fusion = await loadFusion();

// The line the CLI prints on standard error for a failed result read from standard input:
// "fusion-plan: <stdin>[:line:column]: error[code]: message[ (at path)][ (+N more)]".
function cliErrorLine({ error, errors = [error] }) {
  const where = error.line === undefined ? '' : `:${error.line}:${error.column}`;
  const path = error.path ? ` (at ${error.path})` : '';
  const more = errors.length > 1 ? ` (+${errors.length - 1} more)` : '';
  return `fusion-plan: <stdin>${where}: error[${error.code}]: ${error.message}${path}${more}\n`;
}

for (const [code, text, options = {}] of FIXTURES) {
  const shown = text.replace(/\s+/g, ' ');
  test(`${code}: ${shown.length > 70 ? `${shown.slice(0, 70)}…` : shown}`, () => {
    const wasm = fusion.plan(text, options);
    assert.equal(wasm.ok, false);
    assert.equal(wasm.error.code, code, wasm.error.message);
    const run = runCli(text, options);
    assert.equal(run.status, 2, 'the CLI exits with status 2 on bad input');
    assert.equal(run.stdout, '');
    assert.equal(run.stderr, cliErrorLine(wasm));
  });
}

test('a JSON syntax error carries its line and column', () => {
  const { error } = fusion.plan('{"ops": [\n  {"kind": }\n]}');
  assert.equal(error.code, 'json_syntax');
  assert.equal(error.line, 2);
  assert.equal(typeof error.column, 'number');
});

test('a cycle names an op on it, and its message names the ops on it', () => {
  const { error } = fusion.validate(FIXTURES.find(([code]) => code === 'cycle')[1]);
  assert.equal(error.code, 'cycle');
  assert.ok([1, 2].includes(error.op), `op ${error.op} is not on the cycle a -> b -> a`);
  assert.match(error.message, /\ba\b.*\bb\b|\bb\b.*\ba\b/);
});
