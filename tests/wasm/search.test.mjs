// search.test.mjs — plan search (docs/design.md §17) through the WASM module: the certificate, the same bytes as
// the CLI, a time budget, the differences from greedy, and bad search options as error values.
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

test('a time budget through the options object: fixed nodes per ms, both budgets resolved, as the CLI', async () => {
  const fusion = await loadFusion();
  const text = fusion.planText(TRAP, { search: { mode: 'optimal', budget_ms: 2 } });
  const plan = JSON.parse(text);
  assert.deepEqual(plan.options.search, { mode: 'optimal', budget_nodes: 500, budget_ms: 2 });
  const both = fusion.plan(TRAP, { search: { mode: 'optimal', budget_ms: 2, budget_nodes: 3 } });
  assert.deepEqual(both.options.search, { mode: 'optimal', budget_nodes: 3, budget_ms: 2 });
  assert.ok(both.search.nodes <= 3);
  const capped = fusion.plan(TRAP, { search: { mode: 'optimal', budget_ms: 1e12 } });
  assert.deepEqual(
    capped.warnings.map((w) => [w.code, w.path]),
    [['search_budget_capped', '/search/budget_ms']],
  );
  assert.equal(capped.options.search.budget_ms, 3600000);
  const cli = runCli(TRAP, {}, ['--search', 'optimal', '--search-budget-ms', '2']);
  assert.equal(cli.status, 0, cli.stderr);
  assert.equal(cli.stdout, `${text}\n`);
});

test('where greedy went wrong: the differences, in edge order, explained with op names', async () => {
  const fusion = await loadFusion();
  const text = fusion.planText(TRAP, { search: 'optimal' });
  const { search } = JSON.parse(text);
  assert.equal(search.differences_total, 2);
  assert.deepEqual(
    search.differences.map(({ producer, consumer, greedy, optimal }) => [producer, consumer, greedy, optimal]),
    [
      [2, 4, 'fused', 'cut'],
      [4, 5, 'cut', 'fused'],
    ],
  );
  assert.match(search.differences[0].why, /^greedy fused e1 → c \(its 1st merge\), which later kept c → d from fusing/);
  assert.equal(
    search.differences[1].why,
    'greedy fused e1 → c first (its 1st merge); after that, fusing c → d would put matmul m between two parts of ' +
      'one kernel (a cycle)',
  );
  const lying = JSON.parse(text);
  lying.search.differences[1].greedy = 'fused';
  lying.search.differences[1].optimal = 'cut';
  const verdict = fusion.verify(TRAP, { search: 'optimal' }, JSON.stringify(lying));
  assert.equal(verdict.valid, false);
  assert.ok(verdict.violations.some((v) => v.code === 'search'));
});

test('bad search options are error values naming the field', async () => {
  const fusion = await loadFusion();
  assert.equal(fusion.plan(TRAP, { search: 'best' }).error.path, '/search');
  assert.equal(fusion.plan(TRAP, { search: { mode: 'optimal', budget_nodes: 0 } }).error.path, '/search/budget_nodes');
  assert.equal(fusion.plan(TRAP, { search: { mode: 'optimal', budget_ms: 0 } }).error.path, '/search/budget_ms');
  assert.equal(fusion.plan(TRAP, { search: { mode: 'optimal', budget_ms: -1 } }).error.path, '/search/budget_ms');
  const fewerPasses = { strategy: 'xla', rules: { passes: ['priority'] }, search: 'optimal' };
  assert.equal(fusion.plan(TRAP, fewerPasses).error.path, '/search/mode');
});

test('tvm: the fastest plan FuseOps allows, with a time certificate, verified, as the CLI; xla-classic is searched too', async () => {
  const fusion = await loadFusion();
  const graph = readFileSync(new URL('../../examples/models/resnet18.json', import.meta.url), 'utf8');
  const options = { strategy: 'tvm', search: 'optimal' };
  const text = fusion.planText(graph, options);
  const plan = JSON.parse(text);
  const greedy = fusion.plan(graph, { strategy: 'tvm' });
  assert.equal(plan.search.objective, 'time');
  assert.equal(plan.search.status, 'optimal');
  assert.equal(plan.search.greedy_time_fused_us, greedy.time_fused_us);
  assert.ok(plan.search.lower_bound_us <= plan.time_fused_us);
  assert.equal('lower_bound' in plan.search, false);
  assert.equal(fusion.verify(graph, options, text).valid, true);
  const cli = runCli(graph, {}, ['--strategy', 'tvm', '--search', 'optimal']);
  assert.equal(cli.status, 0, cli.stderr);
  assert.equal(cli.stdout, `${text}\n`);
  const classic = fusion.plan(TRAP, { strategy: 'xla-classic', search: 'optimal' });
  assert.equal(classic.search.objective, 'time');
  assert.ok(classic.search.lower_bound_us <= classic.time_fused_us);
  const refused = fusion.plan(TRAP, { strategy: 'xla', rules: { passes: ['priority'] }, search: 'optimal' });
  assert.equal(refused.error.code, 'invalid_options');
  assert.match(
    refused.error.message,
    /'seed', 'xla-classic', 'tvm', 'inductor' and 'xla' \(with all three passes\) so far/,
  );
});

test("xla: the fastest plan of XLA's fusion space, copies included, verified, as the CLI; fewer passes refused", async () => {
  const fusion = await loadFusion();
  const graph = readFileSync(new URL('../../examples/models/bert-layer.json', import.meta.url), 'utf8');
  const options = { strategy: 'xla', search: 'optimal' };
  const text = fusion.planText(graph, options);
  const plan = JSON.parse(text);
  const greedy = fusion.plan(graph, { strategy: 'xla' });
  assert.equal(plan.search.objective, 'time');
  assert.equal(plan.search.status, 'optimal');
  assert.equal(plan.search.greedy_time_fused_us, greedy.time_fused_us);
  assert.ok(plan.search.lower_bound_us <= plan.time_fused_us);
  assert.ok(plan.time_fused_us <= greedy.time_fused_us);
  assert.equal(fusion.verify(graph, options, text).valid, true);
  const cli = runCli(graph, {}, ['--strategy', 'xla', '--search', 'optimal']);
  assert.equal(cli.status, 0, cli.stderr);
  assert.equal(cli.stdout, `${text}\n`);
  const refused = fusion.plan(graph, { strategy: 'xla', rules: { passes: ['priority'] }, search: 'optimal' });
  assert.equal(refused.error.path, '/search/mode');
  assert.match(refused.error.message, /with passes left out/);
});
