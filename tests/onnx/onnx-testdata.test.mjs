// onnx-testdata.test.mjs — the ONNX importer over every model of Debian's libonnx-testdata (ONNX's own backend
// test models, 1,072 in version 1.12: single-op node tests, PyTorch-converted and PyTorch-operator models,
// small multi-op models). Nobody here wrote them.
//
// Each model either
//   imports: the graph plans through the WASM core (and the plan verifies); every graph output has the shape of
//     the model's test output (test_data_set_0/output_<k>.pb) and agrees with the declared output dims; no
//     inferred shape or type contradicts a declared one; each node became ops of the kind op-table.js names,
//     and of the core's own kind for op types the core knows by name (web/src/graph/op-kinds.js reads
//     the core's catalog()), or a constant when its value was folded; opaque, nearest-kind and If/Loop/Scan ops
//     carry their ONNX type as their label, and no other op has a label; or
//   fails with an OnnxImportError that names the node (or part) and its path, with a reason code other than
//     'internal'.
// Each imported model is also imported with every declared shape removed (but the graph inputs'), so shapes
// must come from inference: whatever still imports must have the test data's output shapes.
// Models run in a worker thread, one at a time, each within MODEL_BUDGET_MS: a model that takes longer is a hang
// (the worker is replaced). The test prints the import rate, failures per reason and timings, and fails if fewer
// than MIN_IMPORTED models import or fewer than MIN_INFERRED get their shapes by inference alone.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';

import { OP_TABLE, hasLabel, lookupOp } from '../../web/src/import/onnx/op-table.js';
import { canonicalKind, categoryOf } from '../../web/src/graph/op-kinds.js';
import { loadFusion } from '../../wasm/fusion.mjs';

const ROOT = '/usr/share/libonnx-testdata/data';
const MODEL_BUDGET_MS = 30_000; // a hang guard: the slowest model takes a few ms
const LOAD_BUDGET_MS = 60_000; // a new worker loading its modules on a busy machine
// Floors, a little under what was measured (1,015 of 1,072 import; 876 of those get every shape by inference
// alone): a construct or a shape rule that stops working fails the test.
const MIN_IMPORTED = 1_010;
const MIN_INFERRED = 870;

function modelDirs() {
  return readdirSync(ROOT, { recursive: true })
    .filter((p) => p.endsWith('/model.onnx'))
    .map((p) => `${ROOT}/${p.slice(0, -'/model.onnx'.length)}`)
    .sort();
}

// One worker at a time; a model that does not answer within the budget is reported and the worker replaced.
class Sweeper {
  constructor() {
    this.next = 0;
    this.start();
  }

  start() {
    this.worker = new Worker(new URL('./onnx-sweep-worker.mjs', import.meta.url));
    this.worker.unref();
    this.loaded = this.ask(null, LOAD_BUDGET_MS);
  }

  async run(dir) {
    if ((await this.loaded).hang) throw new Error('the sweep worker did not start');
    return this.ask(dir, MODEL_BUDGET_MS);
  }

  ask(dir, budget) {
    const id = this.next++;
    return new Promise((done) => {
      const timer = setTimeout(() => {
        this.worker.off('message', onMessage);
        this.worker.terminate();
        this.start();
        done({ hang: true });
      }, budget);
      const onMessage = (reply) => {
        if (reply.id !== id) return;
        clearTimeout(timer);
        this.worker.off('message', onMessage);
        done(reply);
      };
      this.worker.on('message', onMessage);
      this.worker.postMessage({ id, dir });
    });
  }

  close() {
    return this.worker.terminate();
  }
}

// What kinds a node's ops may have, by how its row lowers it.
function allowedKinds(row) {
  switch (row.lower) {
    case 'gemm':
      return ['matmul', 'add'];
    case 'elide':
      return ['constant'];
    default:
      return [row.kind];
  }
}

function kindProblems(r) {
  const problems = [];
  for (const rec of r.provenance) {
    const ops = rec.ops.map((i) => r.ops[i]);
    const row = lookupOp(rec.domain, rec.opType);
    const where = `${rec.path} ${rec.opType}`;
    if (!row) {
      if (!ops.every((op) => op.kind === 'opaque' && op.label === rec.opType))
        problems.push(`${where}: an unknown op must be opaque and labelled with its type`);
      continue;
    }
    const allowed = rec.folded ? ['constant'] : allowedKinds(row);
    const bad = ops.filter((op) => !allowed.includes(op.kind));
    if (bad.length) problems.push(`${where}: kinds ${bad.map((op) => op.kind)} where op-table.js says ${allowed}`);
    const wanted = (op) => (hasLabel(row) && op.kind !== 'constant' ? rec.opType : undefined);
    if (!ops.every((op) => op.label === wanted(op))) {
      problems.push(
        `${where}: labels ${ops.map((op) => op.label)}; only opaque, nearest-kind and control-flow ops carry their type`,
      );
    }
    const coreKnows =
      categoryOf(rec.opType) !== 'unknown' && !row.approx && !rec.folded && ['node', 'gemm'].includes(row.lower);
    if (coreKnows && ops.length && !ops.some((op) => op.kind === canonicalKind(rec.opType))) {
      problems.push(
        `${where}: the core calls this kind ${canonicalKind(rec.opType)}, the import made ${ops.map((op) => op.kind)}`,
      );
    }
  }
  return problems;
}

