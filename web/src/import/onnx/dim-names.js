// dim-names.js — the names an import gives to dimensions it does not know as numbers (docs/design.md §16), the
// default value each name gets in the graph's "dims", and the text of a product of names.
//
// Contract: a dimension, everywhere in the importer, is a whole number ≥ 0 or a string that is a name (matching
// [A-Za-z_][A-Za-z0-9_]*) or a product of names and a whole number in canonical text ("batch*seq", "2*seq": the
// number first when it is not 1, then the names in ASCII order, a name repeated for a power, joined by '*'; the
// form the core keeps, docs/design.md §16). isName(d) tells such symbolic dimensions from numbers (a product
// counts); isProduct(d) tells a product from a single name. Canonical text makes equal dimensions equal strings.
//   productOf(d)            a dimension as a monomial {coef, names} (names ascending, repeated for powers)
//   productText(m)          a monomial as a dimension: a number when it has no names or coef 0, a name when it is
//                           one name, else the canonical product text; null when coef is no safe whole number
//   dimNames(d)             the names a dimension uses ([] for a number, the factors of a product)
// A DimTable (one per import) hands out names:
//   fromModel(raw)          an ONNX dim_param → its dimension: a name, sanitised by sanitizeDimName ("batch-size" →
//                           "batch_size", "2d" → "_2d", cut to MAX_NAME characters so that a suffix keeps it within
//                           the core's 64); the same raw name always gives the same name, and two raw names that
//                           sanitise alike get distinct names ("_2", "_3", ...). A dim_param that is a product of
//                           identifiers and whole numbers ("s0*s1", "2*s0", as torch.onnx's dynamo exporter writes
//                           them) is that product of the names its identifiers get
//   unknown(key, why)       a fresh name "unk_<k>" for a dimension nothing says anything about (an ONNX dim with
//                           neither value nor param, an empty param); the same key gives the same name
//   derive(key, base, value, expr)  a name for a dimension computed from others that no product of names can say
//                           (N + 3, a slice of H, a strided window): one name per key, called `base` when free; its
//                           default is `value` (its value when every name takes its default)
//   valueOf(d)              a number, or a name's default value, or a product's value at the defaults
//   firstUse(name, tensor)  the warning owed when the name first appears in an emitted op, in the shape of
//                           `tensor` (once per name), or null when none is owed
//   defaultsOf(names)       {name: default} for the graph's "dims"
//   unusedDefaults()        the keys of the given defaults that named no dimension of the model
// Defaults: `new DimTable({batch: 8})` gives model names (by their raw or sanitised spelling) and unknown names
// their values; a model or unknown name without one defaults to 1, and its warning says how to set it. A derived
// name's default is computed, never given. A product needs no default of its own: the core binds it to the
// product of its names' values. Tested by tests/onnx/onnx-dims.test.mjs.

export const DIM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const isName = (d) => typeof d === 'string';
export const isProduct = (d) => typeof d === 'string' && d.includes('*');

export function productOf(d) {
  if (!isName(d)) return { coef: d, names: [] };
  if (!isProduct(d)) return { coef: 1, names: [d] };
  const names = [];
  let coef = 1;
  for (const f of d.split('*')) {
    if (/^[0-9]+$/.test(f)) coef *= Number(f);
    else names.push(f);
  }
  return { coef, names: names.sort() };
}

export function productText({ coef, names }) {
  if (!Number.isSafeInteger(coef) || coef < 0) return null;
  if (coef === 0 || names.length === 0) return coef;
  const sorted = [...names].sort();
  return [...(coef === 1 ? [] : [String(coef)]), ...sorted].join('*');
}

export const dimNames = (d) => (isName(d) ? productOf(d).names : []);

// A dim_param that reads as a product: identifiers and whole numbers joined by '*' (spaces allowed around it).
const MODEL_PRODUCT = /^\s*[A-Za-z0-9_]+(\s*\*\s*[A-Za-z0-9_]+)+\s*$/;
const MAX_BASE = 48; // longer derived names fall back to "dim"
export const MAX_NAME = 60;

export function sanitizeDimName(raw) {
  const s = String(raw).replace(/[^A-Za-z0-9_]/g, '_');
  return (/^[0-9]/.test(s) ? `_${s}` : s).slice(0, MAX_NAME);
}

