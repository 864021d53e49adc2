// dims.test.mjs — the page's pure modules for named dimensions (docs/design.md §16): the values a person gives
// (state/dims.js, the reducer's set-dim), how they travel (share links, drafts, the element's dims attribute),
// the Sizes panel's log-scale slider (present/size-scale.js), the formulas as drawn (present/formula.js) and
// where the size chart puts the planner's sweep (present/sweep-chart.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  chartDim,
  dimAtPath,
  formatDimsText,
  isDimName,
  parseDimsText,
  readDims,
  sweepOptions,
  withDim,
} from '../../web/src/state/dims.js';
import { initialState, isStale, reduce } from '../../web/src/state/events.js';
import { loadDraft, saveDraft } from '../../web/src/state/drafts.js';
import { decodeState, encodeState } from '../../web/src/share/url-state.js';
import { DEFAULT_OPTIONS } from '../../web/src/state/options.js';
import { readElementConfig } from '../../web/src/element/element-config.js';
import {
  DEFAULT_MAX,
  positionOf,
  positions,
  scaleMax,
  stepValue,
  valueAt,
  STEPS_PER_OCTAVE,
} from '../../web/src/present/size-scale.js';
import { bytesFormula, dimsText, formulaText, hasNames } from '../../web/src/present/formula.js';
import { sweepChart } from '../../web/src/present/sweep-chart.js';

test('dimension names are identifiers; dims objects are read strictly and copied', () => {
  for (const ok of ['N', 'seq', '_b2', 'batch_size']) assert.ok(isDimName(ok), ok);
  for (const bad of ['', '2N', 'N-1', 'n m', 'x'.repeat(65), 3, null]) assert.ok(!isDimName(bad), String(bad));
  assert.deepEqual(readDims(undefined), {});
  assert.deepEqual(readDims({ N: 8, seq: -3.5 }), { N: 8, seq: -3.5 }, 'the planner judges the values');
  const odd = readDims(JSON.parse('{"__proto__": 3}'));
  assert.deepEqual(Object.entries(odd), [['__proto__', 3]], 'an odd but valid name stays an own key');
  assert.deepEqual(Object.entries(parseDimsText('__proto__=4').dims), [['__proto__', 4]]);
  for (const bad of [null, [], 'N=8', { 'bad name': 1 }, { N: '8' }, { N: Infinity }, { N: NaN }])
    assert.equal(readDims(bad), null, JSON.stringify(bad));
});

test('withDim sets and removes one value; sweepOptions leaves the swept name out', () => {
  assert.deepEqual(withDim(undefined, 'N', 8), { N: 8 });
  assert.deepEqual(withDim({ N: 8, M: 2 }, 'N', 64), { M: 2, N: 64 });
  assert.deepEqual(withDim({ N: 8 }, 'N', null), {});
  assert.throws(() => withDim({}, 'bad name', 1));
  assert.throws(() => withDim({}, 'N', '8'));
  const options = { broadcast: true, strategy: 'xla', dims: { N: 8, M: 2 } };
  assert.deepEqual(sweepOptions(options, 'N'), { broadcast: true, strategy: 'xla', dims: { M: 2 } });
  assert.deepEqual(sweepOptions({ broadcast: true, dims: { N: 8 } }, 'N'), { broadcast: true });
});

test('"N=8,seq=128" reads and writes; bad text is an error in words', () => {
  assert.deepEqual(parseDimsText('N=8, seq = 128'), { dims: { N: 8, seq: 128 } });
  assert.deepEqual(parseDimsText(''), { dims: {} });
  assert.deepEqual(parseDimsText('N=-2,M=2.5'), { dims: { N: -2, M: 2.5 } }, 'values as typed: the planner judges');
  assert.match(parseDimsText('N').error, /not NAME=VALUE/);
  assert.match(parseDimsText('2x=3').error, /not a dimension name/);
  assert.match(parseDimsText('N=eight').error, /N=eight is not a number/);
  assert.match(parseDimsText('N=0x10').error, /not a number/);
  assert.equal(formatDimsText({ N: 8, seq: 128 }), 'N=8,seq=128');
  assert.deepEqual(parseDimsText(formatDimsText({ a: 1, b_2: 4096 })).dims, { a: 1, b_2: 4096 });
});

