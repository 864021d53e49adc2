// words.test.mjs — what people read: reasons in plain words, numbers formatted (not computed), Markdown export
// (with the planner's byte formulas for a plan with named sizes).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { explainReason, shortReason, isBlocked, REASON_CODES } from '../../web/src/present/reasons.js';
import { formatBytes, exactBytes, formatSpeedup, formatShape, formatTime } from '../../web/src/present/format.js';
import { planMarkdown } from '../../web/src/present/plan-markdown.js';
import { bytesFormula, hasNames } from '../../web/src/present/formula.js';
import { parseGraphText } from '../../web/src/graph/graph-text.js';
import { loadFusion } from '../../wasm/fusion.mjs';
import { SCALED } from '../browser/dims-graphs.mjs';

test('every reason code of the planner has its own plain-words explanation', () => {
  const seen = new Set();
  const codes = [
    'source',
    'barrier_producer',
    'barrier_consumer',
    'shape',
    'cycle',
    'anchor',
    'layout',
    'multi_pass',
    'limit',
    'unprofitable',
    'region',
    'post_dominator',
    'output',
    'consumers',
    'range',
    'numerics',
  ]; // docs/design.md §7, docs/strategies.md (the compiler procedures' reasons)
  assert.deepEqual([...REASON_CODES].sort(), [...codes].sort());
  for (const code of codes) {
    const words = explainReason({ fused: false, reason: code }, { producer: 'P', consumer: 'C' });
    assert.doesNotMatch(words, /Not fused: /, code);
    assert.ok(!seen.has(words), `${code} has its own words`);
    assert.ok(
      code === 'source' || (words.includes('P') && words.includes('C')) || /barrier_/.test(code),
      `${code} names the ops`,
    );
    assert.notEqual(shortReason(code), '', code);
    seen.add(words);
  }
  assert.match(
    explainReason({ fused: false, reason: 'cycle' }, { producer: 'a', consumer: 'c' }),
    /a with c .*barrier/,
  );
  assert.match(explainReason({ fused: false, reason: 'brand_new', detail: 'why' }), /brand_new.*\(why\)/);
  assert.match(explainReason({ fused: true }, { producer: 'a', consumer: 'b' }), /^Fused/);
  assert.equal(shortReason('barrier_producer'), 'barrier');
});

test('bytes are shown in binary units and exactly with grouped digits', () => {
  assert.equal(formatBytes(0), '0 B');
  assert.equal(formatBytes(1023), '1023 B');
  assert.equal(formatBytes(25165824), '24.0 MiB');
  assert.equal(formatBytes((3 * 2 ** 30) / 2), '1.50 GiB');
  assert.equal(formatBytes(undefined), '–');
  assert.equal(exactBytes(25165824).replace(/\D/g, ''), '25165824');
  assert.equal(exactBytes(25165824), '25\u202f165\u202f824 B');
  assert.equal(formatSpeedup(2), '2.00×');
  assert.equal(formatShape([4096, 768]), '[4096, 768]');
});

test('the Markdown table lists every group with the planner’s numbers', () => {
  const graph = {
    ops: [
      { name: 'x', kind: 'input' },
      { name: 'a|b', kind: 'relu' },
    ],
  };
  const plan = {
    bytes_unfused: 48,
    bytes_fused: 32,
    speedup_estimate: 1.5,
    kernels_unfused: 2,
    kernels_fused: 2,
    groups: [
      { id: 0, ops: [0], inputs: [], outputs: [0], bytes_read: 0, bytes_written: 16 },
      { id: 1, ops: [1], inputs: [0], outputs: [1], bytes_read: 16, bytes_written: 16 },
    ],
  };
  const md = planMarkdown(graph, plan);
  assert.match(md, /48 B → 32 B moved \(1\.50×\), kernels 2 → 2/);
  assert.match(md, /\| 1 \| `a\\\|b` \| `x` \| `a\\\|b` \| 16 \| 16 \|/);
  assert.equal(md.trim().split('\n').length, 6);
});