const howToSet = (name) =>
  `set it with the import option dims: {${name}: N} (onnx2fusion --dim ${name}=N) or bind it when planning`;

export class DimTable {
  constructor(defaults = {}) {
    this.given = new Map(Object.entries(defaults ?? {}));
    this.info = new Map(); // name → {kind: 'model'|'unknown'|'derived', value, given, raw, why, expr}
    this.byRaw = new Map(); // raw dim_param → name or product
    this.byKey = new Map();
    this.matched = new Set(); // keys of `given` that named something
    this.reported = new Set();
    this.unknowns = 0;
  }

  unique(base) {
    let name = base;
    for (let k = 2; this.info.has(name); k++) name = `${base}_${k}`;
    return name;
  }

  givenValue(...keys) {
    const key = keys.find((k) => this.given.has(k));
    if (key === undefined) return undefined;
    this.matched.add(key);
    return this.given.get(key);
  }

  fromModel(raw) {
    if (this.byRaw.has(raw)) return this.byRaw.get(raw);
    const factors = MODEL_PRODUCT.test(raw) ? raw.split('*').map((f) => f.trim()) : null;
    if (factors?.some((f) => DIM_NAME.test(f)) && factors.every((f) => DIM_NAME.test(f) || /^[0-9]+$/.test(f))) {
      const parts = factors.map((f) => (DIM_NAME.test(f) ? { coef: 1, names: [this.fromModel(f)] } : productOf(+f)));
      const d = productText(parts.reduce((a, m) => ({ coef: a.coef * m.coef, names: [...a.names, ...m.names] })));
      if (d !== null) {
        this.byRaw.set(raw, d);
        return d;
      }
    }
    const name = this.unique(sanitizeDimName(raw));
    const value = this.givenValue(raw, name);
    this.info.set(name, { kind: 'model', raw, value: value ?? 1, given: value !== undefined });
    this.byRaw.set(raw, name);
    return name;
  }

  unknown(key, why) {
    if (this.byKey.has(key)) return this.byKey.get(key);
    let name;
    do name = `unk_${this.unknowns++}`;
    while (this.info.has(name));
    const value = this.givenValue(name);
    this.info.set(name, { kind: 'unknown', why, value: value ?? 1, given: value !== undefined });
    this.byKey.set(key, name);
    return name;
  }

  derive(key, base, value, expr) {
    if (this.byKey.has(key)) return this.byKey.get(key);
    const ok = base.length <= MAX_BASE && DIM_NAME.test(base);
    const name = this.unique(ok ? base : 'dim');
    this.info.set(name, { kind: 'derived', value, expr });
    this.byKey.set(key, name);
    return name;
  }

  valueOf(d) {
    if (!isName(d)) return d;
    if (!isProduct(d)) return this.info.get(d)?.value ?? 1;
    const { coef, names } = productOf(d);
    return names.reduce((v, n) => v * this.valueOf(n), coef);
  }

  isUnknown(name) {
    return this.info.get(name)?.kind === 'unknown';
  }

  firstUse(name, tensor) {
    if (this.reported.has(name)) return null;
    this.reported.add(name);
    const info = this.info.get(name);
    if (!info) return null;
    if (info.kind === 'derived') {
      return (
        `dimension '${name}' of '${tensor}' stands for ${info.expr}, which one name cannot say; "dims" gives it ` +
        `${info.value} (its value at the defaults), and it does not follow when the names it comes from are bound ` +
        'otherwise'
      );
    }
    const renamed = info.kind === 'model' && info.raw !== name;
    const what =
      info.kind === 'unknown'
        ? `${info.why} is named '${name}'`
        : `dimension '${info.raw}' of '${tensor}'${renamed ? ` is named '${name}'` : ''}`;
    if (info.given) return renamed ? what : null;
    const has = info.kind === 'unknown' || renamed ? ' and has' : ' has';
    return `${what}${has} no value, so "dims" gives it 1: ${howToSet(name)}`;
  }

  defaultsOf(names) {
    return Object.fromEntries([...names].map((n) => [n, this.valueOf(n)]));
  }

  unusedDefaults() {
    return [...this.given.keys()].filter((k) => !this.matched.has(k));
  }
}
