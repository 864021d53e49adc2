// formula.js — the planner's byte formulas (docs/design.md §16), written for people.
//
// Contract (pure, no DOM): formulaText('6291456*N^2 + 3072*seq - 16') → '6 291 456·N² + 3 072·seq − 16': the
// planner's own text with '*' drawn as '·', powers as superscripts, ' - ' as ' − ' and long numbers grouped
// in threes; nothing is evaluated, reordered or simplified. bytesFormula(f) adds ' B' (after a no-break space:
// the unit never wraps alone). hasNames(f) → whether the formula depends on a name (a constant formula says
// nothing the number does not). dimsText({N: 8, seq: 128}) → 'N = 8, seq = 128'. Shown by tests/web/dims.test.mjs.

const SUPERSCRIPT = { 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
const group = (digits) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');

export function formulaText(f) {
  if (typeof f !== 'string') return '';
  return f
    .replace(/\^(\d+)/g, (_, k) => [...k].map((d) => SUPERSCRIPT[d]).join(''))
    .replace(/\*/g, '·')
    .replace(/ - /g, ' − ')
    .replace(/(^|[^\w])(\d{4,})(?!\w)/g, (_, before, digits) => before + group(digits));
}

export const bytesFormula = (f) => (typeof f === 'string' ? `${formulaText(f)}\u00a0B` : '');
export const hasNames = (f) => typeof f === 'string' && /[A-Za-z_]/.test(f);
export const dimsText = (dims) =>
  Object.entries(dims ?? {})
    .map(([name, value]) => `${name} = ${value}`)
    .join(', ');
