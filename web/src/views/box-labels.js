// box-labels.js — the texts of the graph's collapsed kernel boxes, drawn on a canvas of their own over
// Cytoscape's.
//
// Why: a collapsed box's text carries its kernel's bytes, which change many times a second while a size slider is
// dragged. Changing a Cytoscape label restyles the box and its edges and redraws every element of the graph
// (tens of ms on a 500-op graph); this layer redraws only these few texts, and Cytoscape's drawing stays as it is.
//
// Contract: createBoxLabels(cy, container, {font, size, weight, color, lineHeight, minZoomedSize?}) →
// {set(id, lines), clear(), lines(id), flush(), restyle()}; color is a colour or a function giving one (the
// theme's ink), read again after restyle(). set gives the box with that Cytoscape node id its lines of
// text (centred on the box, one under the other, `lineHeight` × `size` apart, in the box's font); clear forgets
// every box (a new drawing); lines(id) → the lines drawn for that box (null when none). The layer redraws after
// every frame Cytoscape draws (its 'render' event: pan, zoom, a box dragged, a restyle), and after set/clear at
// the next animation frame or at flush(), which draws now if anything changed. A box not in the graph or not visible is skipped; a faded one (Find) is
// drawn at its effective opacity; minZoomedSize(): the smallest on-screen font size drawn (0: any; the graph
// view hides a big graph's labels when zoomed far out). The canvas ignores the pointer and follows the
// container's size and the device pixel ratio. Browser-only; shown by tests/browser/page-large.test.mjs and
// page-dims.test.mjs.

export function createBoxLabels(cy, container, { font, size, weight, color, lineHeight, minZoomedSize = () => 0 }) {
  const canvas = document.createElement('canvas');
  canvas.className = 'box-labels';
  canvas.setAttribute('aria-hidden', 'true');
  Object.assign(canvas.style, {
    position: 'absolute',
    left: '0',
    top: '0',
    width: '100%',
    height: '100%',
    pointerEvents: 'none',
    zIndex: '1',
  });
  container.append(canvas);
  // Drawn through an OffscreenCanvas where there is one: text drawn on a canvas in the page makes Chromium bring
  // the page's style and layout up to date first (a forced layout in the middle of a frame).
  const target = canvas.transferControlToOffscreen?.() ?? canvas;
  const context = target.getContext('2d');
  const boxes = new Map(); // id → lines
  let queued = false;
  let dirty = false;
  let styled = false; // the context's font, alignment and colour are set

  function draw() {
    dirty = false;
    const ratio = window.devicePixelRatio || 1;
    const [w, h] = [Math.round(cy.width() * ratio), Math.round(cy.height() * ratio)];
    if (target.width !== w || target.height !== h || !styled) {
      Object.assign(target, { width: w, height: h }); // which resets the context's state
      // Set once per size: setting a font makes Chromium bring the page's styles up to date first.
      context.font = `${weight} ${size}px ${font}`;
      context.textAlign = 'center';
      context.textBaseline = 'middle';
      context.fillStyle = typeof color === 'function' ? color() : color;
      styled = true;
    }
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.clearRect(0, 0, w, h);
    const zoom = cy.zoom();
    if (!boxes.size || size * zoom < minZoomedSize()) return;
    const pan = cy.pan();
    context.setTransform(ratio * zoom, 0, 0, ratio * zoom, ratio * pan.x, ratio * pan.y);
    const view = cy.extent();
    const step = size * lineHeight;
    for (const [id, lines] of boxes) {
      const box = cy.$id(id);
      if (box.empty() || !box.visible()) continue;
      const { x, y } = box.position();
      const halfW = (box.data('w') ?? 0) / 2;
      const halfH = (box.data('h') ?? 0) / 2;
      if (x + halfW < view.x1 || x - halfW > view.x2 || y + halfH < view.y1 || y - halfH > view.y2) continue;
      context.globalAlpha = box.effectiveOpacity();
      lines.forEach((line, k) => context.fillText(line, x, y + (k - (lines.length - 1) / 2) * step));
    }
    context.globalAlpha = 1;
  }

  // set and clear draw at the next frame, or at once with flush(), whichever comes first.
  const later = () => {
    dirty = true;
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      if (dirty) draw();
    });
  };
  cy.on('render', draw);

  return {
    restyle() {
      styled = false;
      later();
    },
    set(id, lines) {
      boxes.set(id, lines);
      later();
    },
    clear() {
      boxes.clear();
      later();
    },
    lines: (id) => boxes.get(id) ?? null,
    flush: () => dirty && draw(),
  };
}
