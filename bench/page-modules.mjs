// bench/page-modules.mjs — `node bench/page-modules.mjs` (part of `npm run bench:page`): the page's pure modules
// on big inputs, in Node, best of 3.
//
//   edge diff      diffEdges on two plans of 100,000 edges (a tenth decided differently);
//   layered layout layeredLayout of a 200,000-node chain (the quick placement used when ELK fails or times out);
//   ONNX import    importOnnx of a 10,000-node model with 42 MB of weights, in CPU time.
// Prints one table and the budgets the tests in tests/web once asserted (the tests now check what these do,
// not how fast), one pass/miss line each. A benchmark, not a test: a miss is reported, never failed.
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { diffEdges } from '../web/src/present/edge-diff.js';
import { layeredLayout } from '../web/src/layout/layered-layout.js';
import { importOnnx } from '../web/src/import/onnx/import.js';
import { mlpChainModel } from '../tests/onnx/onnx-model-builder.mjs';

// The best of `repeat` runs of body, by the clock `now` (ms).
function best(body, now = () => performance.now(), repeat = 3) {
  let ms = Infinity;
  for (let i = 0; i < repeat; i++) {
    const start = now();
    body();
    ms = Math.min(ms, now() - start);
  }
  return ms;
}
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function edgeDiff() {
  const n = 100_000;
  const a = {
    edges: Array.from({ length: n }, (_, i) => ({
      producer: i,
      consumer: i + 1,
      fused: i % 2 === 0,
      reason: i % 2 ? 'shape' : undefined,
    })),
  };
  const b = {
    edges: a.edges.map((e, i) => (i % 10 === 0 ? { ...e, fused: !e.fused, reason: e.fused ? 'limit' : undefined } : e)),
  };
  return { what: 'edge diff, 100,000 edges', ms: best(() => diffEdges(a, b)), limit: 3000, clock: 'wall' };
}

function layout() {
  const n = 200_000;
  const children = Array.from({ length: n }, (_, i) => ({ id: `n${i}`, width: 80, height: 46 }));
  const edges = Array.from({ length: n - 1 }, (_, i) => ({ id: `e${i}`, sources: [`n${i}`], targets: [`n${i + 1}`] }));
  return {
    what: 'layered layout, 200,000-node chain',
    ms: best(() => layeredLayout({ children, edges })),
    limit: 5000,
    clock: 'wall',
  };
}

function onnxImport() {
  const bytes = mlpChainModel(2500);
  return {
    what: 'ONNX import, 10,000 nodes, 42 MB of weights',
    ms: best(() => importOnnx(bytes), cpuMs),
    limit: 1000,
    clock: 'CPU',
  };
}

const rows = [edgeDiff(), layout(), onnxImport()];
console.log(
  `the page's modules in Node, best of 3 (load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores), in ms`,
);
console.table(rows.map(({ what, ms, clock }) => ({ what, ms: Math.round(ms), clock })));
console.log('budgets (reported, never failed):');
for (const r of rows)
  console.log(`${r.ms < r.limit ? 'pass' : 'MISS'}  ${r.what}: ${Math.round(r.ms)} ms (limit ${r.limit} ms)`);
