// diagnostics.js — planner errors → editor diagnostics (text ranges) and one-line summaries.
//
// Contract: toDiagnostics(text, result) with result.ok === false → [{from, to, severity:'error', message}],
// one per entry of result.errors (or result.error). A JSON syntax error is placed at its line/column
// (1-based); a validation error at the node its JSON pointer `path` names, found with jsonc-parser (the
// nearest existing ancestor when the node itself is missing), clipped to one line. Ranges are always inside
// the text. summarize(error) → "Line 3, column 5: message" for the status line (error-summary.js,
// re-exported). Pure; no DOM.
// Shown by tests/web/diagnostics.test.mjs.

import { parseTree, findNodeAtLocation } from 'jsonc-parser';

export { summarize } from './error-summary.js';

// The offset of a 1-based line/column, clamped into the text.
export function offsetOf(text, line, column) {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) return text.length;
    offset = nl + 1;
  }
  const lineEnd = text.indexOf('\n', offset) < 0 ? text.length : text.indexOf('\n', offset);
  return Math.min(offset + Math.max(0, (column ?? 1) - 1), lineEnd);
}

// "/ops/3/inputs/0" → ['ops', 3, 'inputs', 0]
export function pointerSegments(path) {
  if (!path) return [];
  return path
    .split('/')
    .slice(1)
    .map((s) => {
      const key = s.replace(/~1/g, '/').replace(/~0/g, '~');
      return /^\d+$/.test(key) ? Number(key) : key;
    });
}

// The text range of the node at a JSON pointer (or its nearest ancestor), clipped to its first line.
export function rangeOfPath(text, path) {
  const root = parseTree(text);
  if (!root) return null;
  let segs = pointerSegments(path);
  for (; segs.length >= 0; segs = segs.slice(0, -1)) {
    const node = segs.length ? findNodeAtLocation(root, segs) : root;
    if (node) {
      const from = node.offset;
      const nl = text.indexOf('\n', from);
      const to = Math.min(from + node.length, nl < 0 ? text.length : nl);
      return { from, to: Math.max(to, from + 1 <= text.length ? from + 1 : from) };
    }
    if (segs.length === 0) return null;
  }
  return null;
}

function rangeOf(text, err) {
  if (err.line != null) {
    const from = offsetOf(text, err.line, err.column);
    return { from, to: Math.min(text.length, from + 1) };
  }
  return rangeOfPath(text, err.path) ?? { from: 0, to: Math.min(1, text.length) };
}

export function toDiagnostics(text, result) {
  const errors = result.errors?.length ? result.errors : result.error ? [result.error] : [];
  return errors.map((err) => ({ ...rangeOf(text, err), severity: 'error', message: err.message ?? err.code }));
}
