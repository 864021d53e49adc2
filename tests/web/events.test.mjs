// events.test.mjs — the state owner: typed events, undo/redo, stale plans ignored, last valid plan kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  initialState,
  reduce,
  isStale,
  isCompareStale,
  compareErrorNow,
  isSearchCurrent,
  searchShown,
} from '../../web/src/state/events.js';
import { createStore } from '../../web/src/state/store.js';

const A = '{"ops": [\n  {"name": "x", "kind": "input", "shape": [4], "dtype": "f32"}\n]}\n';
const ctx = { examples: { a: A } };
const OPTS = { broadcast: true, resident_sources: false };
// A plan-shaped value for the reducer; the reducer stores it and never looks inside.
const PLAN = {
  ok: true,
  groups: [{ id: 0, ops: [0], inputs: [], outputs: [0], bytes_read: 0, bytes_written: 16 }],
  op_group: [0],
  edges: [],
};
const ERROR = { ok: false, error: { code: 'json_syntax', message: 'bad', line: 1, column: 2 }, errors: [] };

const run = (events, state = initialState()) => events.reduce((s, e) => reduce(s, e, ctx), state);

test('opening an example sets its text; a plan result for that text is shown', () => {
  const s = run([
    { type: 'load-example', id: 'a' },
    { type: 'plan-result', text: A, options: OPTS, result: PLAN },
  ]);
  assert.equal(s.text, A);
  assert.equal(s.plan, PLAN);
  assert.deepEqual(s.graph.ops[0].name, 'x');
  assert.equal(isStale(s), false);
});

test('a broken text keeps the last valid plan and records the error', () => {
  const s = run([
    { type: 'load-example', id: 'a' },
    { type: 'plan-result', text: A, options: OPTS, result: PLAN },
    { type: 'set-text', text: '{"ops": [' },
    { type: 'plan-result', text: '{"ops": [', options: OPTS, result: ERROR },
  ]);
  assert.equal(s.text, '{"ops": [', 'the typed text is kept');
  assert.equal(s.plan, PLAN);
  assert.equal(s.error, ERROR);
});

test('a plan result for an older text is ignored', () => {
  const s = run([
    { type: 'load-example', id: 'a' },
    { type: 'set-text', text: 'newer' },
    { type: 'plan-result', text: A, options: OPTS, result: PLAN },
  ]);
  assert.equal(s.plan, null);
  assert.equal(isStale(s), true);
});

test('a graph edit rewrites the text in the canonical format and can be undone and redone', () => {
  const s1 = run([
    { type: 'load-example', id: 'a' },
    {
      type: 'edit-graph',
      edit: { type: 'add', op: { name: 'y', kind: 'relu', inputs: ['x'], shape: [4], dtype: 'f32' } },
    },
  ]);
  assert.match(s1.text, /"name": "y", "kind": "relu", "inputs": \["x"\]/);
  assert.deepEqual(s1.selection, { kind: 'op', id: 1 }, 'the new op is selected');
  const s2 = run([{ type: 'undo' }], s1);
  assert.equal(s2.text, A);
  const s3 = run([{ type: 'redo' }], s2);
  assert.equal(s3.text, s1.text);
});

test('consecutive typing is one undo step', () => {
  const s = run([
    { type: 'load-example', id: 'a' },
    { type: 'set-text', text: 'a' },
    { type: 'set-text', text: 'ab' },
    { type: 'set-text', text: 'abc' },
    { type: 'undo' },
  ]);
  assert.equal(s.text, A);
});

test('editing the graph while the text is broken changes nothing and says why', () => {
  const s = run([
    { type: 'set-text', text: '{"ops": [' },
    { type: 'edit-graph', edit: { type: 'remove', op: 0 } },
  ]);
  assert.equal(s.text, '{"ops": [');
  assert.match(s.notice.message, /Fix the JSON first/);
});

