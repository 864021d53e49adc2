// reasons.js — why an edge was not fused, in plain words, from the planner's reason code.
//
// Contract: explainReason(edge, {producer, consumer}) → a sentence for people. `edge` is a plan edge
// ({reason, detail?}); producer/consumer are labels. Unknown codes (from strategies added later) fall back to
// the planner's detail or the code itself. shortReason(code) → a 1–2 word tag for edge labels.
// Shown by tests/web/reasons.test.mjs.

const WORDS = {
  source: (p) => `${p} is a source (input or constant): its data is already in memory, so there is nothing to fuse; the consumer reads it.`,
  barrier_producer: (p) => `${p} is a barrier op (matmul, softmax, reduce, …): it runs as its own kernel and writes its result to memory.`,
  barrier_consumer: (p, c) => `${c} is a barrier op (matmul, softmax, reduce, …): it runs as its own kernel, so ${p} must be written to memory first.`,
  shape: (p, c) => `The shapes of ${p} and ${c} are not broadcast-compatible (NumPy trailing-dimension rule), or the broadcast rule is off and they differ.`,
  cycle: (p, c) => `Fusing ${p} with ${c} would put a barrier between two halves of one kernel (the group graph would get a cycle).`,
  limit: () => 'The strategy’s limit on group size was reached.',
  unprofitable: () => 'The strategy judged this merge not worth it.',
};

const SHORT = {
  source: 'source', barrier_producer: 'barrier', barrier_consumer: 'barrier', shape: 'shape',
  cycle: 'cycle', limit: 'limit', unprofitable: 'unprofitable',
};

export function explainReason(edge, { producer = 'the producer', consumer = 'the consumer' } = {}) {
  if (edge.fused) return `Fused: ${producer} → ${consumer} stays in registers inside one kernel.`;
  const words = WORDS[edge.reason];
  const base = words ? words(producer, consumer) : `Not fused: ${edge.reason ?? 'no reason given'}.`;
  return edge.detail ? `${base} (${edge.detail})` : base;
}

export function shortReason(code) {
  return SHORT[code] ?? String(code ?? '');
}
