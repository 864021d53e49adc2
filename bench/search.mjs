// bench/search.mjs — `npm run bench:search`: plan search (docs/design.md §17) under `seed` on the gallery and on
// generated graphs, natively (the fusion-plan CLI) and in WebAssembly (wasm/fusion.mjs in Node).
//
// Per graph: ops, greedy and searched bytes_fused and kernels, the certificate (status, gap, search nodes), and
// the search's time — native wall time of one CLI run (process start included) and WASM time of planText with
// the search (best of 3). Every searched plan is checked by the WASM module's verifier and must be no worse than
// greedy; a failed check exits 1. The aims (gallery proven optimal within 2 s natively and 4 s in
// WASM; a 100k-op graph bounded by its budget with a valid plan) are printed as met / missed lines, never
// failed: timings depend on the machine. Needs `tools/build.sh native wasm`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { loadFusion } from '../wasm/fusion.mjs';

const CLI = 'build/native/cli/fusion-plan';
const GENERATE = 'build/native/bench/fusion-generate';
const GALLERY = ['resnet18', 'mobilenet-v2', 'bert-layer', 'mlp-gelu'].map((name) => ({
  name,
  text: readFileSync(`examples/models/${name}.json`, 'utf8'),
  gallery: true,
}));
const generated = (name, ops, seed = 1) => ({
  name: `${name} ${ops}`,
  text: execFileSync(GENERATE, [name, String(ops), String(seed)], { encoding: 'utf8', maxBuffer: 1 << 28 }),
});
const GRAPHS = [
  ...GALLERY,
  { name: 'greedy trap', text: readFileSync('tests/core/data/greedy_trap.json', 'utf8') },
  generated('random', 50),
  generated('random', 200),
  generated('transformer', 1000),
  generated('random', 100000),
];

function native(text) {
  const start = performance.now();
  const out = execFileSync(CLI, ['--search', 'optimal', '-'], { input: text, encoding: 'utf8', maxBuffer: 1 << 28 });
  return { ms: performance.now() - start, text: out.trimEnd(), plan: JSON.parse(out) };
}

function wasm(fusion, text) {
  let ms = Infinity;
  let planText = '';
  for (let k = 0; k < 3; k++) {
    const start = performance.now();
    planText = fusion.planText(text, { search: 'optimal' });
    ms = Math.min(ms, performance.now() - start);
  }
  return { ms, planText };
}

const fusion = await loadFusion();
const pad = (v, w) => String(v).padStart(w);
console.log(`plan search under seed; load ${loadavg()[0].toFixed(1)}\n`);
console.log(
  [
    'graph'.padEnd(16),
    pad('ops', 7),
    pad('greedy bytes', 14),
    pad('searched', 14),
    pad('kernels', 9),
    pad('status', 8),
    pad('gap', 7),
    pad('nodes', 8),
    pad('native ms', 10),
    pad('wasm ms', 9),
  ].join(' '),
);
let failed = false;
const misses = [];
for (const graph of GRAPHS) {
  const ops = JSON.parse(graph.text).ops.length;
  const n = native(graph.text);
  const w = wasm(fusion, graph.text);
  const plan = n.plan;
  const s = plan.search;
  const verdict = fusion.verify(graph.text, { search: 'optimal' }, w.planText);
  const same = w.planText === n.text; // the same plan, byte for byte, natively and in WASM
  if (!verdict.valid || plan.bytes_fused > s.greedy_bytes_fused || !same) {
    console.error(
      `${graph.name}: valid ${verdict.valid}, no worse ${plan.bytes_fused <= s.greedy_bytes_fused}, same ${same}`,
    );
    failed = true;
  }
  const greedyKernels = fusion.plan(graph.text).kernels_fused;
  console.log(
    [
      graph.name.padEnd(16),
      pad(ops, 7),
      pad(s.greedy_bytes_fused, 14),
      pad(plan.bytes_fused, 14),
      pad(`${greedyKernels}→${plan.kernels_fused}`, 9),
      pad(s.status, 8),
      pad(`${(s.gap * 100).toFixed(1)}%`, 7),
      pad(s.nodes, 8),
      pad(n.ms.toFixed(0), 10),
      pad(w.ms.toFixed(0), 9),
    ].join(' '),
  );
  if (graph.gallery && (s.status !== 'optimal' || n.ms > 2000 || w.ms > 4000))
    misses.push(`${graph.name}: ${s.status}, native ${n.ms.toFixed(0)} ms, wasm ${w.ms.toFixed(0)} ms`);
}
console.log(
  misses.length
    ? `\nmissed: ${misses.join('; ')}`
    : '\nmet: every gallery model proven optimal within 2 s natively and 4 s in WASM',
);
process.exit(failed ? 1 : 0);