test('options are undoable and a link restore resets history', () => {
  const s = run([
    { type: 'load-example', id: 'a' },
    { type: 'set-option', key: 'broadcast', value: false },
  ]);
  assert.equal(s.options.broadcast, false);
  assert.equal(run([{ type: 'undo' }], s).options.broadcast, true);
  const r = run([{ type: 'restore', state: { example: 'a', options: { resident_sources: true } } }], s);
  assert.deepEqual(r.options, { broadcast: true, resident_sources: true });
  assert.equal(r.text, A);
  assert.equal(r.past.length, 0);
});

test('an unknown example is a notice; an unknown event type is a bug', () => {
  assert.match(run([{ type: 'load-example', id: 'nope' }]).notice.message, /no example called/);
  assert.throws(() => run([{ type: 'frobnicate' }]), /unknown event/);
});

test('the store calls subscribers only when the state changed', () => {
  const store = createStore(ctx);
  const seen = [];
  store.subscribe((s, prev, e) => seen.push(e.type));
  store.dispatch({ type: 'load-example', id: 'a' });
  store.dispatch({ type: 'set-text', text: A });
  store.dispatch({ type: 'select', target: { kind: 'op', id: 0 } });
  assert.deepEqual(seen, ['load-example', 'select']);
  assert.deepEqual(store.getState().selection, { kind: 'op', id: 0 });
});

test('colouring by bytes is a view choice: not on the undo stack, kept across examples; unknown values are bugs', () => {
  let s = run([{ type: 'load-example', id: 'a' }]);
  assert.equal(s.colorBy, 'group');
  const past = s.past.length;
  s = reduce(s, { type: 'set-color-by', value: 'bytes' }, ctx);
  assert.equal(s.colorBy, 'bytes');
  assert.equal(s.past.length, past, 'not an undo step');
  assert.equal(reduce(s, { type: 'set-color-by', value: 'bytes' }, ctx), s, 'no change, same state');
  assert.equal(run([{ type: 'load-example', id: 'a' }, { type: 'undo' }], s).colorBy, 'bytes');
  assert.throws(() => reduce(s, { type: 'set-color-by', value: 'rainbow' }, ctx), /unknown colouring/);
});

test('strategy and hardware are undoable options; picking the default leaves the key out', () => {
  let s = run([
    { type: 'load-example', id: 'a' },
    { type: 'set-option', key: 'strategy', value: 'tvm' },
  ]);
  assert.deepEqual(s.options, { ...OPTS, strategy: 'tvm' });
  s = run(
    [
      { type: 'set-option', key: 'hardware', value: 'h100' },
      { type: 'set-option', key: 'strategy', value: 'seed' },
    ],
    s,
  );
  assert.deepEqual(s.options, { ...OPTS, hardware: 'h100' });
  assert.deepEqual(run([{ type: 'undo' }], s).options, { ...OPTS, strategy: 'tvm', hardware: 'h100' });
  assert.deepEqual(
    run([{ type: 'set-option', key: 'hardware', value: 'h100' }], s).options,
    s.options,
    'the same choice again',
  );
  assert.throws(() => run([{ type: 'set-option', key: 'strategy', value: 'Not A Name' }], s), /unknown option/);
  assert.throws(() => run([{ type: 'set-option', key: 'strategy', value: '-xla' }], s), /unknown option/);
  assert.throws(() => run([{ type: 'set-option', key: 'colour', value: 'red' }], s), /unknown option/);
  // A core strategy name with a hyphen (xla-classic) is a name like any other.
  assert.deepEqual(run([{ type: 'set-option', key: 'strategy', value: 'xla-classic' }], s).options, {
    ...OPTS,
    strategy: 'xla-classic',
    hardware: 'h100',
  });
});

test('the compare pair is a view choice: not undone, restored from a link, and bad pairs are bugs', () => {
  let s = run([{ type: 'load-example', id: 'a' }]);
  const past = s.past.length;
  s = run([{ type: 'set-compare', pair: ['xla', 'tvm'] }], s);
  assert.deepEqual(s.compare, ['xla', 'tvm']);
  assert.equal(s.past.length, past);
  assert.equal(run([{ type: 'set-compare', pair: null }], s).compare, null);
  assert.deepEqual(run([{ type: 'restore', state: { example: 'a', options: {}, compare: ['seed', 'xla'] } }]).compare, [
    'seed',
    'xla',
  ]);
  assert.equal(run([{ type: 'restore', state: { example: 'a', options: {} } }], s).compare, null);
  assert.throws(() => run([{ type: 'set-compare', pair: ['xla'] }], s), /bad compare pair/);
});

