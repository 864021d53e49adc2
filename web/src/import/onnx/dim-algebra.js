// dim-algebra.js — arithmetic on dimensions that may be names or products of names (dim-names.js): products,
// exact quotients and differences, sums, broadcasting, and the fallback for everything else.
//
// A symbolic dimension is a monomial, a whole number times names: the name "seq", or the product "2*batch*seq" in
// the canonical text of docs/design.md §16 (dim-names.js productText), which the core binds to the product of its
// names' values and prices as a monomial. So every result that is a monomial is written as one, with no warning
// and no default of its own; only what no monomial can say gets a derived name (DimTable derive), whose default
// is its value when every name takes its default and which does not follow other bindings (its warning says so).
//
// Contract (every function takes the import's DimTable `t`, or null when every dimension is a number):
//   knownProduct(dims)           the product when every dim is a number, else null
//   productDim(t, dims)          the product as one dimension: a number, a name (N*1 is N) or a product
//                                ("batch*seq", "64*seq"; 0 times anything is 0)
//   quotientDim(t, a, b)         the dimension a / b when it divides exactly as monomials ("768*batch*seq" /
//                                "768*batch" = "seq"; 12 / 4 = 3), else null
//   differenceDim(t, a, b)       a − b when it is a monomial ≥ 0 (x − 0, x − x, "3*N" − N = "2*N"), else null
//   sumDim(t, dims)              the sum: a number when all are; monomials of the same names add up ("seq" +
//                                "seq" = "2*seq"; a name plus zeros is the name); else a derived name ("N_plus_3")
//   broadcastDim(t, a, b)        NumPy broadcasting of two dims: equal dims and 1 against anything as NumPy does;
//                                a name against a number k ≠ 1 gives k (the name can only be 1 or k); two
//                                different names give a derived name (its default: the broadcast of their
//                                defaults); two different numbers neither 1 give null (the caller reports it)
//   sameDim(a, b)                the dimension two dims that must be equal share: a number wins over a name, the
//                                first of two names; null for two different numbers
//   liftDim(t, what, args, f)    f(...args) when args are all numbers; else a derived name keyed by what + args
//                                whose default is f at the defaults ("H_window" for a strided window over a named
//                                H); f may throw ShapeError at the defaults, and the default is then 1
// A monomial is {coef, names} (names sorted, repeats for powers). Tested by tests/onnx/onnx-dims.test.mjs.

import { ShapeError } from './errors.js';
import { isName, productOf, productText } from './dim-names.js';

export const allNumbers = (dims) => dims.every((d) => !isName(d));
export const knownProduct = (dims) => (allNumbers(dims) ? dims.reduce((a, b) => a * b, 1) : null);

const times = (a, b) => ({ coef: a.coef * b.coef, names: [...a.names, ...b.names].sort() });
const sameNames = (a, b) => a.names.length === b.names.length && a.names.every((n, i) => n === b.names[i]);
// A dimension as part of a derived name, which must start as a name does: the names, then the number ("2*seq" →
// "seq_x_2").
function baseOf(d) {
  if (!isName(d)) return String(d);
  const { coef, names } = productOf(d);
  return [...names, ...(coef === 1 ? [] : [String(coef)])].join('_x_');
}

// A monomial as a dimension; a coefficient past 2^53 − 1 (which no graph can hold) gets a derived name.
function toDim(t, m) {
  const d = productText(m);
  if (d !== null) return d;
  const text = [String(m.coef), ...m.names].join('*');
  const value = m.names.reduce((v, n) => v * t.valueOf(n), m.coef);
  return t.derive(`prod:${text}`, [...m.names, String(m.coef)].join('_x_'), value, text);
}

export function productDim(t, dims) {
  const known = knownProduct(dims);
  if (known !== null) return known;
  return toDim(t, dims.map(productOf).reduce(times, { coef: 1, names: [] }));
}

export function quotientDim(t, a, b) {
  const [ma, mb] = [productOf(a), productOf(b)];
  if (mb.coef === 0 || ma.coef % mb.coef !== 0) return null;
  const rest = [...ma.names];
  for (const n of mb.names) {
    const i = rest.indexOf(n);
    if (i < 0) return null;
    rest.splice(i, 1);
  }
  return toDim(t, { coef: ma.coef / mb.coef, names: rest });
}

export function differenceDim(t, a, b) {
  if (b === 0) return a;
  if (a === b) return 0;
  const [ma, mb] = [productOf(a), productOf(b)];
  if (!isName(a) || !isName(b) || !sameNames(ma, mb) || ma.coef < mb.coef) return null;
  return toDim(t, { coef: ma.coef - mb.coef, names: ma.names });
}

export function sumDim(t, dims) {
  const terms = [];
  for (const m of dims.filter(isName).map(productOf)) {
    const like = terms.find((x) => sameNames(x, m));
    if (like) like.coef += m.coef;
    else terms.push({ ...m });
  }
  const constant = dims.filter((d) => !isName(d)).reduce((a, b) => a + b, 0);
  if (terms.length === 0) return constant;
  if (terms.length === 1 && constant === 0) return toDim(t, terms[0]);
  const parts = [...terms.map(productText).sort(), ...(constant ? [String(constant)] : [])];
  const value = dims.reduce((v, d) => v + t.valueOf(d), 0);
  return t.derive(`sum:${parts.join('+')}`, parts.map(baseOf).join('_plus_'), value, parts.join(' + '));
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
  const base = `${baseOf(x)}_or_${baseOf(y)}`;
  return t.derive(`or:${x}|${y}`, base, value, `'${x}' broadcast against '${y}' (one of them, or both)`);
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
  const base = `${baseOf(args.find(isName))}_${what}`;
  return t.derive(`${what}(${args.join(',')})`, base, value, `the ${what} of (${args.join(', ')})`);
}
