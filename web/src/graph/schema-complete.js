// schema-complete.js — completion of op fields, kinds and dtypes in the JSON box, read from the graph
// JSON Schema (schema/graph.schema.json), so the editor and other tools share one description.
//
// Contract: schemaCompletions(text, pos, schema) → {from, to, options:[{label, apply, detail, info, type}]}
// or null. At a property key inside an op it offers the op's fields not yet present; inside the value of
// "kind" or "dtype" it offers the schema's enum; at the top level it offers "ops". Inside a string, from/to
// cover its characters between the quotes and `apply` is the bare word; outside one, `apply` brings quotes.
// Pure (jsonc-parser's getLocation); no DOM. Shown by tests/web/schema-complete.test.mjs.

import { getLocation } from 'jsonc-parser';
import { categoryOf } from './op-kinds.js';

// The inside of the string token around pos ({quoted: true}), or the word before pos ({quoted: false}).
function tokenRange(text, pos, node) {
  if (
    node &&
    (node.type === 'string' || node.type === 'property') &&
    pos > node.offset &&
    pos <= node.offset + node.length
  ) {
    const end = node.offset + node.length;
    const closed = node.length > 1 && text[end - 1] === '"';
    return { from: node.offset + 1, to: closed ? end - 1 : end, quoted: true };
  }
  let from = pos;
  while (from > 0 && /\w/.test(text[from - 1])) from--;
  return { from, to: pos, quoted: false };
}

// Property names already written in the object around pos.
function presentKeys(text, pos) {
  const open = text.lastIndexOf('{', pos);
  const close = text.indexOf('}', pos);
  const body = text.slice(open + 1, close < 0 ? text.length : close);
  return new Set([...body.matchAll(/"([^"\\]+)"\s*:/g)].map((m) => m[1]));
}

export function schemaCompletions(text, pos, schema) {
  const loc = getLocation(text, pos);
  const path = loc.path;
  const { quoted, ...range } = tokenRange(text, pos, loc.previousNode);
  const key = (k) => (quoted ? k : `"${k}": `);
  const value = (v) => (quoted ? v : `"${v}"`);
  const defs = schema.definitions;
  const inOp = path.length === 3 && path[0] === 'ops' && typeof path[1] === 'number';
  if (loc.isAtPropertyKey && inOp) {
    const have = presentKeys(text, pos);
    const props = Object.entries(defs.op.properties).filter(([k]) => !have.has(k) || k === path[2]);
    return {
      ...range,
      options: props.map(([k, p]) => ({
        label: k,
        apply: key(k),
        detail: 'field',
        info: p.description ?? defs[k]?.description,
        type: 'property',
      })),
    };
  }
  if (loc.isAtPropertyKey && path.length === 1) {
    return {
      ...range,
      options: [
        { label: 'ops', apply: key('ops'), detail: 'field', info: schema.properties.ops.description, type: 'property' },
      ],
    };
  }
  if (!loc.isAtPropertyKey && inOp && (path[2] === 'kind' || path[2] === 'dtype')) {
    const values = defs[path[2]].enum;
    return {
      ...range,
      options: values.map((v) => ({
        label: v,
        apply: value(v),
        detail: path[2] === 'kind' ? categoryOf(v) : 'dtype',
        type: 'enum',
      })),
    };
  }
  return null;
}
