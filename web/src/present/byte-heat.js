// byte-heat.js — per-op colouring by bytes moved: a colour bin for each op and the legend for them.
//
// Contract: byteHeat(opBytes) → {bins: [{index, color, ink, min, max, count}], binOf: number[]}, where
// opBytes is the plan's op_bytes_unfused (the planner's own per-op numbers: distinct inputs read + output
// written). Ops with 0 bytes share a grey bin. The distinct positive values, in order, are split into at most
// HEAT_COLORS.length runs of about equal length (a rank scale: real graphs hold a few tensor sizes that differ
// by orders of magnitude, so a linear or log scale would paint nearly every op alike); runs take colours
// spread from lightest to darkest. Each legend bin reports the smallest and largest *planner value* it holds
// (min, max) and how many ops — no byte count is computed here. binOf[i] is op i's bin index into `bins`, or
// -1 when the plan gives no number for it. Pure; no DOM. Shown by tests/web/byte-heat.test.mjs.

// Sequential light → dark (ColorBrewer OrRd, colour-blind safe); ink keeps labels readable on each.
export const HEAT_COLORS = ['#fef0d9', '#fdcc8a', '#fc8d59', '#e34a33', '#b30000'];
const HEAT_INK = ['#1f2328', '#1f2328', '#1f2328', '#ffffff', '#ffffff'];
const ZERO = { color: '#eef1f4', ink: '#424a53' };

// The palette index of each of n runs, spread evenly from lightest to darkest (one run: the darkest).
const spread = (n) =>
  Array.from({ length: n }, (_, k) =>
    n === 1 ? HEAT_COLORS.length - 1 : Math.round((k * (HEAT_COLORS.length - 1)) / (n - 1)),
  );

export function byteHeat(opBytes) {
  const values = Array.isArray(opBytes) ? opBytes : [];
  const known = (v) => typeof v === 'number' && Number.isFinite(v);
  const distinct = [...new Set(values.filter((v) => known(v) && v > 0))].sort((a, b) => a - b);
  const runs = Math.min(HEAT_COLORS.length, distinct.length);
  const runOf = new Map(distinct.map((v, k) => [v, Math.floor((k * runs) / distinct.length)]));
  const palette = spread(runs);
  const hasZero = values.some((v) => v === 0);
  const binIndex = (v) => (!known(v) ? -1 : v === 0 ? 0 : runOf.get(v) + (hasZero ? 1 : 0));
  const bins = [
    ...(hasZero ? [{ ...ZERO, min: 0, max: 0 }] : []),
    ...palette.map((p, r) => {
      const members = distinct.filter((v) => runOf.get(v) === r);
      return { color: HEAT_COLORS[p], ink: HEAT_INK[p], min: members[0], max: members.at(-1) };
    }),
  ].map((b, index) => ({ index, ...b, count: 0 }));
  const binOf = values.map(binIndex);
  for (const b of binOf) if (b >= 0) bins[b].count += 1;
  return { bins, binOf };
}