test('dimAtPath finds the name an unbound_dim error points at', () => {
  const graph = { ops: [{ shape: [4] }, { shape: ['N', 'seq'] }] };
  assert.equal(dimAtPath(graph, '/ops/1/shape/1'), 'seq');
  assert.equal(dimAtPath(graph, '/ops/0/shape/0'), null, 'a number is no name');
  assert.equal(dimAtPath(graph, '/ops/9/shape/0'), null);
  assert.equal(dimAtPath(graph, '/dims/N'), null);
  assert.equal(dimAtPath(null, '/ops/1/shape/0'), null);
  const product = { dims: { N: 4 }, ops: [{ shape: ['2*N*M*K', 8] }] };
  assert.equal(dimAtPath(product, '/ops/0/shape/0'), 'M', 'in a product: the first name with no value');
  assert.equal(dimAtPath(product, '/ops/0/shape/0', { M: 3 }), 'K');
  assert.equal(dimAtPath(product, '/ops/0/shape/0', { M: 3, K: 1 }), null);
});

test('chartDim: the picked name when the plan has it, else the first', () => {
  const plan = { dims: { M: 8, N: 8 } };
  assert.equal(chartDim({ plan, sweepDim: null }), 'M');
  assert.equal(chartDim({ plan, sweepDim: 'N' }), 'N');
  assert.equal(chartDim({ plan, sweepDim: 'gone' }), 'M');
  assert.equal(chartDim({ plan: { ok: true }, sweepDim: 'N' }), null);
});

test('set-dim: one undo entry per drag; load-example drops the values; a plan of the same text keeps its graph', () => {
  const ctx = { examples: { a: '{"dims": {"N": 8}, "ops": []}', b: '{"ops": []}' } };
  let s = reduce(initialState(), { type: 'load-example', id: 'a' }, ctx);
  for (const v of [9, 10, 11]) s = reduce(s, { type: 'set-dim', name: 'N', value: v }, ctx);
  assert.deepEqual(s.options.dims, { N: 11 });
  assert.equal(s.past.length, 2, 'load-example, then one entry for the whole drag');
  s = reduce(s, { type: 'undo' }, ctx);
  assert.equal(s.options.dims, undefined);
  s = reduce(s, { type: 'set-dim', name: 'N', value: 64 }, ctx);
  s = reduce(s, { type: 'set-dim', name: 'N', value: null }, ctx);
  assert.ok(!('dims' in s.options), 'no empty dims object');
  s = reduce(s, { type: 'set-dim', name: 'N', value: 64 }, ctx);
  const plan = { ok: true, dims: { N: 64 } };
  s = reduce(s, { type: 'plan-result', text: s.text, options: s.options, result: plan }, ctx);
  const graph = s.graph;
  s = reduce(s, { type: 'set-dim', name: 'N', value: 65 }, ctx);
  s = reduce(s, { type: 'plan-result', text: s.text, options: s.options, result: { ok: true, dims: { N: 65 } } }, ctx);
  assert.equal(s.graph, graph, 'the same graph object: the text was not parsed again');
  assert.equal(s.plan.dims.N, 65);
  s = reduce(s, { type: 'load-example', id: 'b' }, ctx);
  assert.ok(!('dims' in s.options), 'a new graph brings its own defaults');
});

test('while a slider is dragged, an answer for a size it has passed is shown (stale) until the newest one', () => {
  const ctx = { examples: { a: '{"dims": {"N": 8}, "ops": []}' } };
  const at = (n) => ({ ok: true, dims: { N: n } });
  const answer = (s, n, result = at(n), extra = {}) =>
    reduce(s, { type: 'plan-result', text: s.text, options: { ...s.options, dims: { N: n } }, result, ...extra }, ctx);
  let s = reduce(initialState(), { type: 'load-example', id: 'a' }, ctx);
  s = reduce(s, { type: 'plan-result', text: s.text, options: s.options, result: at(8) }, ctx);
  for (const v of [9, 10, 11]) s = reduce(s, { type: 'set-dim', name: 'N', value: v }, ctx);
  s = answer(s, 9);
  assert.equal(s.plan.dims.N, 9, 'the answer for N = 9 is shown while the slider is at 11');
  assert.equal(isStale(s), true, 'and the plan on screen says it is not the one asked for last');
  assert.equal(answer(s, 10, { ok: false, error: { code: 'byte_overflow' } }), s, 'a failed one is not shown');
  assert.equal(answer(s, 10, at(10), { text: 'other' }), s, 'nor one for another text');
  const strategy = reduce(
    s,
    { type: 'plan-result', text: s.text, options: { ...s.options, strategy: 'xla', dims: { N: 10 } }, result: at(10) },
    ctx,
  );
  assert.equal(strategy, s, 'nor one for other options');
  s = answer(s, 11);
  assert.equal(s.plan.dims.N, 11);
  assert.equal(isStale(s), false, 'the slider’s last position is planned');
  assert.equal(answer(s, 10), s, 'an older answer never replaces the current plan');
});

