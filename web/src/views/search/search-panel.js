// search-panel.js — the Optimal switch beside the strategy picker, and, with the plan, what the plan search is
// doing (docs/design.md §17): its progress with a Cancel button, then its certificate, or why it did not run.
//
// Contract: createSearchPanel({dispatch, strategy, pane}) puts a checkbox "Optimal" (data-testid opt-optimal)
// right after the label holding the strategy <select> (`strategy`), and a panel (data-testid search-panel) at
// the top of `pane` (the plan pane, after its head); returns {render(state)}. The switch dispatches
// {type:'set-optimal', value}; the panel shows state.optimal and state.search (state/events.js):
//   - off: hidden;
//   - waiting: the search starts once the greedy plan for the current text and options is on screen;
//   - running: "Searching for the optimal plan… 1.2 s" (a clock ticking from search.started), the node budget,
//     "the greedy plan is shown meanwhile", and Cancel ({type:'search-cancel'});
//   - done: the certificate (search-report.js certificateText: "optimal, proven in 38 ms" / "within 0.8 % of
//     optimal after 2.0 s (bounded)" for seed's bytes, "fastest plan, proven in 38 ms" / "within 0.8 % of the
//     fastest after 2.0 s (bounded)" for tvm's, inductor's and xla's estimated time), greedy vs optimal estimated time, bytes and
//     kernels with the searched objective's row first and marked, the nodes searched and the proven bound
//     (boundText: the objective's own, never another's), a button
//     opening the compare view on greedy vs optimal ({type:'set-compare', pair:'search'}) and, when bounded,
//     "Search longer" (the next budget of SEARCH_BUDGETS);
//   - cancelled: "Search cancelled — the greedy plan is shown" and Search again ({type:'search-retry'});
//   - error: the planner's message (e.g. a strategy it cannot search yet), with the JSON path, and that the
//     greedy plan is shown.
// A budget <select> (data-testid search-budget) picks the node budget ({type:'set-optimal', value: n}).
// Every number is the planner's or the worker's clock, formatted by search-report.js. Browser-only; shown by
// tests/browser/page-search.test.mjs.

import { h } from '../dom.js';
import { boundText, budgetLabel, certificateText, formatElapsed, searchNumbers } from '../../present/search-report.js';
import { isSearchCurrent, isStale } from '../../state/events.js';
import { SEARCH_BUDGETS } from '../../state/options.js';
import './search.css';

// The budget choices: the offered ones, plus the current one when it is another (from a link).
function budgetOptions(budget) {
  const list = SEARCH_BUDGETS.includes(budget) ? SEARCH_BUDGETS : [...SEARCH_BUDGETS, budget].sort((a, b) => a - b);
  return list.map((n) => h('option', { value: n, selected: n === budget }, budgetLabel(n)));
}

// The objective's row says it is the one searched.
const OBJECTIVE_TITLE = 'The search minimised this number; the others are what that plan gives';
const lower = (r) => r.greedy !== null && r.optimal !== null && r.optimal < r.greedy;

// The greedy-vs-optimal numbers as a small table (a bounded search's plan is the best found, not proven).
function numbersTable(greedy, result) {
  return h(
    'table',
    { class: 'search-numbers', 'data-testid': 'search-numbers' },
    h(
      'tr',
      {},
      h('th', {}, ''),
      h('th', { scope: 'col' }, 'Greedy'),
      h('th', { scope: 'col' }, result.search?.status === 'optimal' ? 'Optimal' : 'Best found'),
    ),
    searchNumbers(greedy, result).map((r) =>
      h(
        'tr',
        { 'data-metric': r.key, class: r.objective ? 'objective' : '', title: r.objective ? OBJECTIVE_TITLE : null },
        h('th', { scope: 'row' }, r.label, r.objective ? h('span', { class: 'objective-mark' }, ' (searched)') : null),
        h('td', { 'data-side': 'greedy' }, r.greedyText),
        h('td', { class: lower(r) ? 'better' : '', 'data-side': 'optimal' }, r.optimalText),
      ),
    ),
  );
}

