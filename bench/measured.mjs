// bench/measured.mjs — `npm run bench:measured [-- --strategy S] [--only NAME,...]`: the byte model against a real
// machine. For the gallery graphs and generated elementwise chains and diamonds at sizes well beyond the caches, it
// emits the plan's C (fusion-plan --emit c, docs/design.md §19), compiles it with `cc -O2 -std=c11 -lm`, runs it,
// and prints a Markdown table: bytes unfused and fused, the model's speedup_estimate, the best-of-5 times of the
// unfused and fused versions, and the measured speedup. It also checks that every output agrees (max_abs 0 for the
// f32 graphs). Timings depend on the machine and its load: this is a benchmark to run by hand, not a test.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const pick = (flag) => {
  const at = args.indexOf(flag);
  return at >= 0 ? args[at + 1] : undefined;
};
const strategy = pick('--strategy') ?? 'seed';
const only = pick('--only')?.split(',');
const cli = 'build/native/cli/fusion-plan';
const work = mkdtempSync(join(tmpdir(), 'fusion-measured-'));

const op = (name, kind, inputs, shape, dtype = 'f32') => ({ name, kind, inputs, shape, dtype });
const input = (name, shape, dtype = 'f32') => ({ name, kind: 'input', shape, dtype });

// An elementwise chain of `kinds` over a [rows, cols] tensor.
function chain(kinds, rows, cols) {
  const ops = [input('x', [rows, cols])];
  kinds.forEach((kind, i) => ops.push(op(`c${i}`, kind, [ops[ops.length - 1].name], [rows, cols])));
  return { ops };
}

// x -> a; a feeds `width` branches; the branches are summed pairwise into one output.
function diamond(width, rows, cols, kinds) {
  const ops = [input('x', [rows, cols]), op('a', 'relu', ['x'], [rows, cols])];
  let branches = [];
  for (let i = 0; i < width; i++) {
    ops.push(op(`b${i}`, kinds[i % kinds.length], ['a'], [rows, cols]));
    branches.push(`b${i}`);
  }
  let level = 0;
  while (branches.length > 1) {
    const next = [];
    for (let i = 0; i + 1 < branches.length; i += 2) {
      const name = `s${level}_${i / 2}`;
      ops.push(op(name, 'add', [branches[i], branches[i + 1]], [rows, cols]));
      next.push(name);
    }
    if (branches.length % 2) next.push(branches[branches.length - 1]);
    branches = next;
    level++;
  }
  return { ops };
}

const big = [4096, 4096]; // 16 Mi elements: 64 MiB per f32 tensor, far beyond the caches
const cases = [
  { name: 'bias-relu (gallery)', file: 'examples/bias-relu.json' },
  { name: 'broadcast (gallery)', file: 'examples/broadcast.json' },
  { name: 'diamond (gallery)', file: 'examples/diamond.json' },
  { name: 'elementwise-chain (gallery)', file: 'examples/elementwise-chain.json' },
  { name: 'multi-consumer (gallery)', file: 'examples/multi-consumer.json' },
  { name: 'transformer-mlp, tokens=128 (gallery)', file: 'examples/transformer-mlp.json', dims: ['tokens=128'] },
  {
    name: 'attention-scores, batch=1, seq=128 (gallery)',
    file: 'examples/attention-scores.json',
    dims: ['batch=1', 'seq=128'],
  },
  { name: 'chain of 4 cheap ops, 4096x4096', graph: chain(['neg', 'abs', 'relu', 'neg'], ...big) },
  {
    name: 'chain of 8 cheap ops, 4096x4096',
    graph: chain(['neg', 'abs', 'relu', 'neg', 'square', 'neg', 'abs', 'relu'], ...big),
  },
  { name: 'chain of 4 transcendental ops, 4096x4096', graph: chain(['exp', 'tanh', 'sigmoid', 'erf'], ...big) },
  { name: 'diamond of 4 cheap branches, 4096x4096', graph: diamond(4, ...big, ['neg', 'abs', 'square', 'relu']) },
  { name: 'diamond of 4 exp/tanh branches, 4096x4096', graph: diamond(4, ...big, ['exp', 'tanh']) },
];

function measure(c) {
  const file = c.file ?? join(work, `${c.name.replace(/[^a-z0-9]+/gi, '-')}.json`);
  if (c.graph) writeFileSync(file, JSON.stringify(c.graph));
  const dims = (c.dims ?? []).flatMap((d) => ['--dim', d]);
  const source = join(work, 'prog.c');
  const binary = join(work, 'prog');
  writeFileSync(
    source,
    execFileSync(cli, ['--strategy', strategy, ...dims, '--emit', 'c', file], { maxBuffer: 1 << 28 }),
  );
  execFileSync('cc', ['-O2', '-std=c11', source, '-o', binary, '-lm']);
  const out = execFileSync(binary, { encoding: 'utf8', maxBuffer: 1 << 26 });
  const number = (re) => Number(out.match(re)[1]);
  const exact = out
    .split('\n')
    .filter((l) => l.startsWith('output '))
    .every((l) => / max_abs 0 /.test(l));
  return {
    name: c.name,
    bytesUnfused: number(/bytes_unfused (\d+)/),
    bytesFused: number(/bytes_fused (\d+)/),
    estimate: number(/estimate ([0-9.e+-]+)/),
    unfusedMs: number(/^unfused: ([0-9.]+) ms/m),
    fusedMs: number(/^fused: ([0-9.]+) ms/m),
    kernels: `${number(/(\d+) kernels, bytes_unfused/)} → ${number(/(\d+) kernels, bytes_fused/)}`,
    exact,
  };
}

const mb = (b) => (b / 2 ** 20).toFixed(1);
console.log(`strategy ${strategy}; best of 5 runs each; cc -O2 -std=c11\n`);
console.log('| graph | kernels | MiB unfused → fused | estimate | unfused ms | fused ms | measured | results |');
console.log('|---|---|---|---|---|---|---|---|');
for (const c of cases) {
  if (only && !only.some((o) => c.name.startsWith(o))) continue;
  const r = measure(c);
  console.log(
    `| ${r.name} | ${r.kernels} | ${mb(r.bytesUnfused)} → ${mb(r.bytesFused)} | ${r.estimate.toFixed(2)}× | ` +
      `${r.unfusedMs.toFixed(1)} | ${r.fusedMs.toFixed(1)} | ${(r.unfusedMs / r.fusedMs).toFixed(2)}× | ` +
      `${r.exact ? 'identical' : 'differ (f16)'} |`,
  );
}
