// format.js — how numbers from the planner are written on screen (display only, never computed here).
//
// Contract: formatBytes(n) → "24.0 MiB" (binary units, 3 significant digits); exactBytes(n) → "25 165 824 B";
// formatSpeedup(x) → "2.00×"; formatShape(shape) → "[4096, 768]"; formatTime(us) → "12.3 µs" / "4.56 ms" / "1.20 s"
// (3 significant digits). Pure. Shown by tests/web/words.test.mjs.

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

export function formatBytes(n) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '–';
  let v = n;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  if (u === 0) return `${n} B`;
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${UNITS[u]}`;
}

export function exactBytes(n) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '–';
  return `${String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f')} B`;
}

export function formatSpeedup(x) {
  return typeof x === 'number' && Number.isFinite(x) ? `${x.toFixed(2)}×` : '–';
}

export function formatShape(shape) {
  return Array.isArray(shape) ? `[${shape.join(', ')}]` : '?';
}

// Three significant digits: 0.482, 4.82, 48.2, 482.
const sig3 = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

export function formatTime(us) {
  if (typeof us !== 'number' || !Number.isFinite(us)) return '–';
  if (Math.abs(us) >= 1e6) return `${sig3(us / 1e6)} s`;
  if (Math.abs(us) >= 1e3) return `${sig3(us / 1e3)} ms`;
  return `${sig3(us)} µs`;
}