export function createSearchPanel({ dispatch, strategy, pane }) {
  const box = h('input', {
    type: 'checkbox',
    id: 'opt-optimal',
    'data-testid': 'opt-optimal',
    onchange: (e) => dispatch({ type: 'set-optimal', value: e.target.checked }),
  });
  const label = h(
    'label',
    {
      class: 'optimal-switch',
      title:
        'Search for the best plan under the same rules, with a proof (docs/design.md §17): the fewest bytes ' +
        'under Strict (seed), the fastest estimated time under TVM; the greedy plan stays shown while it runs',
    },
    box,
    ' Optimal',
  );
  (strategy.closest('label') ?? strategy).after(label);

  const $ = {
    line: h('p', { class: 'search-line', 'data-testid': 'search-status', role: 'status', 'aria-live': 'polite' }),
    detail: h('div', { class: 'search-detail' }),
    actions: h('div', { class: 'search-actions' }),
    budget: h('select', {
      'data-testid': 'search-budget',
      'aria-label': 'Node budget of the search',
      title: 'How many search nodes the planner may visit before it answers with the best plan found and a bound',
      onchange: (e) => dispatch({ type: 'set-optimal', value: Number(e.target.value) }),
    }),
  };
  const el = h(
    'section',
    { class: 'search-panel', 'data-testid': 'search-panel', 'aria-label': 'Plan search', hidden: true },
    $.line,
    $.detail,
    h('div', { class: 'search-foot' }, $.actions, h('label', { class: 'search-budget' }, 'Budget ', $.budget)),
  );
  pane.querySelector('.pane-head').after(el);
  let ticking = null;
  let shownBudget = null;

  const button = (text, testid, onclick, extra = {}) =>
    h('button', { class: 'btn small', 'data-testid': testid, onclick, ...extra }, text);

  function tick(search) {
    clearInterval(ticking);
    ticking = null;
    if (search?.status !== 'running') return;
    const show = () => {
      $.clock.textContent = formatElapsed(performance.now() - (search.started ?? performance.now()));
    };
    show();
    ticking = setInterval(show, 100);
  }

  // The panel's parts for one state: [class, line (nodes), detail, actions].
  function parts(state) {
    const s = isSearchCurrent(state) ? state.search : null;
    const budget = state.optimal;
    if (!s)
      return [
        'waiting',
        isStale(state) || !state.plan ? 'The search starts once the plan is made…' : 'Starting the search…',
        null,
        [],
      ];
    if (s.status === 'running') {
      $.clock = h('span', { class: 'search-clock', 'data-testid': 'search-clock' });
      return [
        'running',
        ['Searching for the optimal plan… ', $.clock],
        h('span', { class: 'muted' }, `budget ${budgetLabel(budget)}; the greedy plan is shown meanwhile`),
        [button('Cancel', 'search-cancel', () => dispatch({ type: 'search-cancel' }))],
      ];
    }
    if (s.status === 'cancelled')
      return [
        'cancelled',
        'Search cancelled — the greedy plan is shown.',
        null,
        [button('Search again', 'search-again', () => dispatch({ type: 'search-retry' }))],
      ];
    if (s.status === 'error')
      return [
        'error',
        `The search did not run: ${s.message}${s.path ? ` (at ${s.path})` : ''}`,
        h('span', { class: 'muted' }, 'The greedy plan is shown.'),
        [],
      ];
    const r = s.result.search;
    const next = SEARCH_BUDGETS.find((n) => n > budget);
    return [
      r?.status === 'optimal' ? 'optimal' : 'bounded',
      [h('strong', { 'data-testid': 'search-certificate' }, capitalise(certificateText(r, s.ms)))],
      [
        numbersTable(s.greedy, s.result),
        h('span', { class: 'muted search-nodes', 'data-testid': 'search-nodes' }, searchedText(r)),
      ],
      [
        button('Greedy vs optimal', 'search-compare', () => dispatch({ type: 'set-compare', pair: 'search' }), {
          title: 'Show the greedy plan and the optimal plan side by side, with the edges they decide differently',
        }),
        r?.status !== 'optimal' && next
          ? button('Search longer', 'search-longer', () => dispatch({ type: 'set-optimal', value: next }), {
              title: `Search again with a budget of ${budgetLabel(next)}`,
            })
          : null,
      ],
    ];
  }

  return {
    render(state) {
      box.checked = !!state.optimal;
      el.hidden = !state.optimal;
      if (!state.optimal) return tick(null);
      if (shownBudget !== state.optimal) {
        $.budget.replaceChildren(...budgetOptions(state.optimal));
        shownBudget = state.optimal;
      }
      const [kind, line, detail, actions] = parts(state);
      el.dataset.status = kind;
      $.line.replaceChildren(...[line].flat());
      $.detail.replaceChildren(...[detail].flat().filter(Boolean));
      $.actions.replaceChildren(...actions.filter(Boolean));
      tick(isSearchCurrent(state) ? state.search : null);
    },
  };
}

// "200,000 nodes searched; no plan is faster than 41.3 µs" (the bound only when the plan has its objective's).
function searchedText(search) {
  const bound = boundText(search).replace(/ (\S+)$/, '\u00a0$1'); // the unit stays with its number
  return `${budgetLabel(search?.nodes ?? 0)} searched${bound ? `; ${bound}` : ''}`;
}

const capitalise = (text) => text.charAt(0).toUpperCase() + text.slice(1);
