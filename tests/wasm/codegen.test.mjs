// codegen.test.mjs — generated code through the WASM module (docs/design.md §19): a group's kernel with its
// annotated lines, the same from a loaded graph, the native CLI's kernels, and error values for bad requests.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { loadFusion } from '../../wasm/fusion.mjs';

const root = new URL('../../', import.meta.url);
const MLP = readFileSync(new URL('examples/transformer-mlp.json', root), 'utf8');
const CLI = new URL('build/native/cli/fusion-plan', root).pathname;

test('a group of the transformer MLP: its kernel, its load/store lines and their bytes', async () => {
  const fusion = await loadFusion();
  const options = { strategy: 'tvm' };
  const plan = fusion.plan(MLP, options);
  const group = plan.groups.find((g) => g.label === 'matmul+bias+act');
  const answer = fusion.code(MLP, options, { dialect: 'c', group: group.id });
  assert.equal(answer.ok, true, JSON.stringify(answer.error));
  const [kernel] = answer.groups;
  assert.match(kernel.code, /naive matmul/);
  const sum = (kind) => kernel.lines.filter((l) => l.kind === kind).reduce((s, l) => s + l.bytes, 0);
  assert.equal(sum('load'), group.bytes_read);
  assert.equal(sum('store'), group.bytes_written);
  assert.deepEqual(new Set(kernel.lines.filter((l) => l.kind === 'load').map((l) => l.op)), new Set(group.inputs));
  const loaded = fusion.loadGraph(MLP);
  assert.deepEqual(loaded.code(options, { dialect: 'c', group: group.id }), answer);
  loaded.release();
  const triton = fusion.code(MLP, options, { dialect: 'triton', group: group.id });
  assert.match(triton.groups[0].code, /acc \+= tl\.dot\(a, b\)/);
});

test('every kernel of the module is a kernel of the CLI program', { skip: !existsSync(CLI) }, async () => {
  const fusion = await loadFusion();
  const program = execFileSync(CLI, ['--strategy', 'inductor', '--emit', 'c', '-'], { input: MLP, encoding: 'utf8' });
  const answer = fusion.code(MLP, { strategy: 'inductor' }, { dialect: 'c' });
  assert.equal(answer.groups.length, fusion.plan(MLP, { strategy: 'inductor' }).groups.length);
  for (const g of answer.groups) assert.ok(program.includes(g.code), `group ${g.id} is in the program`);
});

test('a bad request is an error value', async () => {
  const fusion = await loadFusion();
  assert.equal(fusion.code(MLP, '', { dialect: 'cuda' }).error.path, '/dialect');
  assert.match(fusion.code(MLP, '', { group: 99 }).error.message, /group 99 is not in the plan/);
  assert.equal(fusion.code(MLP, '', 'not json').error.code, 'invalid_options');
  assert.equal(fusion.code(MLP, '', null).error.code, 'invalid_type');
});
