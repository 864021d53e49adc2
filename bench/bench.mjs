// bench/bench.mjs — `npm run bench [-- --full]`: native and WASM timings of the same graphs, in one table.
//
// For each generator (bench/generators.cpp) and size, runs the native driver (build/native/bench/fusion-bench
// --json: per-phase times, the baseline that touches every op and edge once, peak RSS) in its own process,
// then plans the identical graph (same generator, size and seed) through the WASM module in this Node process
// and times the whole text -> plan call against the native one. Default sizes 1k, 10k, 100k; --full adds 1M.
// Prints one table, the scaling exponents (time ~ ops^k; k > 1.2 means doubling the ops costs more than 2.3x)
// and the targets of issue 5. Benchmarks, not tests: nothing here fails on a slow machine.
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { loadFusion } from '../wasm/fusion.mjs';

const args = process.argv.slice(2);
const full = args.includes('--full');
const pick = (flag) => {
  const at = args.indexOf(flag);
  return at >= 0 ? args[at + 1] : undefined;
};
const sizes = (pick('--sizes') ?? (full ? '1000,10000,100000,1000000' : '1000,10000,100000')).split(',').map(Number);
const generators = (pick('--generators') ?? 'chain,fan,diamonds,transformer,random,random_uniform,adversarial').split(
  ',',
);
const nativeBench = 'build/native/bench/fusion-bench';
const generate = 'build/native/bench/fusion-generate';

const fusion = await loadFusion();

function bestMs(repeat, body) {
  let best = Infinity;
  for (let i = 0; i < repeat; i++) {
    const start = performance.now();
    body();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

function runNative(generator, size) {
  const out = execFileSync(nativeBench, ['--json', '--generators', generator, '--sizes', String(size)], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  return JSON.parse(out.trim().split('\n').pop());
}

function runWasm(generator, size) {
  const text = execFileSync(generate, [generator, String(size), '1'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const repeat = size >= 1_000_000 ? 1 : 3;
  let answer = '';
  const ms = bestMs(repeat, () => {
    answer = fusion.planText(text);
  });
  if (!answer.startsWith('{"ok":true')) throw new Error(`WASM failed on ${generator} ${size}: ${answer.slice(0, 200)}`);
  return { ms, heapMiB: fusion.heapBytes() / 2 ** 20 };
}

const rows = [];
const pad = (value, width) => String(value).padStart(width);
const fixed = (value, digits = 1) => (value >= 100 ? value.toFixed(0) : value.toFixed(digits));
const header = [
  'generator'.padEnd(15),
  pad('ops', 8),
  pad('parse', 8),
  pad('valid', 7),
  pad('plan', 8),
  pad('cost', 7),
  pad('verify', 8),
  pad('write', 7),
  pad('base', 7),
  pad('plan/b', 7),
  pad('ns/op', 6),
  pad('native', 8),
  pad('wasm', 8),
  pad('w/n', 5),
  pad('RSS', 6),
  pad('heap', 6),
].join(' ');
console.log('times in ms (best of 3; 1 at 1M ops); native = whole text->plan call natively, wasm = the same in Node;');
console.log('RSS = peak resident MiB of the native process, heap = WASM memory MiB after the call\n');
console.log(header);
for (const generator of generators) {
  for (const size of sizes) {
    const n = runNative(generator, size);
    const w = runWasm(generator, size);
    const row = { generator, size, ...n, wasm_ms: w.ms, heap_mib: w.heapMiB };
    rows.push(row);
    console.log(
      [
        generator.padEnd(15),
        pad(n.ops, 8),
        pad(fixed(n.parse_ms), 8),
        pad(fixed(n.validate_ms), 7),
        pad(fixed(n.plan_ms), 8),
        pad(fixed(n.cost_ms), 7),
        pad(fixed(n.verify_ms), 8),
        pad(fixed(n.write_ms), 7),
        pad(fixed(n.baseline_ms, 2), 7),
        pad((n.plan_ms / n.baseline_ms).toFixed(1), 7),
        pad(Math.round((n.plan_ms * 1e6) / n.ops), 6),
        pad(fixed(n.api_ms), 8),
        pad(fixed(w.ms), 8),
        pad((w.ms / n.api_ms).toFixed(2), 5),
        pad(Math.round(n.peak_rss_kb / 1024), 6),
        pad(Math.round(w.heapMiB), 6),
      ].join(' '),
    );
  }
}

console.log('\nscaling exponent k of plan time between consecutive sizes (time ~ ops^k; k <= 1.2 is near-linear):');
for (const generator of generators) {
  const mine = rows.filter((r) => r.generator === generator);
  const ks = [];
  for (let i = 1; i < mine.length; i++)
    ks.push((Math.log(mine[i].plan_ms / mine[i - 1].plan_ms) / Math.log(mine[i].ops / mine[i - 1].ops)).toFixed(2));
  console.log(`  ${generator.padEnd(15)} ${ks.join('  ')}`);
}

// Generators stop just short of a requested size (whole blocks), so targets go by the requested size.
const largest = Math.max(...rows.map((r) => r.size));
console.log('\ntargets (issue 5):');
const random1m = rows.find((r) => r.generator === 'random' && r.size === 1_000_000);
if (random1m) console.log(`  1M-op random DAG plan < 1000 ms native: ${random1m.plan_ms.toFixed(0)} ms`);
for (const r of rows.filter((r) => r.size === 100_000))
  console.log(`  WASM / native at ${r.ops} ops, ${r.generator}: ${(r.wasm_ms / r.api_ms).toFixed(2)} (target < 2)`);
for (const r of rows.filter((r) => r.size === largest))
  console.log(
    `  planner / baseline at ${r.ops} ops, ${r.generator}: ${(r.plan_ms / r.baseline_ms).toFixed(1)} (target < 20)`,
  );
