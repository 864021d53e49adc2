// savings.js — the "largest savings first" list: fusion groups ranked by the bytes fusing them saves.
//
// Contract: rankSavings(plan, limit?) with plan.ok → [{group, ops, saved, unfused, fused}] for every group
// that saves bytes, largest `saved` first (ties: plan order), at most `limit` entries. Every number is the
// planner's: `unfused` is the group's bytes_unfused (what the ops it owns move when each runs alone),
// `fused` its bytes_read + bytes_written, `saved` its bytes_saved (which sum to bytes_unfused − bytes_fused
// over all groups; tests/web/savings.test.mjs checks it on real plans). Pure; no DOM.

export function rankSavings(plan, limit = Infinity) {
  const rows = plan.groups.map((g, order) => ({
    group: g.id,
    ops: g.ops.length,
    saved: g.bytes_saved,
    unfused: g.bytes_unfused,
    fused: g.bytes_read + g.bytes_written,
    order,
  }));
  return rows
    .filter((r) => r.saved > 0)
    .sort((a, b) => b.saved - a.saved || a.order - b.order)
    .slice(0, limit)
    .map(({ order, ...r }) => r);
}
