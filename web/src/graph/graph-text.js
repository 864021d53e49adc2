// graph-text.js — graph JSON text ⇄ graph object, resolving input references, and a shape as a person types it.
//
// Contract: parseGraphText(text) → {ok:true, graph} when the text is a JSON object with an `ops` array,
// else {ok:false}; it does not validate (the planner does, and reports errors as data).
// formatGraph(graph) → canonical text: one op per line, keys in a fixed order, so diffs and share links stay
// small and graph edits produce text a person can read; the default values of named dimensions (docs/design.md
// §16), when the graph has a "dims" object, come first on the opening line: {"dims": {"N": 8}, "ops": [
// resolveInputs(graph) maps each op's inputs (indices or names) to op indices, or -1 for a reference to no op.
// parseShape(text) reads a shape typed in a form field ("1024, 768", "[1024, 768]" or "1024x768" → [1024, 768];
// "N, 768" → ["N", 768], a dimension name of docs/design.md §16, with or without quotes; "" or "[]" → []) and
// gives null when an entry is neither a whole number ≥ 0 nor a name. No planning, no byte counts.
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

// One typed entry: a whole number ≥ 0, a dimension name (quotes allowed), or null.
function parseDim(word) {
  const name = word.replace(/^"(.*)"$/, '$1');
  if (DIM_NAME.test(name)) return name;
  const d = Number(word);
  return Number.isSafeInteger(d) && d >= 0 ? d : null;
}

// "1024, 768" → [1024, 768]; "N, 768" → ["N", 768]; "" or "[]" → []; null when an entry is neither.
export function parseShape(text) {
  const t = String(text)
    .trim()
    .replace(/^\[|\]$/g, '')
    .trim();
  if (t === '') return [];
  const dims = t
    .replace(/(\d)\s*[x×]\s*(?=\d)/g, '$1,') // "1024x768": x between numbers separates; a name may hold an x
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(parseDim);
  return dims.every((d) => d !== null) ? dims : null;
}
