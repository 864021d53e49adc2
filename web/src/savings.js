// savings.js — the "largest savings first" list: fusion groups ranked by the bytes fusing them saves.
//
// Contract: rankSavings(plan, limit?) with plan.ok → [{group, ops, saved, unfused, fused}] for every group
// that saves bytes, largest `saved` first (ties: plan order), at most `limit` entries:
//   fused   the group's bytes_read + bytes_written (the plan's numbers)
//   unfused op_bytes_unfused summed over the ops the group owns (plan op_group; a recomputed copy counts
//           where it is owned), i.e. what those ops move when each runs alone
//   saved   the group's `bytes_saved` when the planner reports it, else unfused − fused
// Over all groups, saved sums to bytes_unfused − bytes_fused (tests/web/savings.test.mjs checks it).
// Pure; no DOM.

export function rankSavings(plan, limit = Infinity) {
  const unfused = new Map(plan.groups.map((g) => [g.id, 0]));
  plan.op_group.forEach((k, i) => unfused.set(k, (unfused.get(k) ?? 0) + (plan.op_bytes_unfused?.[i] ?? 0)));
  const rows = plan.groups.map((g, order) => {
    const fused = g.bytes_read + g.bytes_written;
    const saved = typeof g.bytes_saved === 'number' ? g.bytes_saved : unfused.get(g.id) - fused;
    return { group: g.id, ops: g.ops.length, saved, unfused: unfused.get(g.id), fused, order };
  });
  return rows.filter((r) => r.saved > 0)
    .sort((a, b) => b.saved - a.saved || a.order - b.order)
    .slice(0, limit)
    .map(({ order, ...r }) => r);
}
