// graph-keys.js — choosing an op, a kernel or an edge of a Cytoscape drawing (../graph-view.js) by keyboard, for
// the drawings a reader cannot Tab into element by element: the light ?embed's drawing of a graph over 50 boxes
// (element/drawing.js) and the compare view's two (compare/compare-side.js). Loaded with them, never by the
// page's first plan.
//
// Contract: installGraphKeys(container, cy, {onSelect, onCursor?}) makes the focusable container answer keys
// while it has focus: ArrowDown/ArrowRight move a cursor to the next drawn element, ArrowUp/ArrowLeft to the
// previous, Home/End to the first/last — in reading order: each kernel (its cluster or collapsed box) just
// before its first op, each op followed by its outgoing edges, in the view model's op order. The cursor is
// marked as Find marks a match (the 'match' class, page/controls/find.js) and panned into view at the zoom in
// force. Enter or Space calls onSelect(target) with graph-view.js's targetOf (what a click selects), which opens
// its explanation; Escape clears the cursor and calls onSelect(null). Each move is announced in an aria-live
// region placed after the container ("Kernel 2 · matmul+bias, 3 of 25 — Enter explains it"); onCursor(element
// | null) lets the caller show more (the compare view: an edge's reason). Returns {reset()} (a new drawing:
// the cursor starts again). Browser-only; shown by tests/browser/page-embed.test.mjs.

import { targetOf } from '../graph-view.js';
import { h } from '../dom.js';

// The drawn elements in reading order (see the contract).
function readingOrder(cy) {
  const out = [];
  const seen = new Set();
  for (const n of cy.nodes()) {
    if (n.isParent()) continue;
    const cluster = n.parent();
    if (cluster.nonempty() && !seen.has(cluster.id())) {
      seen.add(cluster.id());
      out.push(cluster);
    }
    out.push(n, ...n.outgoers('edge'));
  }
  return out;
}

// The words for a drawn element: its label's first line (an op's name and kind, a kernel's title), an edge's
// two ends and whether it fused.
function describe(el) {
  if (el.isEdge()) {
    const name = (n) => String(n.data('text') ?? '').split('\n')[0];
    const how = el.hasClass('fused') ? 'fused' : `not fused${el.data('tag') ? ` (${el.data('tag')})` : ''}`;
    return `Edge ${name(el.source())} → ${name(el.target())}, ${how}`;
  }
  const text = String(el.data('text') ?? '').replace(/\n/g, ', ');
  return el.hasClass('group') || el.hasClass('collapsed') ? text.replace(/^kernel/, 'Kernel') : `Op ${text}`;
}

export function installGraphKeys(container, cy, { onSelect, onCursor = () => {} }) {
  const live = h('div', { class: 'visually-hidden', 'aria-live': 'polite', 'data-testid': 'graph-keys-live' });
  container.after(live);
  let cursor = null;

  const mark = (el) => {
    cy.elements('.match').removeClass('match');
    cursor = el;
    onCursor(el);
    if (!el) return;
    el.addClass('match');
    const box = el.renderedBoundingBox();
    if (box.x1 < 0 || box.y1 < 0 || box.x2 > cy.width() || box.y2 > cy.height())
      cy.animate({ center: { eles: el } }, { duration: 200 });
  };

  container.addEventListener('keydown', (e) => {
    if (e.target !== container || e.ctrlKey || e.metaKey || e.altKey) return;
    const items = readingOrder(cy);
    if (!items.length) return;
    const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[e.key];
    if (step !== undefined || e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      const k = cursor ? items.findIndex((x) => x.same(cursor)) : -1;
      const at =
        e.key === 'Home'
          ? 0
          : e.key === 'End'
            ? items.length - 1
            : k < 0
              ? step > 0
                ? 0
                : items.length - 1
              : Math.min(items.length - 1, Math.max(0, k + step));
      mark(items[at]);
      live.textContent = `${describe(items[at])}, ${at + 1} of ${items.length} — Enter explains it`;
    } else if ((e.key === 'Enter' || e.key === ' ') && cursor) {
      e.preventDefault();
      onSelect(targetOf(cursor));
      live.textContent = `${describe(cursor)}: explained`;
    } else if (e.key === 'Escape') {
      mark(null);
      onSelect(null);
      live.textContent = 'Selection cleared';
    }
  });

  return {
    reset() {
      cursor = null;
    },
  };
}
