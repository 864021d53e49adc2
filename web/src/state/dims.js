// dims.js — the values a person gives the graph's named dimensions (docs/design.md §16): the `dims` of the
// planner options the page state holds.
//
// Contract (pure, no DOM): a dims object maps a dimension name (isDimName: [A-Za-z_][A-Za-z0-9_]*, at most 64
// characters) to a finite number; whether that number is a valid size (whole, 0 … 2^53 − 1) is the planner's
// call (it answers invalid_options at /dims/<name>), so a typed -3 or 2.5 is kept and sent, never re-checked here.
//   readDims(v) → a dims object (a copy, names in insertion order), {} for undefined, or null when v is not one;
//   withDim(dims, name, value) → a new dims object with name set (value null: removed); {} when empty;
//   parseDimsText('N=8, seq=128') → {dims} or {error} (words for people), formatDimsText(dims) → 'N=8,seq=128'
//     (the element's dims attribute and the readable share links);
//   dimAtPath(graph, path, given?) → the dimension name written at an error's '/ops/i/shape/d' in the graph
//     (in a product such as '2*N*M', its first name with no value in the graph's dims nor in `given`), or null
//     (an unbound_dim error points there: the page offers a value for that name);
//   sweepOptions(options, dim) → the options without a value for dim (a sweep gives it every value; the
//     same sweep serves every position of that name's slider);
//   chartDim(state) → the name the size chart follows: state.sweepDim when the plan on screen has it, else
//     the plan's first name, null when it has none.
// Read by the reducer (events.js), drafts.js, share links (share/) and the custom element (element/).
// Shown by tests/web/dims.test.mjs.

export const MAX_DIM_NAME = 64;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const isDimName = (s) => typeof s === 'string' && s.length <= MAX_DIM_NAME && NAME.test(s);
const isValue = (v) => typeof v === 'number' && Number.isFinite(v);

export function readDims(v) {
  if (v === undefined) return {};
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const entries = Object.entries(v);
  if (!entries.every(([name, value]) => isDimName(name) && isValue(value))) return null;
  return Object.fromEntries(entries); // own keys even for a name such as __proto__
}

export function withDim(dims, name, value) {
  if (!isDimName(name)) throw new Error(`bad dimension name ${name}`);
  if (value !== null && !isValue(value)) throw new Error(`bad value for ${name}: ${value}`);
  const { [name]: _, ...rest } = dims ?? {};
  return value === null ? rest : { ...rest, [name]: value };
}

export function parseDimsText(text) {
  const dims = [];
  const parts = String(text ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const part of parts) {
    const m = /^([^=\s]+)\s*=\s*(\S+)$/.exec(part);
    if (!m) return { error: `“${part.slice(0, 40)}” is not NAME=VALUE (such as N=8)` };
    const [, name, raw] = m;
    if (!isDimName(name)) return { error: `“${name.slice(0, 40)}” is not a dimension name (letters, digits, _)` };
    const value = Number(raw);
    if (!/^[-+]?[\d.eE+-]+$/.test(raw) || !isValue(value))
      return { error: `${name}=${raw.slice(0, 40)} is not a number` };
    dims.push([name, value]);
  }
  return { dims: Object.fromEntries(dims) };
}

export const formatDimsText = (dims) =>
  Object.entries(dims ?? {})
    .map(([name, value]) => `${name}=${value}`)
    .join(',');

export function dimAtPath(graph, path, given = {}) {
  const m = /^\/ops\/(\d+)\/shape\/(\d+)$/.exec(path ?? '');
  const entry = m && graph?.ops?.[Number(m[1])]?.shape?.[Number(m[2])];
  if (typeof entry !== 'string') return null;
  const known = (name) => typeof graph.dims?.[name] === 'number' || typeof given?.[name] === 'number';
  return entry.split('*').find((f) => isDimName(f) && !known(f)) ?? null;
}

export function sweepOptions(options, dim) {
  const { dims: _, ...rest } = options;
  const dims = withDim(options.dims, dim, null);
  return Object.keys(dims).length ? { ...rest, dims } : rest;
}

export function chartDim(state) {
  const names = Object.keys(state.plan?.dims ?? {});
  return names.includes(state.sweepDim) ? state.sweepDim : (names[0] ?? null);
}
