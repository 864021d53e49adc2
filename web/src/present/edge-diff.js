// edge-diff.js — the edges two plans of one graph decide differently (presentation: nothing is planned here).
//
// Contract: diffEdges(left, right) with two plans of the same graph (plan.edges: {producer, consumer, fused,
// reason}) → [{producer, consumer, kind, left, right}], where
//   kind  'decision': fused in one plan and not in the other (or present in one plan only);
//         'reason':   unfused in both, for different reasons;
//   left, right: that plan's {fused, reason} for the edge (reason null when fused), or null when it has no
//         such edge.
// Edges are matched by producer → consumer (a pair listed twice counts once). Order: every 'decision' entry,
// then every 'reason' entry, each in the left plan's edge order followed by edges only the right plan has.
// Linear in the number of edges. Pure; shown by tests/web/edge-diff.test.mjs.

const key = (e) => `${e.producer}>${e.consumer}`;
const decision = (e) => (e ? { fused: !!e.fused, reason: e.fused ? null : (e.reason ?? null) } : null);

// producer>consumer → first edge with that pair, in plan order.
function edgeMap(plan) {
  const map = new Map();
  for (const e of plan?.edges ?? []) if (!map.has(key(e))) map.set(key(e), e);
  return map;
}

// How two decisions on one edge differ: 'decision', 'reason' or null (the same).
function difference(a, b) {
  if (!a || !b || a.fused !== b.fused) return 'decision';
  return !a.fused && a.reason !== b.reason ? 'reason' : null;
}

export function diffEdges(left, right) {
  const l = edgeMap(left);
  const r = edgeMap(right);
  const pairs = [...l.keys(), ...[...r.keys()].filter((k) => !l.has(k))];
  const out = { decision: [], reason: [] };
  for (const k of pairs) {
    const a = decision(l.get(k));
    const b = decision(r.get(k));
    const kind = difference(a, b);
    if (!kind) continue;
    const { producer, consumer } = l.get(k) ?? r.get(k);
    out[kind].push({ producer, consumer, kind, left: a, right: b });
  }
  return [...out.decision, ...out.reason];
}
