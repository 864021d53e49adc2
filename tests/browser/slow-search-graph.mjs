// slow-search-graph.mjs — a graph whose plan search takes a while (not a test file): a seeded 60-op chain of
// adds and muls of one shape, a quarter of them matmuls reading recent ops, so fusible parts interlock with
// barriers and branch and bound has much to visit. With a budget of 20,000,000 nodes the search runs for tens
// of seconds in WASM (measured: 5,000,000 nodes in about 13 s under Node), which is what a cancel test needs;
// the node budget, not a clock, makes it slow, so it is slow on every machine. page-search.test.mjs uses it.

import { prng } from '../wasm/random-graph.mjs';

export function slowSearchGraph(seed = 1, n = 60) {
  const r = prng(seed);
  const ops = [
    { name: 'x', kind: 'input', shape: [1024], dtype: 'f32' },
    { name: 'y', kind: 'input', shape: [1024], dtype: 'f32' },
  ];
  for (let i = 0; i < n; i++) {
    const pick = () => ops[Math.max(0, ops.length - 1 - Math.floor(r() * 6))].name;
    if (r() < 0.25) ops.push({ name: `m${i}`, kind: 'matmul', inputs: [pick(), 'y'], shape: [1024], dtype: 'f32' });
    else
      ops.push({
        name: `e${i}`,
        kind: r() < 0.5 ? 'add' : 'mul',
        inputs: [pick(), pick()],
        shape: [1024],
        dtype: 'f32',
      });
  }
  return JSON.stringify({ ops }, null, 1);
}
