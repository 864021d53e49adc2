// onnx-cli.test.mjs — tools/onnx2fusion.mjs: an ONNX model in, graph JSON out; clear errors and exit statuses.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { test } from 'node:test';

import { opTableMarkdown } from '../../web/src/import/onnx/op-table.js';
import { F32, graph, info, modelBytes, node, tensor } from './onnx-model-builder.mjs';

const cli = new URL('../../tools/onnx2fusion.mjs', import.meta.url).pathname;
const run = (...args) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
const dir = mkdtempSync(`${tmpdir()}/onnx2fusion-`);

test('a model becomes graph JSON on stdout, one op per line, with the summary on stderr', () => {
  const file = `${dir}/linear.onnx`;
  writeFileSync(
    file,
    modelBytes(
      graph({
        inputs: [info('x', F32, ['batch', 4])],
        outputs: [info('y', F32)],
        initializers: [tensor('w', F32, [3, 4]), tensor('b', F32, [3])],
        nodes: [node('Gemm', ['x', 'w', 'b'], ['h'], { transB: 1 }), node('Relu', ['h'], ['y'])],
      }),
    ),
  );
  const r = run(file);
  assert.equal(r.status, 0, r.stderr);
  const { ops, dims } = JSON.parse(r.stdout);
  assert.deepEqual(
    ops.map((op) => [op.name, op.kind, op.shape]),
    [
      ['x', 'input', ['batch', 4]],
      ['w', 'constant', [3, 4]],
      ['h/matmul', 'matmul', ['batch', 3]],
      ['b', 'constant', [3]],
      ['h', 'add', ['batch', 3]],
      ['y', 'relu', ['batch', 3]],
    ],
  );
  assert.deepEqual(dims, { batch: 1 });
  assert.ok(r.stdout.startsWith('{"dims": {"batch": 1}, "ops": [\n'), r.stdout);
  assert.equal(r.stdout.split('\n').length, ops.length + 3);
  assert.match(r.stderr, /warning: graph input 'x': dimension 'batch' of 'x' has no value, .*--dim batch=N/);
  assert.match(r.stderr, /2 nodes → 6 ops \(0 opaque, 2 initializers\)/);
  assert.equal(run('--quiet', file).stderr, '');
  const bound = run('--dim', 'batch=32', file);
  assert.deepEqual(JSON.parse(bound.stdout).dims, { batch: 32 });
  assert.doesNotMatch(bound.stderr, /warning/, 'a name with a value owes no warning');
  assert.deepEqual(JSON.parse(run('--dim=batch=7', '--quiet', file).stdout).dims, { batch: 7 });
  const unused = run('--dim', 'seq=4', file);
  assert.match(unused.stderr, /warning: model: no dimension is named 'seq' \(the names used: batch\)/);
});

test('--dim must be NAME=N with N a whole number', () => {
  const file = `${dir}/linear.onnx`;
  for (const bad of [['--dim', 'batch'], ['--dim', 'batch=-1'], ['--dim', 'batch=1.5'], ['--dim']]) {
    const r = run(...bad, file);
    assert.equal(r.status, 2, bad.join(' '));
    assert.match(r.stderr, /usage: /);
  }
  assert.match(run('--dim', 'batch=x', file).stderr, /^onnx2fusion: --dim batch=x: write NAME=N, e\.g\. --dim batch=8/);
});

test('a model that cannot be imported exits 1 naming the file and the node; bad usage exits 2', () => {
  const file = `${dir}/bad.onnx`;
  writeFileSync(
    file,
    modelBytes(
      graph({
        inputs: [info('x', F32, [2, 3])],
        outputs: [info('y', F32)],
        nodes: [node('Custom', ['x'], ['y'], {}, 'mystery')],
      }),
    ),
  );
  const r = run(file);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^onnx2fusion: bad\.onnx: node 'mystery' \(Custom\) at graph\.node\[0\]: /);
  assert.equal(r.stdout, '');
  assert.equal(run().status, 2);
  assert.equal(run(`${dir}/missing.onnx`).status, 2);
});

test('--op-table prints the Markdown table of docs/onnx.md', () => {
  assert.equal(run('--op-table').stdout, opTableMarkdown());
});