function shapeProblems(r) {
  const problems = [];
  const outputs = new Map(r.outputs);
  for (const { name, declared, data } of r.expected) {
    const op = r.ops[outputs.get(name)];
    if (!op) {
      problems.push(`output '${name}' has no op`);
      continue;
    }
    if (data && JSON.stringify(op.shape) !== JSON.stringify(data))
      problems.push(`output '${name}': [${op.shape}], test data [${data}]`);
    const clash =
      declared &&
      (declared.length !== op.shape.length || declared.some((d, i) => typeof d === 'number' && d !== op.shape[i]));
    if (clash) problems.push(`output '${name}': [${op.shape}], declared [${declared}]`);
  }
  for (const w of r.warnings) if (/inferred as .* but the model declares/.test(w)) problems.push(`warning: ${w}`);
  return problems;
}

// With declared shapes removed, whatever imports must still have the test data's output shapes.
function inferenceProblems(r) {
  const { inferred } = r;
  if (!inferred.ok) return inferred.internal ? [`without declared shapes: ${inferred.message}`] : [];
  return r.expected.flatMap(({ name, data }) => {
    const shape = inferred.shapes[name];
    return data && JSON.stringify(shape) !== JSON.stringify(data)
      ? [`inferred output '${name}' [${shape}], test data [${data}]`]
      : [];
  });
}

function errorProblems(e) {
  const problems = [];
  if (e.name !== 'OnnxImportError') problems.push(`crashed with ${e.name}: ${e.message}\n${e.stack}`);
  else {
    if (e.code === 'internal') problems.push(`internal error: ${e.message}\n${e.stack}`);
    if (!e.node || !e.path || !e.message.includes(e.path))
      problems.push(`the error does not name its place: ${e.message}`);
    if (e.opType && !e.message.includes(`(${e.opType})`))
      problems.push(`the error does not name the op type: ${e.message}`);
  }
  return problems;
}

function tally(counts, key, sub) {
  const entry = counts.get(key) ?? { n: 0, by: new Map() };
  entry.n += 1;
  entry.by.set(sub, (entry.by.get(sub) ?? 0) + 1);
  counts.set(key, entry);
}

function printTally(counts) {
  for (const [code, { n, by }] of [...counts].sort((a, b) => b[1].n - a[1].n)) {
    const top = [...by]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([k, c]) => `${k} ${c}`)
      .join(', ');
    console.log(`  ${code}: ${n} (${top}${by.size > 8 ? ', …' : ''})`);
  }
}

function report(dirs, imported, failures, inference, times) {
  const pct = (n, of) => `${((100 * n) / of).toFixed(1)}%`;
  console.log(
    `ONNX import rate: ${imported} of ${dirs.length} models (${pct(imported, dirs.length)}); failures by reason:`,
  );
  printTally(failures);
  console.log(
    `shapes by inference alone (declared shapes removed): ${inference.ok} of ${imported} imported models ` +
      `(${pct(inference.ok, imported)}); the others need a declared shape:`,
  );
  printTally(inference.failures);
  const total = times.reduce((a, t) => a + t.ms, 0);
  const slowest = times.reduce((a, t) => (t.ms > a.ms ? t : a), { ms: 0 });
  console.log(
    `import time: ${total.toFixed(0)} ms in all, slowest ${slowest.ms.toFixed(1)} ms (${slowest.dir?.slice(ROOT.length + 1)})`,
  );
}

test(
  'every model of libonnx-testdata imports (right kinds and shapes) or fails naming the node',
  { timeout: 180_000 },
  async () => {
    assert.ok(
      existsSync(ROOT),
      `${ROOT} is missing: install the Debian package libonnx-testdata (tools/setup.sh does)`,
    );
    const dirs = modelDirs();
    assert.ok(dirs.length >= 1000, `found ${dirs.length} models under ${ROOT}`);
    const fusion = await loadFusion();
    const sweeper = new Sweeper();
    const problems = [];
    const failures = new Map();
    const times = [];
    const inference = { ok: 0, failures: new Map() };
    const named = [];
    let imported = 0;
    try {
      for (const dir of dirs) {
        const r = await sweeper.run(dir);
        const name = dir.slice(ROOT.length + 1);
        if (r.hang) {
          problems.push(`${name}: no answer within ${MODEL_BUDGET_MS} ms`);
          continue;
        }
        times.push({ ms: r.ms, dir });
        if (!r.ok) {
          tally(failures, r.error.code ?? r.error.name, r.error.opType || r.error.node?.replace(/ '.*'$/, ''));
          problems.push(...errorProblems(r.error).map((p) => `${name}: ${p}`));
          continue;
        }
        imported += 1;
        const graph = Object.keys(r.dims).length ? { dims: r.dims, ops: r.ops } : { ops: r.ops };
        if (graph.dims) named.push(`${name}: ${Object.keys(r.dims)}`);
        const plan = fusion.plan(graph);
        if (!plan.ok) problems.push(`${name}: the core rejects the graph: ${plan.error.message}`);
        else if (!fusion.verify(graph, {}, plan).valid) problems.push(`${name}: the plan does not verify`);
        problems.push(
          ...[...shapeProblems(r), ...kindProblems(r), ...inferenceProblems(r)].map((p) => `${name}: ${p}`),
        );
        if (r.inferred.ok) inference.ok += 1;
        else tally(inference.failures, r.inferred.code, r.inferred.opType);
      }
    } finally {
      await sweeper.close();
    }
    report(dirs, imported, failures, inference, times);
    console.log(`models whose graphs name dimensions: ${named.length}${named.length ? ` (${named.join('; ')})` : ''}`);
    assert.deepEqual(problems, []);
    assert.ok(imported >= MIN_IMPORTED, `only ${imported} models import; the floor is ${MIN_IMPORTED}`);
    assert.ok(
      inference.ok >= MIN_INFERRED,
      `only ${inference.ok} models get their shapes by inference; the floor is ${MIN_INFERRED}`,
    );
    assert.ok(Object.keys(OP_TABLE).length > 100);
  },
);
