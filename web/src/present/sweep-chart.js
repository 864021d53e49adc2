// sweep-chart.js — where things go on the size chart: the planner's sweep rows (docs/design.md §16) placed on
// three small panels sharing one axis of sizes.
//
// Contract (pure, no DOM): sweepChart({rows, changes, current, width}) → {width, height, plot: {left, right},
// xTicks: [{x, label}], panels, changes, cursor}.
//   rows: the sweep's rows (value, bytes_*, time_*_us, speedup_estimate, time_speedup), values ≥ 1;
//   changes: the sweep's [{at, kernels_before, kernels_after}];
//   current: {value, plan} (the plan on screen and the value it was made at) or null.
// panels: [{key, title, top, height, yTicks: [{y, label}], series: [{key, label, field, path, points: [{x, y,
// value, at}]}]}] (value: the row's number, at: the size it was planned at); key 'bytes' (unfused, fused; log
// scale), 'time' (unfused, fused; log scale) or 'speedup' (time, bytes; linear). x is a log₂ scale from the first
// row's value to the last's. changes: [{x, at, label}] (one vertical marker each); cursor: {x, value, dots: [{x,
// y, panel, series, value}]} for the current value when it lies in the range, its dots at the plan's own
// numbers. yTicks label the top and bottom of a panel's range (y: the baseline of their text, inside the
// panel). Every value drawn is a field of a row or of the plan; the positions and the tick labels (formatted
// with format.js) are the only things made here. Shown by tests/web/dims.test.mjs.

import { formatBytes, formatSpeedup, formatTime } from './format.js';

const PANEL_HEIGHT = 62;
const TITLE = 24;
const AXIS = 26;
const LEFT = 58;
const RIGHT = 10;

const PANELS = [
  {
    key: 'bytes',
    title: 'Bytes moved',
    scale: 'log',
    format: formatBytes,
    series: [
      { key: 'unfused', label: 'unfused', field: 'bytes_unfused' },
      { key: 'fused', label: 'fused', field: 'bytes_fused' },
    ],
  },
  {
    key: 'time',
    title: 'Estimated time',
    scale: 'log',
    format: formatTime,
    series: [
      { key: 'unfused', label: 'unfused', field: 'time_unfused_us' },
      { key: 'fused', label: 'fused', field: 'time_fused_us' },
    ],
  },
  {
    key: 'speedup',
    title: 'Speedup',
    scale: 'linear',
    format: formatSpeedup,
    series: [
      { key: 'time', label: 'time', field: 'time_speedup' },
      { key: 'bytes', label: 'bytes', field: 'speedup_estimate' },
    ],
  },
];

const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

// A y scale over the values a panel shows: log (positive values only) or linear; never a zero span.
function yScale(kind, values, top, height) {
  const usable = values.filter((v) => v !== null && (kind === 'linear' || v > 0));
  let lo = Math.min(...usable);
  let hi = Math.max(...usable);
  if (!usable.length) [lo, hi] = kind === 'log' ? [1, 10] : [0, 1];
  const t = kind === 'log' ? Math.log : (v) => v;
  if (t(hi) - t(lo) < 1e-9) [lo, hi] = kind === 'log' ? [lo / 2, hi * 2] : [lo - 0.5, hi + 0.5];
  const y = (v) => top + height - ((t(v) - t(lo)) / (t(hi) - t(lo))) * height;
  return { lo, hi, y, ok: (v) => v !== null && (kind === 'linear' || v > 0) };
}

const pathOf = (points) => points.map((p, k) => `${k ? 'L' : 'M'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');

// Powers of two between from and to, every `every` octaves, as axis ticks.
function xTicks(from, to, x) {
  const lo = Math.ceil(Math.log2(from));
  const hi = Math.floor(Math.log2(to));
  const every = Math.max(1, Math.ceil((hi - lo) / 4));
  const ticks = [];
  for (let k = lo; k <= hi; k += every) ticks.push({ x: x(2 ** k), label: String(2 ** k) });
  return ticks;
}

export function sweepChart({ rows, changes = [], current = null, width = 340 }) {
  const shown = rows.filter((r) => r.value >= 1);
  const from = shown[0]?.value ?? 1;
  const to = shown.at(-1)?.value ?? 1;
  const right = width - RIGHT;
  const span = Math.log2(to) - Math.log2(from);
  const x = (v) => (span > 0 ? LEFT + ((Math.log2(v) - Math.log2(from)) / span) * (right - LEFT) : (LEFT + right) / 2);
  const inRange = current && current.value >= from && current.value <= to;
  const panels = PANELS.map((spec, k) => {
    const top = k * (PANEL_HEIGHT + TITLE) + TITLE;
    const values = spec.series.flatMap((s) => [
      ...shown.map((r) => num(r[s.field])),
      inRange ? num(current.plan?.[s.field]) : null,
    ]);
    const scale = yScale(spec.scale, values, top, PANEL_HEIGHT);
    const series = spec.series.map((s) => {
      const points = shown
        .filter((r) => scale.ok(num(r[s.field])))
        .map((r) => ({ x: x(r.value), y: scale.y(r[s.field]), value: r[s.field], at: r.value }));
      return { key: s.key, label: s.label, field: s.field, points, path: pathOf(points) };
    });
    const yTicks = [
      { y: top + 8, label: spec.format(scale.hi) },
      { y: top + PANEL_HEIGHT - 2, label: spec.format(scale.lo) },
    ];
    return { key: spec.key, title: spec.title, top, height: PANEL_HEIGHT, yTicks, series, scale };
  });
  const cursor = inRange
    ? {
        x: x(current.value),
        value: current.value,
        dots: panels.flatMap((p) =>
          p.series
            .filter((s) => p.scale.ok(num(current.plan?.[s.field])))
            .map((s) => ({
              x: x(current.value),
              y: p.scale.y(current.plan[s.field]),
              panel: p.key,
              series: s.key,
              value: current.plan[s.field],
            })),
        ),
      }
    : null;
  return {
    width,
    height: PANELS.length * (PANEL_HEIGHT + TITLE) + AXIS,
    plot: { left: LEFT, right },
    xTicks: xTicks(from, to, x),
    panels: panels.map(({ scale: _, ...p }) => p),
    changes: changes
      .filter((c) => c.at >= from && c.at <= to)
      .map((c) => ({ x: x(c.at), at: c.at, label: `${c.kernels_before} → ${c.kernels_after} kernels` })),
    cursor,
  };
}
