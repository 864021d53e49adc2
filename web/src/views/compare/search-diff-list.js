// search-diff-list.js — the compare view's list for greedy vs optimal (docs/design.md §17): the edges the
// searched plan decides differently from the greedy one, each with greedy's choice, the optimal choice and,
// when the planner gives it, why greedy's order made its choice.
//
// Contract: createSearchDiffList({onPick}) → {el, render(graph, report, sel) → ids}. report is
// search-report.js differenceRows(optimal, greedy) ({rows, total, explained}); each row becomes an item
// "a → b: greedy fused, optimal cut. <why>" (without the planner's why, the edge reason of the plan that cut
// it, reasons.js); when the planner listed fewer rows than its total, a last line
// says how many are left out. The selected edge is marked. render returns the ids ('e<p>-<c>') of the listed
// edges, for the drawings to outline. Clicking an item, or Enter/Space on it, calls onPick({kind:'edge',
// id:{producer, consumer}}); ArrowDown/ArrowUp move through the list. Browser-only; shown by
// tests/browser/page-search.test.mjs (the rows themselves by tests/web/search-report.test.mjs).

import { h } from '../dom.js';
import { opLabel } from '../../graph/graph-text.js';
import { explainReason } from '../../present/reasons.js';
import { listKeys } from './compare-diff-list.js';

const WORD = { fused: 'fused', cut: 'not fused' };

// Without the planner's why: the reason the plan that cut the edge gives, in words.
function cutWords(graph, row) {
  if (!row.reason) return null;
  const names = { producer: opLabel(graph, row.producer), consumer: opLabel(graph, row.consumer) };
  const who = row.greedy === 'cut' ? 'Greedy' : 'Optimal';
  return h('p', { class: 'why muted' }, `${who} cut it: `, explainReason({ fused: false, reason: row.reason }, names));
}

export function createSearchDiffList({ onPick }) {
  const el = h('ul', { class: 'reasons compare-diff search-diff', 'data-testid': 'search-diff', hidden: true });

  function item(graph, row, sel) {
    const { producer, consumer } = row;
    const selected = sel?.kind === 'edge' && sel.id.producer === producer && sel.id.consumer === consumer;
    const pick = () => onPick({ kind: 'edge', id: { producer, consumer } });
    return h(
      'li',
      {
        tabindex: 0,
        class: selected ? 'selected' : '',
        'data-edge': `${producer}-${consumer}`,
        'aria-selected': String(selected),
        onclick: pick,
        onkeydown: (e) => listKeys(e, el, pick),
      },
      h('code', {}, opLabel(graph, producer)),
      ' → ',
      h('code', {}, opLabel(graph, consumer)),
      h(
        'p',
        { 'data-side': 'choices' },
        h('strong', {}, `Greedy: ${WORD[row.greedy] ?? '?'}`),
        ' · ',
        h('strong', {}, `optimal: ${WORD[row.optimal] ?? '?'}`),
      ),
      row.why ? h('p', { class: 'why', 'data-testid': 'search-why' }, row.why) : cutWords(graph, row),
    );
  }

  function render(graph, { rows, total, explained }, sel) {
    const items = rows.map((row) => item(graph, row, sel));
    if (total > rows.length) {
      const more = total - rows.length;
      items.push(h('li', { class: 'same' }, `… and ${more} more edge${more === 1 ? '' : 's'} decided differently.`));
    }
    if (!rows.length) items.push(h('li', { class: 'same' }, 'Greedy and optimal decide every edge the same way.'));
    else if (!explained)
      items.push(
        h('li', { class: 'same muted' }, 'The planner gives no reasons for these choices; the plans are compared.'),
      );
    el.replaceChildren(...items);
    return rows.map((r) => `e${r.producer}-${r.consumer}`);
  }

  return { el, render };
}
