// numerics.test.mjs — the planner's numerics (docs/design.md §18) as the page shows them: badges per kernel, the
// evaluator's rows, what was skipped, what eager parity costs; and the numerics option in the page state.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupBadge, noteTag, numericsView, NUMERICS_KINDS } from '../../web/src/present/numerics.js';
import { initialState, reduce } from '../../web/src/state/events.js';

const graph = {
  ops: [
    { name: 'x', kind: 'input', shape: [8], dtype: 'f16' },
    { name: 'm', kind: 'mul', inputs: ['x', 'x'], shape: [8], dtype: 'f16' },
    { name: 'd', kind: 'add', inputs: ['m', 'x'], shape: [8], dtype: 'f16' },
    { name: 'o', kind: 'opaque', inputs: ['d'], shape: [8], dtype: 'f16' },
  ],
};
// The planner's answer for this graph with {"numerics": true}, trimmed to what numerics.js reads.
const notes = [
  {
    kind: 'rounding',
    ops: [1, 2],
    message:
      "op 1 ('m') is f16: inside this kernel its reader gets its f32 value, where the unfused graph rounds it to f16 on the store",
  },
  {
    kind: 'contraction',
    ops: [1, 2],
    message: "the multiply op 1 ('m') feeds op 2 ('d') in this kernel: an FMA candidate, one rounding instead of two",
  },
];
const plan = {
  groups: [
    { id: 0, ops: [0], numerics: [] },
    { id: 1, ops: [1, 2], numerics: notes },
    { id: 2, ops: [3], numerics: [] },
  ],
  numerics: {
    evaluated: true,
    seed: 0,
    max_elements: 65536,
    parity: false,
    outputs: [
      { op: 3, dtype: 'f16', elements: 8, max_abs: 0.0009765625, max_rel: 0.002, max_ulp: 1, mismatched_special: 0 },
    ],
    skipped: [{ op: 3, reason: 'opaque is not evaluated: what it computes is not in the graph' }],
  },
};

test('a kernel with notes gets a badge naming their kinds, the messages as its tooltip', () => {
  assert.equal(groupBadge(plan.groups[0]), null);
  const badge = groupBadge(plan.groups[1]);
  assert.equal(badge.text, '2 notes: rounding dropped, FMA');
  assert.equal(badge.title.split('\n').length, 2);
  assert.match(badge.title, /^rounding dropped: op 1 \('m'\) is f16/);
});

test('every note kind has its own short tag', () => {
  const tags = NUMERICS_KINDS.map(noteTag);
  assert.deepEqual(tags, ['rounding dropped', 'FMA', 'sum order', 'NaN choice', 'cast pair']);
});

test("the evaluator's rows, skipped ops and notes are the planner's, with op names", () => {
  const view = numericsView(graph, plan);
  assert.deepEqual(view.outputs, [
    { op: 3, name: 'o', dtype: 'f16', elements: 8, maxAbs: 0.0009765625, maxRel: 0.002, maxUlp: 1, special: 0 },
  ]);
  assert.deepEqual(view.skipped, [{ op: 3, name: 'o', reason: plan.numerics.skipped[0].reason }]);
  assert.deepEqual(
    view.notes.map((n) => [n.group, n.tag]),
    [
      [1, 'rounding dropped'],
      [1, 'FMA'],
    ],
  );
  assert.equal(view.parityCost, null);
  assert.equal(numericsView(graph, { groups: [] }), null);
});

test('eager parity says what it costs', () => {
  const parity = { ...plan, numerics: { ...plan.numerics, parity: true, parity_cost_bytes: 64 } };
  assert.equal(numericsView(graph, parity).parityCost, 64);
});

test('the numerics option: off, on, or with eager parity', () => {
  const set = (state, value) => reduce(state, { type: 'set-option', key: 'numerics', value });
  const s0 = initialState();
  assert.equal(set(s0, true).options.numerics, true);
  assert.deepEqual(set(s0, 'parity').options.numerics, { parity: true });
  assert.equal('numerics' in set(set(s0, true), false).options, false);
  assert.throws(() => set(s0, 'maybe'), /unknown option numerics/);
});