test('sweep-result is kept for the current text only; set-sweep-dim picks the chart name', () => {
  let s = reduce(initialState(), { type: 'set-text', text: 'T' });
  const result = { ok: true, rows: [], changes: [] };
  const event = { type: 'sweep-result', text: 'T', options: {}, dim: 'N', to: 64, result };
  s = reduce(s, event);
  assert.deepEqual(s.sweep, { text: 'T', options: {}, dim: 'N', to: 64, result, overflow: null });
  assert.equal(reduce(s, { ...event, text: 'old' }), s);
  assert.equal(reduce(s, { type: 'set-sweep-dim', dim: 'M' }).sweepDim, 'M');
});

test('share links carry the sizes: compressed links and readable example links', () => {
  const options = { ...DEFAULT_OPTIONS, dims: { N: 64, seq: 128 } };
  const state = { example: null, text: '{"ops": []}', options };
  assert.deepEqual(decodeState(encodeState(state)), { kind: 'state', state });
  const readable = encodeState({ example: 'attention-scores', text: 'T', options }, 'T');
  assert.equal(readable, 'example=attention-scores&dims=N=64,seq=128');
  assert.deepEqual(decodeState(`#${readable}`).state.options, options);
  assert.equal(decodeState('#example=diamond&dims=N=x').kind, 'error');
  assert.equal(decodeState('#example=diamond&dims=').state.options.dims, undefined);
  assert.equal(encodeState({ example: 'd', text: 'T', options: { ...DEFAULT_OPTIONS, dims: {} } }, 'T'), 'example=d');
});

test('drafts keep the sizes; a damaged dims object is dropped, the draft kept', () => {
  const m = new Map();
  const storage = { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => m.set(k, v) };
  saveDraft(storage, { example: null, text: 'T', options: { ...DEFAULT_OPTIONS, dims: { N: 8 } } });
  assert.deepEqual(loadDraft(storage).options.dims, { N: 8 });
  saveDraft(storage, { example: null, text: 'T', options: { ...DEFAULT_OPTIONS, dims: { 'no good': 8 } } });
  assert.equal(loadDraft(storage).text, 'T');
  assert.equal(loadDraft(storage).options.dims, undefined);
});

test('the element reads dims="N=8,seq=128"; a malformed attribute is explained', () => {
  const at = { baseUrl: 'https://x.org/', pageOrigin: 'https://x.org', inlineText: '{"ops": []}' };
  assert.deepEqual(readElementConfig({ ...at, attrs: { dims: 'N=8,seq=128' } }).options.dims, { N: 8, seq: 128 });
  assert.equal(readElementConfig({ ...at, attrs: {} }).options.dims, undefined);
  const bad = readElementConfig({ ...at, attrs: { dims: 'N:8' } });
  assert.match(bad.error, /^dims="N:8": .*not NAME=VALUE.*write it as dims="N=8,seq=128"/);
});

test('the slider scale: powers of two are exact positions; keys always move to a new value', () => {
  assert.equal(scaleMax(), DEFAULT_MAX);
  assert.equal(scaleMax(8, 100_000, undefined, NaN), 131_072);
  assert.equal(scaleMax(2 ** 60), 2 ** 52);
  const max = scaleMax();
  assert.equal(positions(max), 16 * STEPS_PER_OCTAVE);
  for (let k = 0; k <= 16; k++) {
    assert.equal(valueAt(k * STEPS_PER_OCTAVE), 2 ** k);
    assert.equal(positionOf(2 ** k, max), k * STEPS_PER_OCTAVE);
  }
  assert.equal(positionOf(0, max), 0);
  assert.equal(positionOf(10 ** 9, max), positions(max), 'clamped');
  for (let p = 1; p <= positions(max); p++) assert.ok(valueAt(p) >= valueAt(p - 1), 'monotonic');
  assert.equal(stepValue(1, 1, max), 2, 'up from 1: the next distinct value');
  assert.equal(stepValue(2, -1, max), 1);
  assert.equal(stepValue(1, -1, max), 1);
  assert.equal(stepValue(0, -1, max), 0);
  assert.equal(stepValue(0, 1, max), 1);
  assert.equal(stepValue(64, STEPS_PER_OCTAVE, max), 128);
  assert.equal(stepValue(64, -STEPS_PER_OCTAVE, max), 32);
  assert.equal(stepValue(max, 1, max), max);
  assert.equal(stepValue(1000, 1, max), 1024, 'a typed value goes to the next value of the scale');
  assert.equal(stepValue(1000, -1, max), valueAt(positionOf(1000, max) - 1));
  for (let v = 1; v < max; v = stepValue(v, 1, max)) assert.ok(stepValue(v, 1, max) > v);
});

