// bench/search.mjs — `npm run bench:search`: plan search (docs/design.md §17) under `seed` on the gallery and on
// generated graphs, then under every preset on the gallery, natively (the fusion-plan CLI) and in WebAssembly
// (wasm/fusion.mjs in Node).
//
// Per graph: ops, greedy and searched bytes_fused and kernels, the certificate (status, gap, search nodes), and
// the search's time — native wall time of one CLI run (process start included) and WASM time of planText with
// the search (best of 3). Every searched plan is checked by the WASM module's verifier and must be no worse than
// greedy; a failed check exits 1. The aims (gallery proven optimal within 2 s natively and 4 s in
// WASM; a 100k-op graph bounded by its budget with a valid plan) are printed as met / missed lines, never
// failed: timings depend on the machine.
//
// Per preset (every strategy of the core's catalog) and gallery model (and the page's greedy trap, outside the aim):
// the search's objective (bytes under seed, estimated time under tvm), greedy vs searched bytes_fused, time_fused_us
// and kernels, status, gap, nodes and the native and WASM times, all as the core gives them (greedy's bytes and time
// from search.greedy_bytes_fused and search.greedy_time_fused_us). Each searched plan is verified, must be no worse
// than greedy in its objective and the same natively and in WASM, else exit 1. A strategy the core refuses to search
// is a "refused: <message>" line (its error message, the same natively and in WASM), not a failure. The aim
// "for each preset, optimal or ≤ 1 % gap within 2 s" (natively and in WASM) is printed per preset as met / missed,
// never failed. Needs `tools/build.sh native wasm`.
import { execFileSync, spawnSync } from 'node:child_process';
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

// One CLI run with the search (wall time, process start included); error: the CLI's message when it refuses.
function native(text, strategy = 'seed') {
  const args = ['--strategy', strategy, '--search', 'optimal', '-'];
  const start = performance.now();
  const run = spawnSync(CLI, args, { input: text, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - start;
  if (run.status !== 0) return { ms, error: run.stderr.trim() };
  return { ms, text: run.stdout.trimEnd(), plan: JSON.parse(run.stdout) };
}

// planText with the search, best of 3 (one run when the module refuses).
function wasm(fusion, text, strategy = 'seed') {
  let ms = Infinity;
  let planText = '';
  for (let k = 0; k < 3; k++) {
    const start = performance.now();
    planText = fusion.planText(text, { strategy, search: 'optimal' });
    ms = Math.min(ms, performance.now() - start);
    if (planText.startsWith('{"error"')) break;
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
  if (n.error) throw new Error(`${graph.name}: the CLI refused the seed search: ${n.error}`);
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

// Per preset: each strategy of the core's catalog on each gallery model, and on the page's greedy trap (where
// FuseOps' grouping is not the fastest; not part of the aim).
const PRESET_GRAPHS = [...GALLERY, { name: 'greedy-trap', text: readFileSync('examples/greedy-trap.json', 'utf8') }];
const AIM_MS = 2000;
const AIM_GAP = 0.01;
const us = (v) => (typeof v === 'number' ? v.toFixed(1) : '–');
console.log(`\nplan search per preset on the gallery and the greedy trap; load ${loadavg()[0].toFixed(1)}\n`);
console.log(
  [
    'model'.padEnd(13),
    'strategy'.padEnd(12),
    pad('objective', 9),
    pad('greedy bytes', 13),
    pad('searched', 13),
    pad('greedy µs', 10),
    pad('searched µs', 11),
    pad('kernels', 9),
    pad('status', 8),
    pad('gap', 6),
    pad('nodes', 7),
    pad('native ms', 9),
    pad('wasm ms', 8),
  ].join(' '),
);
const aims = []; // [strategy, line]
for (const { name: strategy } of fusion.catalog().strategies) {
  const missed = [];
  const refused = new Map(); // message → models
  for (const graph of PRESET_GRAPHS) {
    const options = { strategy, search: 'optimal' };
    const n = native(graph.text, strategy);
    const w = wasm(fusion, graph.text, strategy);
    const answer = JSON.parse(w.planText);
    if (n.error || answer.error) {
      const message = answer.error?.message ?? n.error;
      // Refused alike natively and in WASM: the CLI prints the module's message (with where).
      if (!n.error || !answer.error || !n.error.includes(message)) {
        console.error(`${graph.name} ${strategy}: native ${n.error ?? 'searched'}, wasm ${message ?? 'searched'}`);
        failed = true;
      }
      refused.set(message, [...(refused.get(message) ?? []), graph.name]);
      continue;
    }
    const plan = n.plan;
    const s = plan.search;
    const time = s.objective === 'time';
    const verdict = fusion.verify(graph.text, options, w.planText);
    const noWorse = time ? plan.time_fused_us <= s.greedy_time_fused_us : plan.bytes_fused <= s.greedy_bytes_fused;
    const same = w.planText === n.text;
    if (!verdict.valid || !noWorse || !same) {
      console.error(`${graph.name} ${strategy}: valid ${verdict.valid}, no worse ${noWorse}, same ${same}`);
      failed = true;
    }
    const greedy = fusion.plan(graph.text, { strategy });
    console.log(
      [
        graph.name.padEnd(13),
        strategy.padEnd(12),
        pad(s.objective ?? 'bytes', 9),
        pad(s.greedy_bytes_fused, 13),
        pad(plan.bytes_fused, 13),
        pad(us(s.greedy_time_fused_us ?? greedy.time_fused_us), 10),
        pad(us(plan.time_fused_us), 11),
        pad(`${greedy.kernels_fused}→${plan.kernels_fused}`, 9),
        pad(s.status, 8),
        pad(`${(s.gap * 100).toFixed(1)}%`, 6),
        pad(s.nodes, 7),
        pad(n.ms.toFixed(0), 9),
        pad(w.ms.toFixed(0), 8),
      ].join(' '),
    );
    if (!graph.gallery) continue;
    if ((s.status !== 'optimal' && !(s.gap <= AIM_GAP)) || n.ms > AIM_MS || w.ms > AIM_MS)
      missed.push(
        `${graph.name} ${s.status} (gap ${(s.gap * 100).toFixed(1)} %), native ${n.ms.toFixed(0)} ms, wasm ${w.ms.toFixed(0)} ms`,
      );
  }
  for (const [message, models] of refused) {
    const on = models.length === PRESET_GRAPHS.length ? 'every graph' : models.join(', ');
    console.log(`${strategy.padEnd(12)} refused on ${on}: ${message}`);
    missed.push(`refused on ${on}`);
  }
  aims.push(
    missed.length
      ? `missed: ${strategy} — ${missed.join('; ')}`
      : `met: ${strategy} — every gallery model optimal or within 1 % of its bound in 2 s, natively and in WASM`,
  );
}
console.log(`\naim: for each preset, optimal or ≤ 1 % gap within 2 s\n${aims.join('\n')}`);
process.exit(failed ? 1 : 0);
