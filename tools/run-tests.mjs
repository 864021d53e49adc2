// run-tests.mjs — runs every test suite after a build: lint first (tools/lint.mjs: ESLint and Prettier, so a
// layout slip shows early), the path check (tools/check-paths.mjs: every repository path a file names exists),
// ctest (build/native), the same ctest under ASan + UBSan (build/native's sanitized.* entries), the WASM module's tests (tests/wasm), the
// ONNX importer's (tests/onnx), page-module tests (tests/web, pure modules in Node), our tools' tests
// (tests/tools), browser tests, and the Python tests of the PyTorch exporter (tests/python, unittest under
// Debian's /usr/bin/python3 with python3-torch).
//
// Each runner's own output streams through unchanged (including its summary lines); all suites run even when
// one fails, then a closing line "tests: N passed, M failed" sums them (a suite that failed without a failing
// test, e.g. it crashed or found no tests, counts as one failure). Exit status: 0 only when every suite
// ran, found at least one test and passed. Run by `npm test` after tools/build.sh (from any folder).
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

process.chdir(fileURLToPath(new URL('..', import.meta.url)));

const testFiles = (folder) =>
  readdirSync(folder)
    .filter((name) => name.endsWith('.test.mjs'))
    .sort()
    .map((name) => `${folder}/${name}`);

// "100% tests passed, 0 tests failed out of 57"
function countCtest(out) {
  const m = out.match(/tests passed, (\d+) tests? failed out of (\d+)/);
  return m && { failed: Number(m[1]), passed: Number(m[2]) - Number(m[1]) };
}

// The doctest suite again under AddressSanitizer + UBSan (label sanitized, `tools/build.sh asan`): the first report
// ends the test binary with a failing status (UBSan is built with -fno-sanitize-recover=all), leaks included. The
// core library is instrumented, the test files themselves are not: they are the native run's own objects, linked a
// second time (tests/core/CMakeLists.txt).
// The random property suites run an eighth of their cases there (FUSION_TEST_SCALE, tests/core/test_scale.h), and
// the few size-limit cases (100,000-op graphs) skip: each case is 10-20x slower under the sanitizers, and the native
// run already runs them all.
const SANITIZER_ENV = {
  FUSION_TEST_SCALE: '8',
  ASAN_OPTIONS:
    'halt_on_error=1:abort_on_error=0:detect_leaks=1:detect_stack_use_after_return=1:' +
    'check_initialization_order=1:strict_init_order=1:strict_string_checks=1',
  UBSAN_OPTIONS: 'halt_on_error=1:print_stacktrace=1',
};

const SUITES = [
  { name: 'lint', command: [process.execPath, 'tools/lint.mjs'], count: countSummary },
  { name: 'paths', command: [process.execPath, 'tools/check-paths.mjs'], count: countSummary },
  {
    name: 'ctest',
    command: ['ctest', '--test-dir', 'build/native', '-LE', 'sanitized', '--output-on-failure', '-j', '2'],
    count: countCtest,
  },
  {
    name: 'asan',
    // There are no sanitized codegen_run tests (tests/core/CMakeLists.txt): they compile and run the emitted C
    // with cc, which the sanitizers do not watch (the emitter itself runs under them in codegen).
    command: ['ctest', '--test-dir', 'build/native', '-L', 'sanitized', '--output-on-failure', '-j', '2'],
    count: countCtest,
    env: SANITIZER_ENV,
  },
  { name: 'wasm', command: nodeTest(testFiles('tests/wasm')), count: countNodeTest },
  { name: 'onnx', command: nodeTest(testFiles('tests/onnx')), count: countNodeTest },
  { name: 'web', command: nodeTest(testFiles('tests/web')), count: countNodeTest },
  { name: 'tools', command: nodeTest(testFiles('tests/tools')), count: countNodeTest },
  { name: 'browser', command: nodeTest(testFiles('tests/browser')), count: countNodeTest },
  {
    name: 'python',
    command: ['/usr/bin/python3', '-B', '-m', 'unittest', 'discover', '-s', 'tests/python'],
    count: countUnittest,
  },
];

// Two test files at a time: Node's default (one less than the cores) runs them one by one on a 2-core machine,
// and each file is a process of its own (its own WASM instance, Chromium and static server on a free port).
function nodeTest(files) {
  return [process.execPath, '--test', '--test-concurrency=2', '--test-reporter=spec', ...files];
}

// Our own tools' closing line (tools/lint.mjs, tools/check-paths.mjs): "lint: 170 passed, 1 failed".
function countSummary(out) {
  const m = out.match(/^\w+: (\d+) passed, (\d+) failed$/m);
  return m && { passed: Number(m[1]), failed: Number(m[2]) };
}

// The spec reporter's summary: "ℹ pass 12" and "ℹ fail 0".
function countNodeTest(out) {
  const pass = out.match(/^\S+ pass (\d+)$/m);
  const fail = out.match(/^\S+ fail (\d+)$/m);
  return pass && fail && { passed: Number(pass[1]), failed: Number(fail[1]) };
}

// unittest's summary, on standard error: "Ran 35 tests in 26.5s", then "OK (skipped=1)" or
// "FAILED (failures=1, errors=2)".
function countUnittest(_out, err) {
  const ran = err.match(/^Ran (\d+) tests? in /m);
  const verdict = err.match(/^(?:OK|FAILED)(?: \((.*)\))?$/m);
  if (!ran || !verdict) return null;
  const n = (key) => Number(verdict[1]?.match(new RegExp(`${key}=(\\d+)`))?.[1] ?? 0);
  const failed = n('failures') + n('errors') + n('unexpected successes');
  return { passed: Number(ran[1]) - failed - n('skipped'), failed };
}

// Runs a command with output shown live and kept for counting.
function run([command, ...args], env = {}) {
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
      process.stderr.write(chunk);
    });
    child.on('error', (error) => done({ status: 1, out: `${out}\n${error.message}`, err }));
    child.on('close', (status) => done({ status, out, err }));
  });
}

let passed = 0;
let failed = 0;
const broken = [];
for (const suite of SUITES) {
  console.log(`\n=== ${suite.name}: ${suite.command.join(' ')}`);
  const started = Date.now();
  const { status, out, err } = await run(suite.command, suite.env);
  console.log(`=== ${suite.name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const counts = suite.count(out, err);
  if (counts) {
    passed += counts.passed;
    failed += counts.failed;
  }
  if (status !== 0 || !counts || counts.passed === 0) {
    broken.push(suite.name);
    if (!counts?.failed) failed += 1; // a suite that failed with no failing test still counts once
  }
}

console.log(`\n${broken.length ? `failed suites: ${broken.join(', ')}` : 'all suites passed'}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exitCode = broken.length ? 1 : 0;
