// dims.test.mjs — named dimensions through the WASM module (docs/design.md §13, §16): plans with bindings, loaded
// graphs re-planned without their text, sweeps, and their errors as values; the CLI gives the same bytes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { loadFusion } from '../../wasm/fusion.mjs';
import { runCli } from './native-cli.mjs';

const TRANSFORMER = readFileSync(new URL('../../examples/transformer-mlp.json', import.meta.url), 'utf8');
const NAMED = JSON.stringify({
  dims: { N: 8 },
  ops: [
    { name: 'x', kind: 'input', shape: ['N', 768], dtype: 'f32' },
    { name: 'b', kind: 'input', shape: [768], dtype: 'f32' },
    { name: 'y', kind: 'add', inputs: ['x', 'b'], shape: ['N', 768], dtype: 'f32' },
    { name: 'z', kind: 'relu', inputs: ['y'], shape: ['N', 768], dtype: 'f32' },
  ],
});

test('a plan with names carries its values and formulas, the same bytes as the CLI', async () => {
  const fusion = await loadFusion();
  const text = fusion.planText(NAMED, { dims: { N: 32 } });
  const plan = JSON.parse(text);
  assert.deepEqual(plan.dims, { N: 32 });
  assert.equal(plan.bytes_fused_formula, '9216*N + 6144');
  assert.equal(plan.bytes_fused, 9216 * 32 + 6144);
  assert.equal(plan.grouping_independent_of_dims, true);
  const cli = runCli(NAMED, { dims: { N: 32 } });
  assert.equal(cli.status, 0, cli.stderr);
  assert.equal(cli.stdout, `${text}\n`);
});

test('a loaded graph re-plans with new values exactly as plan() does, until released', async () => {
  const fusion = await loadFusion();
  const loaded = fusion.loadGraph(TRANSFORMER);
  assert.equal(loaded.ok, true, JSON.stringify(loaded.error));
  const names = Object.keys(fusion.plan(TRANSFORMER).dims);
  assert.ok(names.length > 0, 'the example uses names');
  for (const value of [1, 7, 64, 4096]) {
    const options = { strategy: 'xla', dims: Object.fromEntries(names.map((n) => [n, value])) };
    assert.equal(loaded.planText(options), fusion.planText(TRANSFORMER, options));
  }
  loaded.release();
  const after = loaded.plan({});
  assert.equal(after.ok, false);
  assert.match(after.error.message, /no loaded graph has handle/);
  assert.equal(fusion.loadGraph('{"ops": [').error.code, 'json_syntax');
});

test('sweep answers rows and exact change points; bad specs and unbound names are error values', async () => {
  const fusion = await loadFusion();
  const changing = {
    dims: { N: 1 },
    ops: [
      { kind: 'input', shape: ['N'], dtype: 'f32' },
      { kind: 'input', shape: [4], dtype: 'f32' },
      { kind: 'relu', inputs: [0], shape: ['N'], dtype: 'f32' },
      { kind: 'add', inputs: [2, 1], shape: [4], dtype: 'f32' },
    ],
  };
  const sweep = fusion.sweep(changing, undefined, { dim: 'N', from: 1, to: 8 });
  assert.equal(sweep.ok, true, JSON.stringify(sweep.error));
  assert.deepEqual(
    sweep.rows.map((r) => r.value),
    [1, 2, 4, 8],
  );
  assert.deepEqual(
    sweep.changes.map((c) => c.at),
    [2, 4, 5],
  );
  assert.equal(sweep.rows[1].change_at, 2);
  const loaded = fusion.loadGraph(changing);
  assert.deepEqual(loaded.sweep('', { dim: 'N', from: 1, to: 8 }), sweep);
  assert.equal(fusion.sweep(changing, '', { dim: 'M' }).error.path, '/sweep/dim');
  assert.equal(fusion.sweep(changing, '', '{"dim": 3}').error.code, 'invalid_options');
  const unbound = fusion.plan({ ops: [{ kind: 'input', shape: ['K'], dtype: 'f32' }] });
  assert.equal(unbound.error.code, 'unbound_dim');
  assert.equal(unbound.error.path, '/ops/0/shape/0');
  assert.equal(fusion.validate({ ops: [{ kind: 'input', shape: ['K'], dtype: 'f32' }] }).error.code, 'unbound_dim');
  assert.equal(fusion.validate(NAMED).ok, true, 'validate binds the graph at its defaults');
  assert.equal(fusion.plan(NAMED, { dims: { N: -2 } }).error.path, '/dims/N');
  assert.deepEqual(fusion.plan(NAMED, { dims: { Q: 2 } }).warnings[0].code, 'unused_dim');
});