test('compare results are kept only for the current text, options and pair; a failure is reported, the last pair kept', () => {
  const pair = ['xla', 'tvm'];
  let s = run([
    { type: 'load-example', id: 'a' },
    { type: 'set-compare', pair },
  ]);
  assert.equal(isCompareStale(s), true);
  s = run([{ type: 'compare-result', text: A, options: OPTS, pair: ['seed', 'tvm'], results: [PLAN, PLAN] }], s);
  assert.equal(s.compared, null, 'an answer for another pair is dropped');
  s = run([{ type: 'compare-result', text: A, options: OPTS, pair, results: [PLAN, { ...PLAN }] }], s);
  assert.equal(s.compared.left, PLAN);
  assert.equal(s.compared.graph.ops[0].name, 'x');
  assert.equal(isCompareStale(s), false);
  const failed = run([{ type: 'compare-result', text: A, options: OPTS, pair, results: [PLAN, ERROR] }], s);
  assert.equal(failed.compared, s.compared);
  assert.equal(compareErrorNow(failed).message, 'bad');
  assert.equal(
    compareErrorNow(run([{ type: 'set-compare', pair: ['seed', 'xla'] }], failed)),
    null,
    'an error for another pair is not shown',
  );
});

test('an imported graph replaces the text as one undoable step and resets the expanded groups', () => {
  const B = '{"ops": [{"name": "y", "kind": "input", "shape": [8], "dtype": "f16"}]}';
  let s = run([
    { type: 'load-example', id: 'a' },
    { type: 'plan-result', text: A, options: OPTS, result: PLAN },
    { type: 'expand', group: 'all', open: false },
  ]);
  assert.notEqual(s.expanded, null);
  s = run([{ type: 'import-graph', text: B, name: 'm.onnx' }], s);
  assert.deepEqual([s.text, s.example, s.expanded], [B, null, null]);
  assert.equal(isStale(s), true);
  assert.equal(run([{ type: 'undo' }], s).text, A);
});

test('expanding groups is view state: one group or all, never a bad group id', () => {
  let s = run([
    { type: 'load-example', id: 'a' },
    { type: 'plan-result', text: A, options: OPTS, result: PLAN },
  ]);
  const past = s.past.length;
  s = run([{ type: 'expand', group: 0, open: false }], s);
  assert.deepEqual(s.expanded, { all: true, except: [0], ops: 1 });
  assert.equal(s.past.length, past, 'not an undo step');
  assert.equal(run([{ type: 'expand', group: 0, open: false }], s), s, 'closing a closed group changes nothing');
  assert.deepEqual(run([{ type: 'expand', group: 'all', open: true }], s).expanded, { all: true, except: [], ops: 1 });
  assert.throws(() => run([{ type: 'expand', group: 'g0', open: true }], s), /bad group/);
});

// Plan search (docs/design.md §17): the greedy plan stays while the search runs, the searched plan replaces it,
// and turning Optimal off, cancelling or a refusal leave the greedy plan shown.
const SEARCHED = { ...PLAN, bytes_fused: 8, search: { mode: 'optimal', status: 'optimal', gap: 0 } };
const REFUSED = {
  ok: false,
  error: { code: 'invalid_options', message: 'search is available for seed so far', path: '/search/mode' },
};
const planned = () =>
  run([
    { type: 'load-example', id: 'a' },
    { type: 'plan-result', text: A, options: OPTS, result: PLAN },
  ]);
const started = (s, budget = 200_000) =>
  run([{ type: 'search-started', text: A, options: OPTS, budget, started: 5 }], s);

