// op-kinds.js — the core's kind table for the page: the category of every op kind, for drawing only.
//
// Contract: categoryOf(kind) maps a kind name as written in JSON (canonical or alias, any case, '_' and '-'
// ignored: the core's matching rule) to 'source' | 'elementwise' | 'barrier', or 'unknown' for names the
// planner would reject; canonicalKind(kind) gives the canonical name (unknown names unchanged). ALL_KINDS
// and ELEMENTWISE_KINDS list canonical names in the core's order. The table itself is the core's
// catalog().kinds (core/src/op_kind.cpp), generated into wasm/generated/catalog.mjs at build time
// (tools/write-catalog.mjs); nothing here restates it. It never decides fusion: groups come from the planner.
// Shown by tests/web/op-kinds.test.mjs.
import catalog from '../../../wasm/generated/catalog.mjs';

export const ALL_KINDS = catalog.kinds.map((k) => k.name);
export const ELEMENTWISE_KINDS = catalog.kinds.filter((k) => k.category === 'elementwise').map((k) => k.name);

const normalize = (name) => String(name).toLowerCase().replace(/[_-]/g, '');

// normalized canonical name or alias → the kind's catalog entry.
const BY_NAME = new Map();
for (const kind of catalog.kinds) {
  BY_NAME.set(normalize(kind.name), kind);
  for (const alias of kind.aliases) BY_NAME.set(alias, kind);
}

// The category of a kind name: 'source' | 'elementwise' | 'barrier' | 'unknown'.
export function categoryOf(kind) {
  return BY_NAME.get(normalize(kind))?.category ?? 'unknown';
}

// The canonical name of a kind (alias → canonical), or the name unchanged when unknown.
export function canonicalKind(kind) {
  return BY_NAME.get(normalize(kind))?.name ?? String(kind);
}
