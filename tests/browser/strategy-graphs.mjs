// strategy-graphs.mjs — graphs for the browser tests (not a test file itself): those on which the strategies of
// docs/strategies.md decide differently, and matmulChain(n), a large one. Each is graph JSON text; the expected
// plans come from the CLI.
import { formatGraph } from '../../web/src/graph/graph-text.js';

const op = (name, kind, inputs, shape) => ({ name, kind, ...(inputs.length ? { inputs } : {}), shape, dtype: 'f16' });
const text = (ops) => formatGraph({ ops }); // one op per line, as the page writes graphs

// matmul + bias + relu, then a row sum: TVM-style rules fuse the epilogue into the matmul, XLA-style ones do not.
export const EPILOGUE = text([
  op('x', 'input', [], [512, 1024]),
  op('w', 'input', [], [1024, 1024]),
  op('b', 'input', [], [1024]),
  op('mm', 'matmul', ['x', 'w'], [512, 1024]),
  op('y', 'add', ['mm', 'b'], [512, 1024]),
  op('z', 'relu', ['y'], [512, 1024]),
  op('s', 'reduce_sum', ['z'], [512, 1]),
]);

// A cheap op read by two reductions: a strategy that recomputes cheap producers copies it into both.
export const SHARED = text([
  op('x', 'input', [], [4096, 1024]),
  op('e', 'neg', ['x'], [4096, 1024]),
  op('a', 'reduce_sum', ['e'], [4096, 1]),
  op('m', 'reduce_max', ['e'], [4096, 1]),
]);

// A row softmax (max, x − max, exp, sum, ÷): Inductor fuses it whole (several reductions per kernel), XLA's
// priority fusion copies the cheap sub and exp into both their consumers (the sum and the division).
export const SOFTMAX = text([
  op('x', 'input', [], [1024, 1024]),
  op('m', 'reduce_max', ['x'], [1024, 1]),
  op('d', 'sub', ['x', 'm'], [1024, 1024]),
  op('e', 'exp', ['d'], [1024, 1024]),
  op('s', 'reduce_sum', ['e'], [1024, 1]),
  op('y', 'div', ['e', 's'], [1024, 1024]),
]);

// A chain of n blocks (weight, matmul, gelu, residual add) as compact JSON text: 4n + 1 ops, for the planner
// worker's test and bench/page-timing.mjs.
export function matmulChain(n) {
  const ops = [op('x0', 'input', [], [512, 256])];
  for (let b = 0; b < n; b++) {
    const x = b === 0 ? 'x0' : `r${b - 1}`;
    ops.push(
      op(`w${b}`, 'input', [], [256, 256]),
      op(`m${b}`, 'matmul', [x, `w${b}`], [512, 256]),
      op(`g${b}`, 'gelu', [`m${b}`], [512, 256]),
      op(`r${b}`, 'add', [`g${b}`, x], [512, 256]),
    );
  }
  return JSON.stringify({ ops });
}
