// size-scale.js — the Sizes panel's slider scale: positions on a log scale ⇄ dimension values.
//
// Contract (pure, no DOM): a slider runs over positions 0 … positions(max), STEPS_PER_OCTAVE positions per
// doubling, from the value 1 to `max` (a power of two); valueAt(p) = round(2^(p / STEPS_PER_OCTAVE)), so
// every power of two is a position and each one is exact. scaleMax(...values) → DEFAULT_MAX (65,536), or the
// next power of two at or above the largest value given when that is larger (at most 2^52).
// positionOf(value, max) → the nearest position (clamped; values below 1 sit at 0).
// stepValue(value, step, max) → the next value on the scale after `value`: step +1 / −1 the next distinct
// value up / down (a key press always changes the value, even where rounding repeats one), +8 / −8 an octave;
// it stays within 1 … max (a value below 1 goes up to 1 and down nowhere). These are slider places, not plan
// numbers: the value picked is what the planner is asked about. Shown by tests/web/dims.test.mjs.

export const STEPS_PER_OCTAVE = 8;
export const DEFAULT_MAX = 65_536;
const TOP = 2 ** 52;

export function scaleMax(...values) {
  let max = DEFAULT_MAX;
  for (const v of values) if (Number.isFinite(v) && v > max) max = 2 ** Math.ceil(Math.log2(v));
  return Math.min(max, TOP);
}

export const positions = (max) => Math.round(Math.log2(max) * STEPS_PER_OCTAVE);
export const valueAt = (position) => Math.round(2 ** (position / STEPS_PER_OCTAVE));

export function positionOf(value, max) {
  if (!(value >= 1)) return 0;
  return Math.min(positions(max), Math.round(Math.log2(value) * STEPS_PER_OCTAVE));
}

export function stepValue(value, step, max) {
  const top = positions(max);
  if (!(value >= 1)) return step > 0 ? 1 : value;
  if (Math.abs(step) >= STEPS_PER_OCTAVE) {
    const p = Math.max(0, Math.min(top, positionOf(value, max) + step));
    return valueAt(p);
  }
  if (step > 0) {
    for (let p = positionOf(value, max); p <= top; p++) if (valueAt(p) > value) return valueAt(p);
    return Math.max(value, max);
  }
  for (let p = positionOf(value, max); p >= 0; p--) if (valueAt(p) < value) return valueAt(p);
  return Math.min(value, 1);
}