test('Optimal on: the search starts from the greedy plan, which stays shown until the searched plan replaces it', () => {
  let s = run([{ type: 'set-optimal', value: true }], planned());
  assert.equal(s.optimal, 200_000, 'the default budget');
  assert.equal(isSearchCurrent(s), false, 'nothing asked yet');
  s = started(s);
  assert.equal(s.search.status, 'running');
  assert.equal(s.search.started, 5);
  assert.equal(s.plan, PLAN, 'the greedy plan stays shown');
  assert.equal(isSearchCurrent(s), true);
  s = run([{ type: 'search-result', text: A, options: OPTS, budget: 200_000, result: SEARCHED, ms: 38 }], s);
  assert.equal(s.search.status, 'done');
  assert.equal(s.search.ms, 38);
  assert.equal(s.plan, SEARCHED);
  assert.equal(s.search.greedy, PLAN);
  assert.equal(searchShown(s), true);
  // The same greedy answer again (the plan watcher re-asked) keeps the searched plan shown.
  const again = { ...PLAN };
  s = run([{ type: 'plan-result', text: A, options: OPTS, result: again }], s);
  assert.equal(s.plan, SEARCHED);
  assert.equal(s.search.greedy, again);
  // Off: the greedy plan is back and the search is dropped.
  s = run([{ type: 'set-optimal', value: false }], s);
  assert.equal(s.optimal, null);
  assert.equal(s.plan, again);
  assert.equal(s.search, null);
});

test('a search answer for another text, options or budget is dropped; a stale state does not start one', () => {
  const s = started(run([{ type: 'set-optimal', value: 2_000_000 }], planned()), 2_000_000);
  for (const other of [
    { text: 'other', options: OPTS, budget: 2_000_000 },
    { text: A, options: { ...OPTS, broadcast: false }, budget: 2_000_000 },
    { text: A, options: OPTS, budget: 200_000 },
  ])
    assert.equal(run([{ type: 'search-result', ...other, result: SEARCHED, ms: 1 }], s), s);
  const typing = run([{ type: 'set-text', text: `${A} ` }], run([{ type: 'set-optimal', value: true }], planned()));
  assert.equal(run([{ type: 'search-started', text: `${A} `, options: OPTS, budget: 200_000 }], typing), typing);
});

test('cancelling or a refusal keeps the greedy plan and says why; search again drops the record', () => {
  const running = started(run([{ type: 'set-optimal', value: true }], planned()));
  const cancelled = run([{ type: 'search-cancel' }], running);
  assert.equal(cancelled.search.status, 'cancelled');
  assert.equal(cancelled.plan, PLAN);
  assert.equal(run([{ type: 'search-retry' }], cancelled).search, null);
  assert.equal(run([{ type: 'search-cancel' }], cancelled), cancelled, 'only a running search is cancelled');
  const refused = run(
    [{ type: 'search-result', text: A, options: OPTS, budget: 200_000, result: REFUSED, ms: 0 }],
    running,
  );
  assert.equal(refused.search.status, 'error');
  assert.equal(refused.search.message, 'search is available for seed so far');
  assert.equal(refused.search.path, '/search/mode');
  assert.equal(refused.plan, PLAN);
});

test('greedy vs optimal in the compare view turns Optimal on; bad budgets are bugs', () => {
  const s = run([{ type: 'set-compare', pair: 'search' }], planned());
  assert.equal(s.compare, 'search');
  assert.equal(s.optimal, 200_000);
  assert.equal(isCompareStale({ ...s, compare: ['xla', 'tvm'] }), true);
  assert.throws(() => run([{ type: 'set-optimal', value: 0 }]), /bad search budget/);
  assert.throws(() => run([{ type: 'set-compare', pair: 'greedy' }]), /bad compare pair/);
  // A restored link or draft sets the switch (or leaves it off).
  const restored = run(
    [{ type: 'restore', state: { example: 'a', options: OPTS, optimal: 2_000_000, compare: 'search' } }],
    s,
  );
  assert.equal(restored.optimal, 2_000_000);
  assert.equal(restored.compare, 'search');
  assert.equal(run([{ type: 'restore', state: { example: 'a', options: OPTS } }], s).optimal, null);
  assert.equal(run([{ type: 'set-optimal', value: false }], s).compare, null, 'Optimal off closes greedy vs optimal');
});
