// graph-text.js — graph JSON text ⇄ graph object, resolving input references, and a shape as a person types it.
//
// Contract: parseGraphText(text) → {ok:true, graph} when the text is a JSON object with an `ops` array,
// else {ok:false}; it does not validate (the planner does, and reports errors as data).
// formatGraph(graph) → canonical text: one op per line, keys in a fixed order, so diffs and share links stay
// small and graph edits produce text a person can read; the default values of named dimensions (docs/design.md
// §16), when the graph has a "dims" object, come first on the opening line: {"dims": {"N": 8}, "ops": [
// resolveInputs(graph) maps each op's inputs (indices or names) to op indices, or -1 for a reference to no op.
// parseShape(text) reads a shape typed in a form field ("1024, 768", "[1024, 768]" or "1024x768" → [1024, 768];
// "N, 768" → ["N", 768], a dimension name of docs/design.md §16, with or without quotes; "" or "[]" → []).
// An entry may also be a product of names and whole numbers joined by '*' (spaces around '*' allowed), with at
// least one name, which it writes in the core's canonical form: the number first when it is not 1, then the
// names in ASCII order ("seq * 2 * batch" → "2*batch*seq", "1*seq" → "seq"). It gives null when an entry is none
// of these, by the core's rule: a name is [A-Za-z_][A-Za-z0-9_]* of at most 64 bytes, a number a whole number
// from 0 to 2^53 − 1 (a product's number too; a factor has at most 16 digits). No planning, no byte counts.
// Shown by tests/web/graph-text.test.mjs.

const KEY_ORDER = ['name', 'kind', 'inputs', 'shape', 'dtype', 'dtype_bytes'];

export function parseGraphText(text) {
  try {
    const graph = JSON.parse(text);
    if (graph && typeof graph === 'object' && Array.isArray(graph.ops)) return { ok: true, graph };
  } catch {
    /* broken text: the planner reports where */
  }
  return { ok: false };
}

// A JSON value on one line with ", " between items ("[4096, 768]").
function formatValue(v) {
  if (Array.isArray(v)) return `[${v.map(formatValue).join(', ')}]`;
  if (v && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${formatValue(x)}`)
      .join(', ')}}`;
  return JSON.stringify(v);
}

// One op as a single JSON line with keys in KEY_ORDER, then any other keys as written.
function formatOp(op) {
  const keys = [
    ...KEY_ORDER.filter((k) => op[k] !== undefined),
    ...Object.keys(op).filter((k) => !KEY_ORDER.includes(k)),
  ];
  return `{${keys.map((k) => `${JSON.stringify(k)}: ${formatValue(op[k])}`).join(', ')}}`;
}

export function formatGraph(graph) {
  const ops = graph.ops ?? [];
  const dims = graph.dims && typeof graph.dims === 'object' ? `"dims": ${formatValue(graph.dims)}, ` : '';
  if (ops.length === 0) return `{${dims}"ops": []}\n`;
  return `{${dims}"ops": [\n${ops.map((op) => `  ${formatOp(op)}`).join(',\n')}\n]}\n`;
}

// The op indices each op reads, in order (-1 where a reference names no op).
export function resolveInputs(graph) {
  const byName = new Map();
  graph.ops.forEach((op, i) => {
    if (typeof op?.name === 'string') byName.set(op.name, i);
  });
  const ref = (r) => {
    if (Number.isInteger(r)) return r >= 0 && r < graph.ops.length ? r : -1;
    return byName.get(r) ?? -1;
  };
  return graph.ops.map((op) => (Array.isArray(op?.inputs) ? op.inputs.map(ref) : []));
}

// A person-facing label for op i: its name, else "#i kind".
export function opLabel(graph, i) {
  const op = graph.ops[i];
  return typeof op?.name === 'string' && op.name ? op.name : `#${i} ${op?.kind ?? '?'}`;
}

const DIM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_DIM_NAME = 64; // bytes; names are ASCII
const isDimName = (s) => s.length <= MAX_DIM_NAME && DIM_NAME.test(s);

// "seq*2*batch" → "2*batch*seq" (the core's canonical text), "1*N" → "N"; null unless every factor is a name or a
// whole number, at least one a name, and the number stays within 2^53 − 1.
function parseProduct(text) {
  const names = [];
  let coef = 1;
  for (const f of text.split('*')) {
    if (isDimName(f)) names.push(f);
    else if (/^[0-9]{1,16}$/.test(f)) coef *= Number(f);
    else return null;
    if (!Number.isSafeInteger(coef)) return null;
  }
  if (names.length === 0) return null;
  return [...(coef === 1 ? [] : [String(coef)]), ...names.sort()].join('*');
}

// One typed entry: a whole number ≥ 0, a dimension name or a product (quotes allowed), or null.
function parseDim(word) {
  const name = word.replace(/^"(.*)"$/, '$1');
  if (isDimName(name)) return name;
  if (word.includes('*')) return parseProduct(word.replace(/"/g, '')); // '"batch" * "seq"' too
  const d = Number(word);
  return Number.isSafeInteger(d) && d >= 0 ? d : null;
}

// "1024, 768" → [1024, 768]; "N, 768" → ["N", 768]; "batch * seq, 768" → ["batch*seq", 768]; "" or "[]" → [];
// null when an entry is none of these.
export function parseShape(text) {
  const t = String(text)
    .trim()
    .replace(/^\[|\]$/g, '')
    .trim();
  if (t === '') return [];
  const dims = t
    .replace(/(\d)\s*[x×]\s*(?=\d)/g, '$1,') // "1024x768": x between numbers separates; a name may hold an x
    .replace(/\s*\*\s*/g, '*') // "batch * seq" is one entry
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(parseDim);
  return dims.every((d) => d !== null) ? dims : null;
}
