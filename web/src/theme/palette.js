// palette.js — the graph drawing's colours in the light and the dark theme, and WCAG contrast arithmetic.
//
// Contract (pure, no DOM): GRAPH_COLORS.light / GRAPH_COLORS.dark → the colours the Cytoscape graph
// (views/graph-view.js) and the SVG drawing (svg/plan-svg.js) paint with: the graph's ground, op boxes by
// category (fill, line, text), edges (not fused, blocked, the blocked edge's tag), the recomputed halo, the
// selection and Find marks. Kernel colours (present/view-model.js) and the bytes colours (present/byte-heat.js)
// are the same in both themes: a cluster is its kernel colour at CLUSTER_TINT over the ground, and a bytes
// colour carries its own ink. graphColors(theme) → the set for 'light' | 'dark' (anything else: light).
// contrast(a, b) → the WCAG 2 contrast ratio of two '#rrggbb' colours; over(color, alpha, ground) → the colour
// seen when color is painted at alpha over ground. Shown by tests/web/palette.test.mjs (every text of the
// drawing ≥ 4.5:1 on its ground, in both themes).

export const CLUSTER_TINT = 0.13; // a fusion group's fill opacity (its title sits on that tint)

export const GRAPH_COLORS = {
  light: {
    ground: '#fbfcfd',
    dots: '#d8dee4',
    ink: '#1f2328',
    nodeFill: '#ffffff',
    nodeLine: '#8c959f',
    sourceFill: '#eef1f4',
    sourceInk: '#424a53',
    barrierFill: '#3d4852',
    barrierInk: '#ffffff',
    barrierOutline: '#0d1117',
    unknownFill: '#fdecea',
    unknownLine: '#c62828',
    edge: '#9aa5b1',
    edgeLite: '#c3cad2',
    blocked: '#d9480f',
    tagInk: '#8a3300',
    tagGround: '#ffffff',
    halo: '#8250df',
    select: '#0b63c5',
    match: '#f5c400',
    kernel: '#4e79a7',
  },
  dark: {
    ground: '#0d1117',
    dots: '#2a313a',
    ink: '#e6edf3',
    nodeFill: '#1c2128',
    nodeLine: '#768390',
    sourceFill: '#262c36',
    sourceInk: '#c5ced8',
    barrierFill: '#c9d1d9',
    barrierInk: '#0d1117',
    barrierOutline: '#f0f6fc',
    unknownFill: '#3d1518',
    unknownLine: '#f85149',
    edge: '#6e7781',
    edgeLite: '#484f58',
    blocked: '#f0883e',
    tagInk: '#ffb77c',
    tagGround: '#161b22',
    halo: '#a371f7',
    select: '#4493f8',
    match: '#d4a72c',
    kernel: '#4e79a7',
  },
};

export const graphColors = (theme) => GRAPH_COLORS[theme === 'dark' ? 'dark' : 'light'];

const rgb = (hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
const toHex = (c) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

// WCAG 2 relative luminance of an sRGB colour.
function luminance(hex) {
  const [r, g, b] = rgb(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export function over(color, alpha, ground) {
  const c = rgb(color);
  const g = rgb(ground);
  return toHex(c.map((v, k) => v * alpha + g[k] * (1 - alpha)));
}
