// bench/strategies.mjs — `npm run bench:strategies [-- --sizes 1000,10000,100000]`: plan time of every strategy
// preset (docs/strategies.md) against seed on every generator, natively.
//
// Runs build/native/bench/fusion-bench --json --strategy S for each preset, generator and size (each in its
// own process), prints plan time, kernels and the ratio to seed, and checks the target of issue 7: no preset
// more than 3x slower than seed at 100k ops. Exits 1 when a ratio at the largest size is above 3 (a benchmark
// gate to run by hand or in a perf job, not in npm test: timings depend on the machine).
import { execFileSync } from 'node:child_process';

const args = process.argv.slice(2);
const pick = (flag) => {
  const at = args.indexOf(flag);
  return at >= 0 ? args[at + 1] : undefined;
};
const sizes = (pick('--sizes') ?? '1000,10000,100000').split(',').map(Number);
const generators = (pick('--generators') ?? 'chain,fan,diamonds,transformer,random,random_uniform,adversarial').split(
  ',',
);
const strategies = ['seed', 'xla', 'xla-classic', 'tvm', 'inductor'];
const bench = 'build/native/bench/fusion-bench';
const limit = 3;

function run(generator, size, strategy) {
  const out = execFileSync(
    bench,
    ['--json', '--repeat', '5', '--generators', generator, '--sizes', String(size), '--strategy', strategy],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  return JSON.parse(out.trim().split('\n').pop());
}

const pad = (v, w) => String(v).padStart(w);
console.log('plan time in ms (best of 5), kernels after fusion, and plan time / seed plan time\n');
console.log(['generator'.padEnd(15), pad('ops', 8), ...strategies.map((s) => pad(s, 22))].join(' '));
const worst = [];
for (const generator of generators) {
  for (const size of sizes) {
    const results = strategies.map((s) => run(generator, size, s));
    const seed = results[0].plan_ms;
    const cells = results.map(
      (r) => `${r.plan_ms.toFixed(1)} ms ${r.kernels_fused} k ${(r.plan_ms / seed).toFixed(2)}x`,
    );
    console.log([generator.padEnd(15), pad(results[0].ops, 8), ...cells.map((c) => pad(c, 22))].join(' '));
    if (size === Math.max(...sizes))
      for (const r of results.slice(1)) worst.push({ generator, strategy: r.strategy, ratio: r.plan_ms / seed });
  }
}
const over = worst.filter((w) => w.ratio > limit);
console.log(
  `\ntarget (issue 7): every preset within ${limit}x of seed at ${Math.max(...sizes)} ops: ` +
    (over.length
      ? `MISSED by ${over.map((w) => `${w.strategy} on ${w.generator} ${w.ratio.toFixed(2)}x`).join(', ')}`
      : 'met'),
);
const max = worst.reduce((a, b) => (b.ratio > a.ratio ? b : a), { ratio: 0 });
console.log(`  worst: ${max.strategy} on ${max.generator}, ${max.ratio.toFixed(2)}x`);
process.exitCode = over.length ? 1 : 0;
