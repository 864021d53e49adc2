// dim-algebra.js — arithmetic on dimensions that may be names (dim-names.js): products, exact quotients, sums,
// broadcasting, and the fallback for everything else.
//
// Contract (every function takes the import's DimTable `t`, or null when every dimension is a number):
//   knownProduct(dims)           the product when every dim is a number, else null
//   productDim(t, dims)          the product as one dimension: a number, a name (N*1 is N), or a derived name
//                                for a product one name cannot say ("batch_x_seq" for batch*seq), which later
//                                products and quotients see through (a derived product is its monomial)
//   quotientDim(t, a, b)         the dimension a / b when it divides exactly as monomials ((batch*seq*768) /
//                                (batch*768) = seq; 12 / 4 = 3), else null
//   sumDim(t, dims)              the sum: a number when all are, a name plus zeros is the name, else a derived name
//   broadcastDim(t, a, b)        NumPy broadcasting of two dims: equal dims and 1 against anything as NumPy does;
//                                a name against a number k ≠ 1 gives k (the name can only be 1 or k); two
//                                different names give a derived name (its default: the broadcast of their
//                                defaults); two different numbers neither 1 give null (the caller reports it)
//   sameDim(a, b)                the dimension two dims that must be equal share: a number wins over a name, the
//                                first of two names; null for two different numbers
//   liftDim(t, what, args, f)    f(...args) when args are all numbers; else a derived name keyed by what + args
//                                whose default is f at the defaults ("H_conv" for a window over a named H); f may
//                                throw ShapeError at the defaults, and the default is then 1
// A monomial is {coef, names} (names sorted, repeats for powers). Tested by tests/onnx/onnx-dims.test.mjs.

import { ShapeError } from './errors.js';
import { isName } from './dim-names.js';

export const allNumbers = (dims) => dims.every((d) => !isName(d));
export const knownProduct = (dims) => (allNumbers(dims) ? dims.reduce((a, b) => a * b, 1) : null);

function monomialOf(t, d) {
  if (!isName(d)) return { coef: d, names: [] };
  return t?.product(d) ?? { coef: 1, names: [d] };
}

const times = (a, b) => ({ coef: a.coef * b.coef, names: [...a.names, ...b.names].sort() });

function toDim(t, m) {
  if (m.coef === 0 || m.names.length === 0) return m.coef;
  if (m.coef === 1 && m.names.length === 1) return m.names[0];
  const parts = [...m.names, ...(m.coef === 1 ? [] : [String(m.coef)])];
  const value = m.names.reduce((v, n) => v * t.valueOf(n), m.coef);
  return t.derive(`prod:${parts.join('*')}`, parts.join('_x_'), value, parts.join('*'), m);
}

export function productDim(t, dims) {
  const known = knownProduct(dims);
  if (known !== null) return known;
  return toDim(t, dims.map((d) => monomialOf(t, d)).reduce(times, { coef: 1, names: [] }));
}

export function quotientDim(t, a, b) {
  const [ma, mb] = [monomialOf(t, a), monomialOf(t, b)];
  if (mb.coef === 0 || ma.coef % mb.coef !== 0) return null;
  const rest = [...ma.names];
  for (const n of mb.names) {
    const i = rest.indexOf(n);
    if (i < 0) return null;
    rest.splice(i, 1);
  }
  return toDim(t, { coef: ma.coef / mb.coef, names: rest });
}

export function sumDim(t, dims) {
  const names = dims.filter(isName).sort();
  const constant = dims.filter((d) => !isName(d)).reduce((a, b) => a + b, 0);
  if (names.length === 0) return constant;
  if (names.length === 1 && constant === 0) return names[0];
  const parts = [...names, ...(constant ? [String(constant)] : [])];
  const value = names.reduce((v, n) => v + t.valueOf(n), constant);
  return t.derive(`sum:${parts.join('+')}`, parts.join('_plus_'), value, parts.join(' + '));
}

export function broadcastDim(t, a, b) {
  if (a === b || b === 1) return a;
  if (a === 1) return b;
  if (!isName(a) && !isName(b)) return null;
  if (!isName(a)) return a;
  if (!isName(b)) return b;
  const [x, y] = [a, b].sort();
  const [vx, vy] = [t.valueOf(x), t.valueOf(y)];
  const value = vx === 1 ? vy : vy === 1 ? vx : Math.max(vx, vy);
  return t.derive(`or:${x}|${y}`, `${x}_or_${y}`, value, `'${x}' broadcast against '${y}' (one of them, or both)`);
}

export function sameDim(a, b) {
  if (a === b || isName(b)) return a;
  if (isName(a)) return b;
  return null;
}

export function liftDim(t, what, args, f) {
  if (allNumbers(args)) return f(...args);
  let value;
  try {
    value = f(...args.map((d) => t.valueOf(d)));
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    value = 1;
  }
  if (!Number.isSafeInteger(value) || value < 0) value = 1;
  const base = `${args.find(isName)}_${what}`;
  return t.derive(`${what}(${args.join(',')})`, base, value, `the ${what} of (${args.join(', ')})`);
}