test('a plan with named sizes says them and gives the planner’s byte formulas, in the totals and per group', async () => {
  const fusion = await loadFusion();
  const plan = fusion.plan(SCALED, { dims: { N: 64 } });
  const { graph } = parseGraphText(SCALED);
  assert.ok(hasNames(plan.bytes_fused_formula), 'the planner gives formulas in N (precondition)');
  const md = planMarkdown(graph, plan);
  const lines = md.trim().split('\n');
  assert.equal(lines[2], 'At N = 64.');
  assert.equal(
    lines[3],
    `Bytes as a function of size: unfused ${bytesFormula(plan.bytes_unfused_formula)}; ` +
      `fused ${bytesFormula(plan.bytes_fused_formula)}; saved by fusing ${bytesFormula(plan.bytes_saved_formula)}.`,
  );
  assert.match(lines[5], /\| read, as a formula \| written, as a formula \|$/);
  const rows = lines.slice(7);
  assert.equal(rows.length, plan.groups.length);
  plan.groups.forEach((g, k) => {
    const cells = rows[k].split(' | ');
    const [read, written] = [g.bytes_read_formula, g.bytes_written_formula].map((f) =>
      hasNames(f) ? bytesFormula(f) : '–',
    );
    assert.deepEqual(cells.slice(-2), [read, `${written} |`], `group ${g.id}`);
  });
  assert.ok(
    rows.some((r) => r.includes('·N')),
    'some group’s bytes depend on N',
  );
  const numbers = SCALED.replace('"dims": {"N": 8}, ', '').replaceAll('"N"', '64');
  const plainPlan = fusion.plan(numbers, {});
  assert.equal(plainPlan.ok, true, 'the same graph with numbers written in plans (precondition)');
  const plain = planMarkdown(parseGraphText(numbers).graph, plainPlan);
  assert.doesNotMatch(plain, /formula|At /, 'a plan without names has neither');
  assert.equal(plain.trim().split('\n').length, 4 + plainPlan.groups.length);
});

test('reasons that follow from the op kinds are plain; a rule’s block is drawn as blocked', () => {
  assert.deepEqual(['source', 'barrier_producer', 'barrier_consumer'].map(isBlocked), [false, false, false]);
  assert.deepEqual(
    [
      'shape',
      'cycle',
      'anchor',
      'layout',
      'multi_pass',
      'limit',
      'unprofitable',
      'region',
      'post_dominator',
      'output',
      'consumers',
      'range',
    ].every(isBlocked),
    true,
  );
  assert.equal(isBlocked(undefined), false);
  assert.match(
    explainReason({ fused: false, reason: 'multi_pass' }, { producer: 'm', consumer: 'sub' }),
    /^sub needs a full-size tensor .* of m/,
  );
  assert.match(explainReason({ fused: false, reason: 'anchor' }, { producer: 'mm', consumer: 'sum' }), /two heavy ops/);
});

test('estimated times are shown in µs, ms or s with three significant digits', () => {
  assert.equal(formatTime(3.8), '3.80 µs');
  assert.equal(formatTime(12.345), '12.3 µs');
  assert.equal(formatTime(482.1), '482 µs');
  assert.equal(formatTime(4567), '4.57 ms');
  assert.equal(formatTime(1.2e6), '1.20 s');
  assert.equal(formatTime(undefined), '–');
});

test('the compiler procedures’ reasons say what the compiler does, on the plans that give them', async () => {
  const { loadFusion } = await import('../../wasm/fusion.mjs');
  const fusion = await loadFusion();
  const op = (name, kind, inputs, shape, extra = {}) => ({
    name,
    kind,
    ...(inputs.length ? { inputs } : {}),
    shape,
    dtype: 'f16',
    ...extra,
  });
  const x = op('x', 'input', [], [64, 64]);
  // Each reason, a graph and strategy that give it, and what its words must say.
  const cases = [
    // e's two consumers never meet again: e has no post-dominator to fuse into.
    [
      'post_dominator',
      'tvm',
      [
        x,
        op('e', 'neg', ['x'], [64, 64]),
        op('a', 'reduce_sum', ['e'], [64, 1]),
        op('m', 'reduce_max', ['e'], [64, 1]),
      ],
      /post-dominator/,
    ],
    [
      'output',
      'tvm',
      [x, op('e', 'exp', ['x'], [64, 64], { output: true }), op('a', 'neg', ['e'], [64, 64])],
      /graph output/,
    ],
    // softmax: the max's consumer d also feeds the sum's kernel and the division's, so m cannot go into all of them.
    [
      'consumers',
      'xla',
      [
        x,
        op('m', 'reduce_max', ['x'], [64, 1]),
        op('d', 'sub', ['x', 'm'], [64, 64]),
        op('e', 'exp', ['d'], [64, 64]),
        op('s', 'reduce_sum', ['e'], [64, 1]),
        op('y', 'div', ['e', 's'], [64, 64]),
      ],
      /all of its consumers/,
    ],
    ['range', 'inductor', [x, op('s', 'reduce_sum', ['x'], [64, 1]), op('t', 'reduce_sum', ['s'], [1, 1])], /ranges/],
  ];
  for (const [reason, strategy, ops, says] of cases) {
    const plan = fusion.plan({ ops }, { strategy });
    const edge = plan.edges.find((e) => e.reason === reason);
    assert.ok(edge, `${strategy} gives ${reason} on its graph (precondition)`);
    const [p, c] = [ops[edge.producer].name, ops[edge.consumer].name];
    const words = explainReason(edge, { producer: `«${p}»`, consumer: `«${c}»` });
    assert.match(words, says, reason);
    assert.ok(words.includes(`«${p}»`) && words.includes(`«${c}»`), `${reason} names both ops: ${words}`);
    assert.equal(isBlocked(reason), true, `${reason} is a rule's block`);
  }
});
