// survey.js — one pass over the whole model before converting it, and the order in which a graph's nodes run.
//
// Contract:
//   survey(model, limits) → {used: Set of tensor names read by some node (in any subgraph) or listed as a graph
//     output}. Throws OnnxImportError (code 'too_large') past limits.maxNodes nodes in all, or for a node whose
//     subgraphs nest deeper than limits.maxNesting. Iterative: an explicit stack, no recursion.
//   nodeOrder(graph, path) → node indices in an order where producers come first: the listed order when it is
//     already topological (the ONNX rule), else Kahn's order over inputs and the names subgraphs read. Throws
//     OnnxImportError naming a node for a tensor produced twice or nodes that wait on each other (a cycle).
// Both are linear in the model's size. Tested by tests/onnx/onnx-import.test.mjs.

import { OnnxImportError, nodeError } from './errors.js';

const subgraphs = (node) =>
  node.attribute.flatMap((a) => [...(a.g ? [[a.name, a.g]] : []), ...a.graphs.map((g) => [a.name, g])]);

export function survey(model, limits) {
  const used = new Set();
  let nodes = 0;
  const stack = [{ graph: model.graph, depth: 0, path: 'graph' }];
  while (stack.length) {
    const { graph, depth, path } = stack.pop();
    for (const o of graph.output) used.add(o.name);
    graph.node.forEach((node, index) => {
      nodes += 1;
      if (nodes > limits.maxNodes) {
        throw new OnnxImportError(`model: more than ${limits.maxNodes} nodes; the importer stops there`, {
          code: 'too_large',
        });
      }
      for (const name of node.input) if (name) used.add(name);
      for (const [attr, g] of subgraphs(node)) {
        const where = { node, index, path: `${path}.node[${index}]` };
        if (depth + 1 > limits.maxNesting)
          throw nodeError(where, `subgraphs nest more than ${limits.maxNesting} deep`, 'too_large');
        stack.push({ graph: g, depth: depth + 1, path: `${where.path}.${attr}` });
      }
    });
  }
  return { used };
}

// Every name a node's subgraphs read (inputs of their nodes, their outputs), at any depth.
function namesReadInside(node) {
  const names = [];
  const stack = subgraphs(node).map(([, g]) => g);
  while (stack.length) {
    const g = stack.pop();
    for (const o of g.output) names.push(o.name);
    for (const inner of g.node) {
      names.push(...inner.input);
      stack.push(...subgraphs(inner).map(([, sub]) => sub));
    }
  }
  return names;
}

function producers(graph, path) {
  const producer = new Map();
  graph.node.forEach((node, index) => {
    for (const name of node.output) {
      if (!name) continue;
      if (producer.has(name)) {
        const where = { node, index, path: `${path}.node[${index}]` };
        throw nodeError(where, `tensor '${name}' is produced by an earlier node too`, 'invalid_model');
      }
      producer.set(name, index);
    }
  });
  return producer;
}

const isListedInOrder = (graph, producer) =>
  graph.node.every((node, i) => node.input.every((name) => !(producer.get(name) >= i)));

export function nodeOrder(graph, path) {
  const producer = producers(graph, path);
  if (isListedInOrder(graph, producer)) return graph.node.map((_, i) => i);
  const waiting = graph.node.map(() => 0);
  const consumers = graph.node.map(() => []);
  graph.node.forEach((node, i) => {
    for (const p of new Set([...node.input, ...namesReadInside(node)].map((n) => producer.get(n)))) {
      if (p === undefined) continue;
      waiting[i] += 1;
      consumers[p].push(i);
    }
  });
  const order = graph.node.flatMap((_, i) => (waiting[i] === 0 ? [i] : []));
  for (let k = 0; k < order.length; k++) {
    for (const c of consumers[order[k]]) if (--waiting[c] === 0) order.push(c);
  }
  if (order.length < graph.node.length) {
    const stuck = waiting.findIndex((w) => w > 0);
    throw nodeError(
      { node: graph.node[stuck], index: stuck, path: `${path}.node[${stuck}]` },
      'the nodes form a cycle: this node waits, directly or not, for its own output',
      'invalid_model',
    );
  }
  return order;
}