test('formulas are drawn as the planner wrote them, never evaluated', () => {
  assert.equal(formulaText('6291456*N + 3072'), '6\u202f291\u202f456·N + 3\u202f072');
  assert.equal(formulaText('4*N^2*seq - 16'), '4·N²·seq − 16');
  assert.equal(formulaText('2*d1234*N'), '2·d1234·N', 'digits inside a name stay');
  assert.equal(formulaText('0'), '0');
  assert.equal(bytesFormula('6144*N'), '6\u202f144·N\u00a0B');
  assert.equal(bytesFormula(undefined), '');
  assert.ok(hasNames('3*N') && !hasNames('3072') && !hasNames(undefined));
  assert.equal(dimsText({ N: 8, seq: 128 }), 'N = 8, seq = 128');
});

// A sweep shaped like the planner's (values, the fields the chart draws).
const rowsOf = (values) =>
  values.map((v, k) => ({
    value: v,
    bytes_unfused: 100 * v + 50,
    bytes_fused: 60 * v + 50,
    time_unfused_us: 5 + v,
    time_fused_us: 3 + v / 2,
    speedup_estimate: 1.5,
    time_speedup: 1 + k / 10,
    kernels_fused: 2,
    changed: false,
  }));

test('the size chart places every row on a log axis, change markers at their values, the cursor at the plan', () => {
  const rows = rowsOf([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]);
  const plan = { bytes_unfused: 3250, bytes_fused: 1970, time_unfused_us: 37, time_fused_us: 19 };
  const chart = sweepChart({
    rows,
    changes: [{ at: 9, kernels_before: 2, kernels_after: 3 }, { at: 5000 }],
    current: { value: 32, plan },
    width: 400,
  });
  assert.deepEqual(
    chart.panels.map((p) => p.key),
    ['bytes', 'time', 'speedup'],
  );
  const [bytes] = chart.panels;
  const fused = bytes.series.find((s) => s.key === 'fused');
  assert.equal(fused.points.length, rows.length);
  assert.deepEqual(
    fused.points.map((p) => p.value),
    rows.map((r) => r.bytes_fused),
    'the values are the rows’ own',
  );
  const xs = fused.points.map((p) => p.x);
  assert.equal(xs[0], chart.plot.left);
  assert.equal(xs.at(-1), chart.plot.right);
  const steps = xs.slice(1).map((x, k) => x - xs[k]);
  for (const d of steps) assert.ok(Math.abs(d - steps[0]) < 1e-9, 'doublings are evenly spaced');
  assert.ok(
    fused.points.every((p, k) => k === 0 || p.y <= fused.points[k - 1].y),
    'growing values go up',
  );
  assert.match(fused.path, /^M[\d.]+,[\d.]+( L[\d.]+,[\d.]+){10}$/);
  assert.equal(chart.changes.length, 1, 'a change outside the range is not drawn');
  assert.equal(chart.changes[0].at, 9);
  assert.ok(chart.changes[0].x > xs[3] && chart.changes[0].x < xs[4]);
  assert.equal(chart.changes[0].label, '2 → 3 kernels');
  assert.equal(chart.cursor.x, xs[5]);
  assert.deepEqual(
    chart.cursor.dots.filter((d) => d.panel === 'bytes').map((d) => d.value),
    [3250, 1970],
    'the cursor shows the plan’s numbers',
  );
  assert.deepEqual(
    chart.xTicks.map((t) => t.label),
    ['1', '8', '64', '512'],
  );
  assert.equal(bytes.yTicks[0].label, '100 KiB');
  assert.equal(sweepChart({ rows, current: { value: 5000, plan } }).cursor, null, 'outside the range: no cursor');
});

test('the size chart copes with one row and flat values', () => {
  const chart = sweepChart({ rows: rowsOf([4]), current: null });
  for (const p of chart.panels) for (const s of p.series) assert.equal(s.points.length, 1);
  assert.ok(chart.panels.every((p) => p.series.every((s) => s.points.every((q) => Number.isFinite(q.y)))));
});
