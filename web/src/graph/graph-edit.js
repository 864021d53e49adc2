// graph-edit.js — the edits a person makes on the graph view, as pure functions graph → new graph.
//
// Contract: every function takes a graph object ({ops:[...]}, docs/design.md §2) and returns a new one;
// the input is never mutated. Op references in `inputs` keep their form (name or index): removing an op
// renumbers index references after it and drops references to it; renaming an op renames references to it.
// Edits do not validate: an edit may produce a graph the planner rejects, and the planner says why.
// Shown by tests/web/graph-edit.test.mjs.

import { resolveInputs } from './graph-text.js';

const cloneOps = (graph) => graph.ops.map((op) => ({ ...op, ...(op.inputs ? { inputs: [...op.inputs] } : {}) }));

// A name not used by any op: base, base_1, base_2, …
export function uniqueName(graph, base) {
  const used = new Set(graph.ops.map((op) => op.name));
  if (!used.has(base)) return base;
  for (let i = 1; ; i++) if (!used.has(`${base}_${i}`)) return `${base}_${i}`;
}

// The reference other ops should use for op i: its name when it has one, else its index.
export function refTo(graph, i) {
  const name = graph.ops[i]?.name;
  return typeof name === 'string' && name ? name : i;
}

export function addOp(graph, op) {
  const clean = { ...op };
  if (!clean.inputs || clean.inputs.length === 0) delete clean.inputs;
  return { ...graph, ops: [...cloneOps(graph), clean] };
}

export function removeOp(graph, index) {
  const resolved = resolveInputs(graph);
  const ops = cloneOps(graph)
    .map((op, i) => {
      if (!op.inputs) return op;
      const inputs = [];
      op.inputs.forEach((ref, k) => {
        if (resolved[i][k] === index) return;
        inputs.push(Number.isInteger(ref) && ref > index ? ref - 1 : ref);
      });
      const next = { ...op, inputs };
      if (inputs.length === 0) delete next.inputs;
      return next;
    })
    .filter((_, i) => i !== index);
  return { ...graph, ops };
}

export function connect(graph, producer, consumer) {
  const ops = cloneOps(graph);
  ops[consumer] = { ...ops[consumer], inputs: [...(ops[consumer].inputs ?? []), refTo(graph, producer)] };
  return { ...graph, ops };
}

// Removes every reference from consumer to producer.
export function disconnect(graph, producer, consumer) {
  const resolved = resolveInputs(graph)[consumer];
  const ops = cloneOps(graph);
  const inputs = (ops[consumer].inputs ?? []).filter((_, k) => resolved[k] !== producer);
  ops[consumer] = { ...ops[consumer], inputs };
  if (inputs.length === 0) delete ops[consumer].inputs;
  return { ...graph, ops };
}

// Sets fields of op i (a field set to undefined is removed); a rename is carried into references.
export function updateOp(graph, index, patch) {
  const before = graph.ops[index];
  const resolved = resolveInputs(graph);
  const ops = cloneOps(graph);
  const next = { ...before, ...patch };
  for (const k of Object.keys(next)) if (next[k] === undefined) delete next[k];
  ops[index] = next;
  if ('name' in patch && patch.name !== before.name) {
    const ref = next.name ? next.name : index;
    ops.forEach((op, i) => {
      if (!op.inputs) return;
      op.inputs = op.inputs.map((r, k) => (resolved[i][k] === index && typeof r === 'string' ? ref : r));
    });
  }
  return { ...graph, ops };
}
