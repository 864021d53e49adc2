// sweep-chart-view.js — draws the size chart as SVG: the places sweep-chart.js computed, nothing else.
//
// Contract: drawSweepChart(chart, {dim, formats, summary, onPick}) → an <svg> element (role img, with a text
// summary in its label): three panels (bytes, time, speedup) with their titles, legends and two y labels each, the
// line of
// each series with a dot per swept value (its tooltip gives the value), a dashed line at each value where
// the grouping changes with a triangle on the axis (tooltip: kernels before → after), a cursor at the current value
// with dots at the plan's numbers (drawCursor(chart): that group alone, to move it), and the size axis. Clicking a
// dot or a change marker calls onPick(value) (the page moves
// the slider there). Browser-only; shown by tests/browser/page-dims.test.mjs.

const NS = 'http://www.w3.org/2000/svg';

// An SVG element with attributes and children (strings become text).
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) el.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined) el.append(c);
  return el;
}

const tip = (text) => s('title', {}, text);

function panel(p, chart, { dim, onPick }) {
  const { left, right } = chart.plot;
  const bottom = p.top + p.height;
  const legend = p.series.map((ser) => [
    s('tspan', { class: `key ${p.key}-${ser.key}`, dx: 8 }, '●'),
    s('tspan', { dx: 3 }, ser.label),
  ]);
  return s(
    'g',
    { class: `panel panel-${p.key}`, 'data-panel': p.key },
    s('text', { class: 'panel-title', x: left, y: p.top - 5 }, p.title, legend),
    s('rect', { class: 'frame', x: left, y: p.top, width: right - left, height: p.height }),
    p.yTicks.map((t) => s('text', { class: 'tick y', x: left - 5, y: t.y }, t.label)),
    p.series.map((ser) =>
      s(
        'g',
        { class: `series ${p.key}-${ser.key}`, 'data-series': `${p.key}-${ser.key}` },
        s('path', { d: ser.path }),
        ser.points.map((pt) =>
          s(
            'circle',
            { cx: pt.x, cy: pt.y, r: 2.6, 'data-value': pt.value, 'data-at': pt.at, onclick: () => onPick(pt.at) },
            tip(`${dim} = ${pt.at}: ${p.title.toLowerCase()}, ${ser.label}: ${p.format(pt.value)}`),
          ),
        ),
      ),
    ),
    s('line', { class: 'baseline', x1: left, x2: right, y1: bottom, y2: bottom }),
  );
}

export function drawSweepChart(chart, { dim, onPick, formats, summary }) {
  const { width, height } = chart;
  const top = chart.panels[0].top;
  const bottom = chart.panels.at(-1).top + chart.panels.at(-1).height;
  const panels = chart.panels.map((p) => panel({ ...p, format: formats[p.key] }, chart, { dim, onPick }));
  const changes = chart.changes.map((c) =>
    s(
      'g',
      { class: 'change', 'data-at': c.at, onclick: () => onPick(c.at) },
      s('line', { x1: c.x, x2: c.x, y1: top, y2: bottom }),
      s('path', { d: `M${c.x - 4.5},${bottom + 8} L${c.x + 4.5},${bottom + 8} L${c.x},${bottom + 1} Z` }),
      tip(`the grouping changes at ${dim} = ${c.at}: ${c.label}`),
    ),
  );
  const axis = s(
    'g',
    { class: 'axis' },
    chart.xTicks.map((t) =>
      s('text', { class: `tick x${t.x > chart.plot.right - 14 ? ' end' : ''}`, x: t.x, y: bottom + 19 }, t.label),
    ),
    s('text', { class: 'axis-name', x: chart.plot.left - 5, y: bottom + 19 }, dim),
  );
  return s(
    'svg',
    {
      viewBox: `0 0 ${width} ${height}`,
      width: '100%',
      role: 'img',
      'aria-label': summary,
      class: 'sweep-svg',
    },
    panels,
    changes,
    axis,
    drawCursor(chart),
  );
}

// The cursor at the current value (a group to swap when only the plan changed), or null outside the range.
export function drawCursor(chart) {
  if (!chart.cursor) return null;
  const top = chart.panels[0].top;
  const bottom = chart.panels.at(-1).top + chart.panels.at(-1).height;
  return s(
    'g',
    { class: 'cursor', 'data-value': chart.cursor.value },
    s('line', { x1: chart.cursor.x, x2: chart.cursor.x, y1: top, y2: bottom }),
    chart.cursor.dots.map((d) =>
      s('circle', { class: `${d.panel}-${d.series}`, cx: d.x, cy: d.y, r: 3.6, 'data-value': d.value }),
    ),
  );
}
