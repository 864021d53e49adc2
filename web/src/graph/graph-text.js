// graph-text.js — graph JSON text ⇄ graph object, resolving input references, and a shape as a person types it.
//
// Contract: parseGraphText(text) → {ok:true, graph} when the text is a JSON object with an `ops` array,
// else {ok:false}; it does not validate (the planner does, and reports errors as data).
// formatGraph(graph) → canonical text: one op per line, keys in a fixed order, so diffs and share links stay
// small and graph edits produce text a person can read. resolveInputs(graph) maps each op's inputs (indices
// or names) to op indices, or -1 for a reference to no op. parseShape(text) reads a shape typed in a form field
// ("1024, 768", "[1024, 768]" or "1024x768" → [1024, 768]; "" or "[]" → []) and gives null when it is not a
// list of non-negative integers. No planning, no byte counts.
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
  if (ops.length === 0) return '{"ops": []}\n';
  return `{"ops": [\n${ops.map((op) => `  ${formatOp(op)}`).join(',\n')}\n]}\n`;
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

// "1024, 768" → [1024, 768]; "" or "[]" → []; null when not a list of non-negative integers.
export function parseShape(text) {
  const t = String(text)
    .trim()
    .replace(/^\[|\]$/g, '')
    .trim();
  if (t === '') return [];
  const dims = t
    .split(/[\s,x×]+/)
    .filter(Boolean)
    .map(Number);
  return dims.every((d) => Number.isSafeInteger(d) && d >= 0) ? dims : null;
}
