// search.test.mjs — plan search (docs/design.md §17) through the WASM module: the certificate, the same bytes as
// the CLI, and bad search options as error values.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { loadFusion } from '../../wasm/fusion.mjs';
import { runCli } from './native-cli.mjs';

const TRAP = readFileSync(new URL('../core/data/greedy_trap.json', import.meta.url), 'utf8');

test('search finds the plan greedy misses, with a certificate, byte for byte as the CLI', async () => {
  const fusion = await loadFusion();
  const greedy = fusion.plan(TRAP);
  const text = fusion.planText(TRAP, { search: 'optimal' });
  const searched = JSON.parse(text);
  assert.equal(searched.search.status, 'optimal');
  assert.equal(searched.search.greedy_bytes_fused, greedy.bytes_fused);
  assert.ok(searched.bytes_fused < greedy.bytes_fused);
  assert.equal(searched.search.lower_bound, searched.bytes_fused);
  assert.equal(fusion.verify(TRAP, { search: 'optimal' }, text).valid, true);
  const cli = runCli(TRAP, {}, ['--search', 'optimal']);
  assert.equal(cli.status, 0, cli.stderr);
  assert.equal(cli.stdout, `${text}\n`);
});

test('bad search options are error values naming the field', async () => {
  const fusion = await loadFusion();
  assert.equal(fusion.plan(TRAP, { search: 'best' }).error.path, '/search');
  assert.equal(fusion.plan(TRAP, { search: { mode: 'optimal', budget_nodes: 0 } }).error.path, '/search/budget_nodes');
  assert.equal(fusion.plan(TRAP, { strategy: 'xla', search: 'optimal' }).error.path, '/search/mode');
});
