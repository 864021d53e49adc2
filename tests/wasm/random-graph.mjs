// random-graph.mjs — seeded random fusion graphs in the JSON of docs/design.md §2, for parity tests.
//
// randomGraph(seed) is a pure function of the seed: a valid DAG of 1-40 ops mixing sources, unary, binary
// and ternary elementwise ops and barriers; shapes that are equal, broadcastable (suffixes, 1s, scalars,
// zero-size) or incompatible; dtype given as bytes or as a name; inputs given as indices or names, sometimes
// repeated (x * x); and in about a third of graphs the op list shuffled (indices remapped), so the planner
// must order it. Only kinds of docs/design.md §4 are used. Not here: invalid graphs (errors.test.mjs).

const SOURCES = ['input', 'constant'];
const UNARY = ['neg', 'abs', 'exp', 'log', 'sqrt', 'rsqrt', 'relu', 'gelu', 'sigmoid', 'tanh', 'silu', 'cast'];
const BINARY = ['add', 'sub', 'mul', 'div', 'max', 'min', 'pow'];
const BARRIERS = [
  ['matmul', 2],
  ['reduce_sum', 1],
  ['reduce_max', 1],
  ['reduce_mean', 1],
  ['transpose', 1],
];
const DTYPES = ['f32', 'f16', 'bf16', 'f64', 'i8', 'i32', 'i64', 'bool'];
const DIMS = [1, 2, 3, 4, 8, 16, 64, 128, 768, 1024];

// mulberry32: a small, well-mixed 32-bit PRNG; returns floats in [0, 1). Also used by
// tests/browser/slow-search-graph.mjs.
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomGraph(seed) {
  const random = prng(seed);
  const int = (n) => Math.floor(random() * n);
  const pick = (list) => list[int(list.length)];
  const chance = (p) => random() < p;

  const base = Array.from({ length: 1 + int(3) }, () => pick(DIMS));
  const shapeLike = () => {
    const r = random();
    if (r < 0.55) return [...base];
    if (r < 0.7) return base.slice(int(base.length)); // a suffix, possibly [] (a scalar)
    if (r < 0.8) return base.map((d) => (chance(0.5) ? 1 : d));
    if (r < 0.85) return [...base.slice(0, -1), 0]; // zero elements
    return Array.from({ length: 1 + int(3) }, () => pick(DIMS)); // likely incompatible
  };
  const dtypeOf = () => (chance(0.5) ? { dtype: pick(DTYPES) } : { dtype_bytes: pick([1, 2, 4, 8]) });

  const count = 1 + int(40);
  const ops = [];
  for (let id = 0; id < count; ++id) {
    const op = opAt(id);
    if (chance(0.5)) op.name = `t${id}`;
    ops.push(op);
  }
  // Inputs: mostly recent producers (long chains), sometimes any earlier op.
  function producer(id) {
    return chance(0.7) ? Math.max(0, id - 1 - int(3)) : int(id);
  }
  function opAt(id) {
    const arityKind = id === 0 || chance(0.15) ? ['source', 0] : chooseKind();
    const [kind, arity] = arityKind[0] === 'source' ? [pick(SOURCES), 0] : arityKind;
    const inputs = [];
    for (let k = 0; k < arity; ++k) inputs.push(k > 0 && chance(0.1) ? inputs[0] : producer(id));
    return { kind, ...(arity ? { inputs } : {}), shape: shapeLike(), ...dtypeOf() };
  }
  function chooseKind() {
    const r = random();
    if (r < 0.45) return [pick(UNARY), 1];
    if (r < 0.75) return [pick(BINARY), 2];
    if (r < 0.8) return ['where', 3];
    return pick(BARRIERS);
  }
  return { ops: referencedByName(shuffled(ops)) };

  // The op list in a random order (a third of the time), integer inputs renumbered to match.
  function shuffled(list) {
    if (!chance(0.33)) return list;
    const order = list.map((_, id) => id);
    for (let i = order.length - 1; i > 0; --i) {
      const j = int(i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    const position = new Map(order.map((id, at) => [id, at]));
    return order.map((id) => ({
      ...list[id],
      ...(list[id].inputs && {
        inputs: list[id].inputs.map((input) => position.get(input)),
      }),
    }));
  }
  // Named producers referenced by name about half the time.
  function referencedByName(list) {
    return list.map((op) =>
      !op.inputs
        ? op
        : {
            ...op,
            inputs: op.inputs.map((input) =>
              list[input].name !== undefined && chance(0.5) ? list[input].name : input,
            ),
          },
    );
  }
}
