// reasons.js — why an edge was not fused, in plain words, from the planner's reason code.
//
// Contract: explainReason(edge, {producer, consumer}) → a sentence for people. `edge` is a plan edge
// ({fused, reason, detail?}); producer/consumer are labels. Every reason of the planner (docs/design.md §7,
// docs/strategies.md) has its own words; an unknown code falls back to the planner's detail or the code
// itself. shortReason(code) → a 1–2 word tag for edge labels. isBlocked(code) → true for reasons where a
// rule, not the op kinds, kept two fusible ops apart (drawn orange). Shown by tests/web/words.test.mjs.

const WORDS = {
  source: (p) =>
    `${p} is a source (input or constant): its data is already in memory, so there is nothing to fuse; the consumer reads it.`,
  barrier_producer: (p) =>
    `${p} is a barrier for this strategy (a matmul, softmax, reduce, … that takes no consumers into its kernel): it runs as its own kernel and writes its result to memory.`,
  barrier_consumer: (p, c) =>
    `${c} is a barrier for this strategy (it takes no producers into its kernel), so ${p} must be written to memory first.`,
  shape: (p, c) =>
    `The shapes of ${p} and ${c} are not broadcast-compatible (NumPy trailing-dimension rule), or the broadcast rule is off and they differ.`,
  cycle: (p, c) =>
    `Fusing ${p} with ${c} would put a barrier (another kernel) between two halves of one kernel (the group graph would get a cycle).`,
  anchor: (p, c) =>
    `Fusing ${p} with ${c} would put two heavy ops (matmul, conv or a reduction) in one kernel; a kernel holds at most one.`,
  layout: (p, c) =>
    `${p} changes the memory layout (a transpose), and a layout change never fuses into a reduction such as ${c}.`,
  multi_pass: (p, c) =>
    `${c} needs a full-size tensor besides the reduced result of ${p} (as softmax's x − max(x) does), so it runs as a second pass over memory.`,
  limit: (p, c) =>
    `Fusing ${p} with ${c} would make the kernel larger than this strategy allows (most ops, operands or live values per kernel).`,
  unprofitable: (p, c) =>
    `The time model says fusing ${p} into ${c}'s kernel (or recomputing it there) would be slower than keeping them apart.`,
  region: (p, c) =>
    `${p} and ${c} run in different control-flow regions (branches), and a kernel never spans two regions.`,
  post_dominator: (p, c) =>
    `${p} fuses only into its immediate post-dominator (the first op every path from it reaches), and only when every op on the way may join; ${c} is not on such a path, so ${p} is written to memory.`,
  output: (p, c) => `${p} is a graph output: this strategy writes it in its own kernel and does not fuse it into ${c}.`,
  consumers: (p, c) =>
    `${p} fuses into all of its consumers (a copy in each) or into none, and one of them cannot take it, so it does not fuse into ${c} either.`,
  range: (p, c) =>
    `${p} and ${c} iterate over incompatible ranges (element and reduction counts), so they cannot share one loop nest.`,
  numerics: (p, c) =>
    `Eager parity: ${p} is stored in f16, bf16 or f8, and inside one kernel with ${c} it would stay unrounded, so the results would differ from eager mode; it is written (rounded) to memory instead.`,
};

const SHORT = {
  source: 'source',
  barrier_producer: 'barrier',
  barrier_consumer: 'barrier',
  shape: 'shape',
  cycle: 'cycle',
  anchor: 'two heavy ops',
  layout: 'layout',
  multi_pass: 'multi-pass',
  limit: 'limit',
  unprofitable: 'unprofitable',
  region: 'region',
  post_dominator: 'post-dom',
  output: 'output',
  consumers: 'consumers',
  range: 'range',
  numerics: 'parity',
};

// Reasons that follow from the op kinds alone (drawn as plain dashed edges); every other one is a rule's block.
const BY_KIND = new Set(['source', 'barrier_producer', 'barrier_consumer']);

export function explainReason(edge, { producer = 'the producer', consumer = 'the consumer' } = {}) {
  if (edge.fused) return `Fused: ${producer} → ${consumer} stays in registers inside one kernel.`;
  const words = WORDS[edge.reason];
  const base = words ? words(producer, consumer) : `Not fused: ${edge.reason ?? 'no reason given'}.`;
  return edge.detail ? `${base} (${edge.detail})` : base;
}

export function shortReason(code) {
  return SHORT[code] ?? String(code ?? '');
}

export function isBlocked(code) {
  return typeof code === 'string' && !BY_KIND.has(code);
}

// Every reason code this file has words for (for tests and the legend).
export const REASON_CODES = Object.keys(WORDS);
