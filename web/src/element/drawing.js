// drawing.js — the two drawings of an embed's plan behind one face, shared by the <fusion-playground> element
// and the light ?embed (embed/embed.js): SVG (svg-graph-view.js) up to SVG_MAX_NODES drawn boxes, Cytoscape
// (views/graph-view.js, loaded on first use, so an embed of a small graph never downloads it) for bigger ones.
//
// Contract: drawingKind(vm) → 'svg' | 'cytoscape'; loadDrawing(kind) → Promise<make(container, {onSelect?,
// minZoom?})> → {kind, clear(), draw(vm, layout, colorBy), select(target, {reveal}), fit(), repaint(), destroy()}.
// onSelect (see svg-graph-view.js for the targets) makes ops, kernels and edges selectable by click and by
// keyboard (the SVG drawing: Tab and Enter; Cytoscape's: arrow keys and Enter, views/keyboard/graph-keys.js);
// minZoom ≥ 1 keeps labels ≥ 11 px on screen, panning a big drawing instead of shrinking it; select(target)
// marks one; repaint() paints the drawing again in the theme now in force where it is drawn (theme/theme.js
// themeOf: the element's theme attribute, the page's data-theme). Browser-only; shown by
// tests/browser/element.test.mjs and page-embed.test.mjs.

import { createSvgGraphView, SVG_MAX_NODES } from './svg-graph-view.js';

export const drawingKind = (vm) => (vm.nodes.length > SVG_MAX_NODES ? 'cytoscape' : 'svg');

function svgDrawing(container, options) {
  const v = createSvgGraphView(container, options);
  return {
    kind: 'svg',
    clear: () => v.clear(),
    draw: (vm, layout, colorBy) => {
      v.setColorBy(colorBy);
      v.render(vm, layout);
    },
    select: (target, options) => v.select(target, options),
    fit: () => v.fit(),
    repaint: () => v.repaint(),
    destroy: () => v.svg.remove(),
  };
}

// minZoom ≥ 1 (an embed's readable labels) becomes graph-view.js's READABLE_ZOOM: every label, an edge's tag
// too, ≥ 11 px on screen. With onSelect, the drawing is chosen from by keyboard too
// (views/keyboard/graph-keys.js).
async function cytoscapeDrawing() {
  const [{ createGraphView, READABLE_ZOOM }, { installGraphKeys }] = await Promise.all([
    import('../views/graph-view.js'),
    import('../views/keyboard/graph-keys.js'),
  ]);
  return (container, { onSelect = null, minZoom = 0.05 } = {}) => {
    const v = createGraphView(container, {
      onSelect: onSelect ?? (() => {}),
      onConnect: () => {},
      minZoom: minZoom >= 1 ? READABLE_ZOOM : minZoom,
    });
    v.setEditable(false);
    const keys = onSelect ? installGraphKeys(container, v.cy, { onSelect }) : null;
    return {
      kind: 'cytoscape',
      cy: v.cy, // for tests: the zoom its labels are drawn at
      clear: () => v.render({ nodes: [], groups: [], edges: [] }, { positions: {}, routes: {} }),
      draw: (vm, layout, colorBy) => {
        v.cy.resize();
        keys?.reset();
        v.render(vm, layout, { fit: true });
        v.setColorBy(colorBy);
      },
      select: (target, { reveal = false } = {}) => {
        v.setSelection(target);
        const marked = v.cy.$('.selected');
        if (!reveal || marked.empty()) return;
        // At the zoom in force (labels stay readable), a third of the way down: the explanation covers the foot.
        v.cy.center(marked);
        v.cy.panBy({ x: 0, y: -v.cy.height() / 6 });
      },
      fit: () => v.fit(),
      repaint: () => v.refreshTheme(),
      destroy: () => {
        v.cy.destroy();
        container.replaceChildren();
      },
    };
  };
}

export const loadDrawing = async (kind) => (kind === 'svg' ? svgDrawing : cytoscapeDrawing());
