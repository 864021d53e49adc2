// check-paths.test.mjs — tools/check-paths.mjs on small git repositories made in a temp folder: which path
// mentions pass, which fail, and what it prints. The fixtures name paths that exist only there, so:
// check-paths: ignore-file
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const CHECKER = fileURLToPath(new URL('../../tools/check-paths.mjs', import.meta.url));

// Every fixture repository holds these files; `files` adds to them.
const BASE = {
  'README.md': '# A project\n',
  'docs/design.md': '# Design\n\n<a id="graph"></a>\n## 1. The graph\n\n## 2. Errors\n',
  'core/src/planner.cpp': '// planner.cpp\n',
  'tests/web/a.test.mjs': '// a\n',
  'tests/web/b.test.mjs': '// b\n',
  '.gitignore': 'build/\n',
};

// Runs the checker on a fresh git work tree holding BASE and `files`.
function checkRepo(files) {
  const root = mkdtempSync(join(tmpdir(), 'check-paths-'));
  try {
    execFileSync('git', ['init', '--quiet', root]);
    for (const [path, text] of Object.entries({ ...BASE, ...files })) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const run = spawnSync(process.execPath, [CHECKER, root], { encoding: 'utf8' });
    return { status: run.status, out: run.stdout, missing: run.stdout.split('\n').filter((l) => /^\S+:\d+: /.test(l)) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('a path that exists passes, with the closing summary', () => {
  const run = checkRepo({ 'cli/main.cpp': '// Shown by tests/web/a.test.mjs; see core/src/planner.cpp.\n' });
  assert.deepEqual(run.missing, []);
  assert.equal(run.status, 0);
  assert.match(run.out, /^check-paths: 2 path mentions in \d+ files, 0 missing$/m);
  assert.match(run.out, /^paths: \d+ passed, 0 failed$/m);
});

test('a missing path fails, naming the file, the line and the path', () => {
  const run = checkRepo({ 'cli/main.cpp': '// main\n// Shown by tests/core/cli.test.cpp.\n' });
  assert.deepEqual(run.missing, ["cli/main.cpp:2: missing path 'tests/core/cli.test.cpp'"]);
  assert.equal(run.status, 1);
  assert.match(run.out, /^paths: \d+ passed, 1 failed$/m);
});

test('a missing upper-case Markdown file fails; one beside the file passes', () => {
  const run = checkRepo({
    'bench/RESULTS.md': '# Results\n',
    'bench/run.mjs': '// writes RESULTS.md\n',
    'docs/guide.md': 'How to help: CONTRIBUTING.md.\n',
  });
  assert.deepEqual(run.missing, ["docs/guide.md:1: missing path 'CONTRIBUTING.md'"]);
});

test('a glob passes when it matches a file, and fails when it matches none', () => {
  const run = checkRepo({
    'tools/run.mjs': [
      "const files = 'tests/web/*.test.mjs';",
      "const specs = 'tests/{web,core}/<name>.test.mjs';",
      "const none = 'tests/node/*.test.mjs';",
    ].join('\n'),
  });
  assert.deepEqual(run.missing, ["tools/run.mjs:3: nothing matches 'tests/node/*.test.mjs'"]);
});

test('build outputs are allowed even though they are not in the tree', () => {
  const run = checkRepo({
    'docs/usage.md': [
      'Run `build/native/cli/fusion-plan`, or open `dist/index.html`;',
      'the module is wasm/generated/fusion_core.mjs.',
    ].join('\n'),
    'build/notes.md': 'An ignored file is not scanned: docs/nothing.md.\n',
  });
  assert.deepEqual(run.missing, []);
  assert.equal(run.status, 0);
});

test('line suffixes, trailing punctuation, ellipses and relative paths are understood', () => {
  const run = checkRepo({
    'docs/notes.md': [
      'See core/src/planner.cpp:42, core/src/planner.cpp:3:7 and (docs/design.md).',
      'Everything under core/… or tests/web/..., and the folder tests/web/.',
      'Relative paths are not checked: src/nowhere.cpp, ../elsewhere.md, ./there.js.',
      'But a prefix must exist: tools/…',
    ].join('\n'),
  });
  assert.deepEqual(run.missing, ["docs/notes.md:4: no path starts with 'tools/'"]);
});

test('a section or anchor of a Markdown file must exist', () => {
  const run = checkRepo({
    'core/src/planner.cpp': [
      '// The graph: docs/design.md §1 and docs/design.md#graph; errors: docs/design.md#2-errors.',
      '// Cost: docs/design.md §7.',
    ].join('\n'),
  });
  assert.deepEqual(run.missing, ['core/src/planner.cpp:2: docs/design.md has no section §7']);
});

test('lines about another repository, lines marked ignore and files marked ignore-file are skipped', () => {
  const run = checkRepo({
    'tests/core/peers.test.cpp': '  {"repo": "apache/tvm", "path": "tests/python/relay/test_fuse.py"}\n',
    'docs/history.md': 'tests/node was renamed <!-- check-paths: ignore -->\n',
    'tests/tools/fixture.test.mjs': '// check-paths: ignore-file\nconst gone = "docs/gone.md";\n',
    'tests/tools/other.test.mjs':
      'const marker = "check-paths: ignore-file";  // not a comment line\nconst gone = "docs/gone.md";\n',
  });
  assert.deepEqual(run.missing, ["tests/tools/other.test.mjs:2: missing path 'docs/gone.md'"]);
});
