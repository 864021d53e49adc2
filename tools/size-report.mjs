// size-report.mjs — what the built site (dist/) makes a reader download: a table of every chunk, raw and
// gzip, and the total that each way in loads before its first drawn plan, against its budget. Exit status 1
// when a budget is exceeded (tools/build.sh runs this after the site build, so `npm run build` fails).
//
//   node tools/size-report.mjs [DIST]        (default dist/)
//
// Ways in (BUDGETS): the <fusion-playground> element (dist/fusion-playground.js), the light ?embed and the page
// (both dist/index.html: its script, module preloads and style sheet; its script, page/boot.js, imports the
// embed's entry or the page's main.js dynamically). From each, the files it loads up to its first plan are
// followed through the built code: static imports (`from"./x.js"`), workers and assets (`new URL("x",
// import.meta.url)`: the planner and layout workers, the WebAssembly binary), and dynamic imports only of the
// way's chunks loaded at once (its `eager` list: the entry chunk boot.js picks — embed or main — with the files
// Vite preloads along with it (`__vite__mapDeps`), and the planner module's JavaScript half, which
// wasm/fusion-module.mjs imports dynamically so that a missing module is an error value: the plan-only one,
// fusion_plan, for every way in — the page's planner worker imports the full module, fusion_core, only when a
// request needs it, web/src/planner/serve-planner.js). Workers started only
// on use (LAZY and the way's own `lazy`: the ONNX import and share-link workers; the worker of the planner the
// way does not start) and every other dynamic import (ELK, the JSON editor, the compare view, the full module
// for the embed's &code, …) are left out; tests/browser/page-budget.test.mjs measures the same totals as a
// browser transfers them. gzip is zlib's level 9 (what a static host's precompressed files
// or `gzip -9` give). Pure reading of files; no network.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const KiB = 1024;
// The element draws graphs of up to 50 boxes as SVG, without Cytoscape (loaded only for bigger ones), and
// loads the plan-only WebAssembly module (fusion_plan; so does the page, for its first plan), so an embed of
// a small graph is that module and about 30 KiB of JavaScript (bench/RESULTS.md, "Page and embed sizes").
// ?embed has its own entry (embed/embed.js) with the same SVG drawing and plan-only module, and the page's
// HTML and style sheet: about 272 KiB, within issue 19's 300 KiB since the plan-only module left out the
// reference evaluator (wasm/plan_only_numerics.cpp), which no embed runs.
export const BUDGETS = [
  {
    name: 'element (embed of a small graph)',
    entry: 'fusion-playground.js',
    budget: 300 * KiB,
    eager: ['plan-loader'],
    lazy: [],
  },
  {
    name: '?embed of a small graph',
    entry: 'index.html',
    budget: 300 * KiB,
    eager: ['embed', 'plan-loader'],
    lazy: ['planner-worker'],
  },
  {
    name: 'page',
    entry: 'index.html',
    budget: 600 * KiB,
    eager: ['main', 'plan-loader'],
    lazy: ['plan-only-worker', 'search-worker'], // the plan search's worker starts with the first search
  },
];
const LAZY = ['import-worker', 'link-worker'];

// The chunk name of a built file: its base name without the content hash and extension.
export const chunkName = (file) => basename(file).replace(/(-[\w-]{8})?\.[a-z]+$/, '');

function filesUnder(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

// The files one built file makes the browser load before a first plan on one way in ({eager, lazy} of
// BUDGETS), as paths.
export function eagerRefs(path, text, { eager = [], lazy = [] } = {}) {
  const refs = [];
  const add = (spec) => refs.push(resolve(dirname(path), spec));
  if (path.endsWith('.html')) {
    for (const m of text.matchAll(/<(?:script|link)\b[^>]*(?:src|href)="(\.[^"]+)"/g)) add(m[1]);
    return refs;
  }
  if (!path.endsWith('.js')) return refs;
  for (const m of text.matchAll(/(?:from|import)\s*["'`](\.[^"'`]+)["'`]/g)) add(m[1]);
  for (const m of text.matchAll(/new URL\(\s*["'`]([^"'`]+\.(?:js|wasm))["'`]\s*,\s*import\.meta\.url/g)) {
    if (!LAZY.includes(chunkName(m[1])) && !lazy.includes(chunkName(m[1]))) add(m[1]);
  }
  // Vite's preload list: the files it fetches along with a dynamic import (`__vite__mapDeps([i, …])` after it).
  const deps = /__vite__mapDeps=.*?m\.f=(\[[^\]]*\])/.exec(text);
  const list = deps ? JSON.parse(deps[1]) : [];
  for (const m of text.matchAll(
    /import\(\s*["'`](\.[^"'`]+)["'`]\s*\)(?:[^;]{0,80}?__vite__mapDeps\(\[([\d,]*)\]\))?/g,
  )) {
    if (!eager.includes(chunkName(m[1]))) continue;
    add(m[1]);
    // mapDeps paths are relative to the site root's assets folder, as the importing chunk (or the root) sees them
    for (const k of m[2] ? m[2].split(',') : []) if (list[k]) add(list[k].replace(/^\.\/assets\//, './'));
  }
  return refs;
}

export function sizeReport(dist) {
  const files = filesUnder(dist).filter((f) => /\.(js|css|wasm|html)$/.test(f));
  const size = new Map(
    files.map((f) => {
      const bytes = readFileSync(f);
      return [f, { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }];
    }),
  );
  const ways = BUDGETS.map(({ name, entry, budget, ...way }) => {
    const seen = new Set();
    const stack = [join(dist, entry)];
    while (stack.length) {
      const f = stack.pop();
      if (seen.has(f) || !size.has(f)) continue;
      seen.add(f);
      stack.push(...eagerRefs(f, readFileSync(f, 'utf8'), way));
    }
    const gzip = [...seen].reduce((s, f) => s + size.get(f).gzip, 0);
    return { name, budget, gzip, files: [...seen].map((f) => relative(dist, f)) };
  });
  const chunks = files
    .map((f) => ({
      file: relative(dist, f),
      ...size.get(f),
      in: ways.filter((w) => w.files.includes(relative(dist, f))),
    }))
    .sort((a, b) => b.gzip - a.gzip);
  return { chunks, ways };
}

const kib = (n) => `${(n / KiB).toFixed(1)} KiB`;

export function formatReport({ chunks, ways }) {
  const tag = (c) => ways.map((w, k) => (c.in.includes(w) ? String.fromCharCode(65 + k) : '·')).join('');
  const rows = chunks.map(
    (c) => `${c.file.padEnd(44)} ${kib(c.raw).padStart(11)} ${kib(c.gzip).padStart(11)}  ${tag(c)}`,
  );
  const legend = ways.map((w, k) => `${String.fromCharCode(65 + k)} = ${w.name}`).join(', ');
  const totals = ways.map(
    (w) =>
      `${w.gzip > w.budget ? 'OVER ' : 'ok   '}${w.name}: ${kib(w.gzip)} gzipped up to its first plan ` +
      `(budget ${kib(w.budget)}, ${w.files.length} files)`,
  );
  return [
    `${'file'.padEnd(44)} ${'raw'.padStart(11)} ${'gzip'.padStart(11)}  loaded first by`,
    ...rows,
    `(${legend})`,
    ...totals,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = resolve(process.argv[2] ?? 'dist');
  const report = sizeReport(dist);
  console.log(formatReport(report));
  const over = report.ways.filter((w) => w.gzip > w.budget);
  if (over.length) {
    console.error(`size-report: over budget: ${over.map((w) => w.name).join(', ')}`);
    process.exit(1);
  }
}
