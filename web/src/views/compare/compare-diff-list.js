// compare-diff-list.js — the compare view's list of edges two plans decide differently, each with both
// sides' reasons in plain words.
//
// Contract: createDiffList({onPick}) → {el, title, render(compared, labels, selection) → ids}. compared is
// state.compared ({graph, left, right}); labels names the two sides ({left, right}). render lists every edge
// fused on one side only (edge-diff.js), then, folded, the edges unfused on both sides for different
// reasons; the selected edge is marked. It returns the ids ('e<p>-<c>') of every listed edge, for the
// drawings to outline. Clicking an item or Enter/Space on it calls onPick({kind:'edge', id:{producer,
// consumer}}); ArrowDown/ArrowUp move the focus through the list. Browser-only; shown by
// tests/browser/page-compare.test.mjs.

import { h } from '../dom.js';
import { opLabel } from '../../graph/graph-text.js';
import { diffEdges } from '../../present/edge-diff.js';
import { explainReason, shortReason } from '../../present/reasons.js';

// "XLA-style: not fused (barrier). <words>" for one side of a differing edge.
function sideWords(label, decision, names) {
  if (!decision) return [h('strong', {}, `${label}: `), 'no such edge in this plan.'];
  const tag = decision.fused ? 'fused' : `not fused (${shortReason(decision.reason)})`;
  return [h('strong', {}, `${label}: ${tag}. `), explainReason(decision, names)];
}

// Enter/Space picks an item; arrow keys move to the next or previous one (also search-diff-list.js's).
export function listKeys(e, list, pick) {
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    pick();
    return;
  }
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  e.preventDefault();
  const items = [...list.querySelectorAll('li[data-edge]')];
  items[items.indexOf(e.currentTarget) + (e.key === 'ArrowDown' ? 1 : -1)]?.focus();
}

export function createDiffList({ onPick }) {
  const el = h('ul', { class: 'reasons compare-diff', 'data-testid': 'compare-diff' });
  const title = h('h3', { id: 'compare-diff-title' }, 'Edges decided differently');

  // A differing edge as a list item: the pair, and each side's decision in words.
  function item(graph, d, labels, sel) {
    const names = { producer: opLabel(graph, d.producer), consumer: opLabel(graph, d.consumer) };
    const selected = sel?.kind === 'edge' && sel.id.producer === d.producer && sel.id.consumer === d.consumer;
    const pick = () => onPick({ kind: 'edge', id: { producer: d.producer, consumer: d.consumer } });
    return h(
      'li',
      {
        tabindex: 0,
        class: selected ? 'selected' : '',
        'data-edge': `${d.producer}-${d.consumer}`,
        'data-kind': d.kind,
        'aria-selected': String(selected),
        onclick: pick,
        onkeydown: (e) => listKeys(e, el, pick),
      },
      h('code', {}, names.producer),
      ' → ',
      h('code', {}, names.consumer),
      h('p', { 'data-side': 'left' }, sideWords(labels.left, d.left, names)),
      h('p', { 'data-side': 'right' }, sideWords(labels.right, d.right, names)),
    );
  }

  function render({ graph, left, right }, labels, sel) {
    const diffs = diffEdges(left, right);
    const decided = diffs.filter((d) => d.kind === 'decision');
    const reasons = diffs.filter((d) => d.kind === 'reason');
    const items = decided.map((d) => item(graph, d, labels, sel));
    if (reasons.length) {
      items.push(
        h(
          'li',
          { class: 'sources' },
          h(
            'details',
            {},
            h(
              'summary',
              {},
              `${reasons.length} more edge${reasons.length > 1 ? 's' : ''} unfused on both sides, for different reasons`,
            ),
            h(
              'ul',
              { class: 'reasons' },
              reasons.map((d) => item(graph, d, labels, sel)),
            ),
          ),
        ),
      );
    }
    if (!diffs.length)
      items.push(
        h('li', { class: 'same' }, `${labels.left} and ${labels.right} decide every edge of this graph the same way.`),
      );
    el.replaceChildren(...items);
    title.textContent = `Edges decided differently (${decided.length} of ${left.edges.length})`;
    return diffs.map((d) => `e${d.producer}-${d.consumer}`);
  }

  return { el, title, render };
}
