// compare-view.js — two strategies side by side on the same graph, and the edges they decide differently.
//
// Contract: createCompareView(parent, {dispatch, catalog, layoutGraph}) appends a hidden pane to parent and
// returns {el, render(state), cy(side)} (cy: a side's Cytoscape instance, for tests). render shows the pane
// while state.compare is set (body.comparing hides the single-plan panes): two pickers (the pair), per side
// its numbers, drawing and kernels (compare-side.js), and the edges whose decision differs with each side's
// reason in words (compare-diff-list.js). Both drawings use one layout (compare-model.js layoutModel of the
// left plan), so every op sits at the same place; panning or zooming one moves the other. Picking a
// differing edge selects it in both drawings and brings it into view at a readable zoom. The plans are
// state.compared (compare-planner.js asks the planner for them); nothing is planned here. catalog() → the
// strategy catalog (strategy-catalog.js). With the pair 'search' it shows greedy vs optimal for the current
// strategy instead (docs/design.md §17): the greedy plan and the searched plan of state.search (made by
// watch-search.js; nothing is asked for here), the certificate in the head (search-report.js: what was proven for
// the search's objective, bytes under seed or estimated time under tvm; the numbers show both) and the edges
// the two decide differently, with why when the planner says (search-diff-list.js); the strategy pickers are
// hidden and a "Strategies" button goes back to two strategies. Browser-only; shown by
// tests/browser/page-compare.test.mjs and page-search.test.mjs.

import { h } from '../dom.js';
import { opLabel } from '../../graph/graph-text.js';
import { buildViewModel } from '../../present/view-model.js';
import { compareNumbers, defaultPair, layoutModel } from '../../present/compare-model.js';
import { certificateText, differenceRows } from '../../present/search-report.js';
import { explainReason } from '../../present/reasons.js';
import { isCompareStale, compareErrorNow, isSearchCurrent } from '../../state/events.js';
import { labelOf } from '../../planner/strategy-catalog.js';
import { DEFAULT_CHOICES } from '../../state/options.js';
import { fillSelect } from '../strategy-picker.js';
import { createCompareSide } from './compare-side.js';
import { createDiffList } from './compare-diff-list.js';
import { createSearchDiffList } from './search-diff-list.js';
import '../strategies.css';

// Bring an edge into view in a drawing (the other follows), zooming in when the drawing is too small to read.
function reveal(cy, { producer, consumer }) {
  const edge = cy.$id(`e${producer}-${consumer}`);
  if (edge.empty()) return;
  const box = edge.boundingBox();
  const view = cy.extent();
  const inside = box.x1 >= view.x1 && box.x2 <= view.x2 && box.y1 >= view.y1 && box.y2 <= view.y2;
  if (inside && cy.zoom() >= 0.35) return;
  cy.animate({ center: { eles: edge }, zoom: Math.max(cy.zoom(), 0.8) }, { duration: 250 });
}

// Keep the two drawings' zoom and pan together.
function syncViewports(a, b) {
  let busy = false;
  const follow = (from, to) =>
    from.on('viewport', () => {
      if (busy) return;
      busy = true;
      to.viewport({ zoom: from.zoom(), pan: { ...from.pan() } });
      busy = false;
    });
  follow(a, b);
  follow(b, a);
}

export function createCompareView(parent, { dispatch, catalog, layoutGraph }) {
  const select = (t) => dispatch({ type: 'select', target: t });
  const hoverEdge = (side, e) => {
    const c = shown?.compared;
    const plan = side === 'left' ? c?.left : c?.right;
    const edge = e && plan?.edges.find((x) => x.producer === e.producer && x.consumer === e.consumer);
    sides[side].status(
      edge
        ? explainReason(edge, { producer: opLabel(c.graph, edge.producer), consumer: opLabel(c.graph, edge.consumer) })
        : 'hover an edge for its reason; orange halo: decided differently',
    );
  };
  const sides = {
    left: createCompareSide('left', { onSelect: select, onHoverEdge: hoverEdge }),
    right: createCompareSide('right', { onSelect: select, onHoverEdge: hoverEdge }),
  };
  const pickers = {
    left: h('select', { 'data-testid': 'compare-left-strategy', id: 'compare-left-strategy' }),
    right: h('select', { 'data-testid': 'compare-right-strategy', id: 'compare-right-strategy' }),
  };
  const $ = {
    note: h('span', { class: 'muted compare-note', 'aria-live': 'polite', 'data-testid': 'compare-note' }),
    overlay: h('div', { class: 'graph-overlay', hidden: true, 'data-testid': 'compare-error' }),
  };
  const diff = createDiffList({ onPick: select });
  const searchDiff = createSearchDiffList({ onPick: select });
  const strategiesButton = h(
    'button',
    {
      class: 'btn small',
      'data-testid': 'compare-strategies',
      title: 'Compare two strategies instead',
      onclick: () => dispatch({ type: 'set-compare', pair: defaultPair(shown?.options.strategy) }),
    },
    'Strategies',
  );
  const title = h('h2', { id: 'compare-title' }, 'Compare strategies');
  let shown = null;
  let pair = null;

  const choose = (side) => (e) =>
    dispatch({ type: 'set-compare', pair: side === 'left' ? [e.target.value, pair[1]] : [pair[0], e.target.value] });
  pickers.left.addEventListener('change', choose('left'));
  pickers.right.addEventListener('change', choose('right'));
  // The two strategy pickers and the swap button (hidden for greedy vs optimal).
  const strategyHead = h(
    'span',
    { class: 'compare-pickers' },
    h('label', { for: 'compare-left-strategy', class: 'visually-hidden' }, 'Left strategy'),
    pickers.left,
    h('span', { 'aria-hidden': 'true' }, 'vs'),
    h('label', { for: 'compare-right-strategy', class: 'visually-hidden' }, 'Right strategy'),
    pickers.right,
    h(
      'button',
      {
        class: 'btn small',
        'data-testid': 'compare-swap',
        title: 'Swap the two sides',
        onclick: () => dispatch({ type: 'set-compare', pair: [pair[1], pair[0]] }),
      },
      '⇄ Swap',
    ),
  );
  const el = h(
    'section',
    { class: 'pane compare-pane', 'aria-labelledby': 'compare-title', 'data-testid': 'compare-pane', hidden: true },
    h(
      'div',
      { class: 'pane-head compare-head' },
      title,
      strategyHead,
      strategiesButton,
      $.note,
      h(
        'button',
        {
          class: 'btn small',
          'data-testid': 'compare-close',
          onclick: () => dispatch({ type: 'set-compare', pair: null }),
        },
        'Close',
      ),
    ),
    h(
      'div',
      { class: 'compare-body' },
      h('div', { class: 'compare-sides' }, sides.left.el, sides.right.el, $.overlay),
      h(
        'section',
        { class: 'compare-diff-wrap', 'aria-labelledby': 'compare-diff-title' },
        diff.title,
        diff.el,
        searchDiff.el,
      ),
    ),
  );
  parent.append(el);
  let synced = false;
  let layoutSeq = 0;

  // Both plans: numbers, kernels and the differing edges at once, then both drawings at one layout (its
  // direction fits the drawing boxes as they are once everything else is filled in); a newer call wins.
  async function renderPlans(c, labels) {
    const seq = ++layoutSeq;
    const vms = { left: buildViewModel(c.graph, c.left), right: buildViewModel(c.graph, c.right) };
    const numbers = compareNumbers(c.left, c.right);
    for (const side of ['left', 'right']) {
      const entry = catalog().strategies.find((e) => e.name === c.pair[side === 'left' ? 0 : 1]);
      sides[side].show({
        title: labels[side],
        blurb: c.blurbs?.[side] ?? entry?.blurb ?? '',
        graph: c.graph,
        plan: c[side],
        vm: vms[side],
        numbers,
      });
    }
    const ids = renderList(c, labels, shown.selection);
    const box = sides.left.view.cy.container().getBoundingClientRect();
    const layout = await layoutGraph(layoutModel(vms.left), {
      direction: box.width > box.height * 1.6 ? 'RIGHT' : 'DOWN',
    });
    if (seq !== layoutSeq) return;
    await Promise.all(['left', 'right'].map((side) => sides[side].draw(vms[side], layout))); // big graphs draw over frames
    if (seq !== layoutSeq) return;
    if (!synced) {
      syncViewports(sides.left.view.cy, sides.right.view.cy);
      synced = true;
    }
    for (const side of Object.values(sides)) {
      side.markEdges(ids);
      side.setSelection(shown.selection);
    }
    sides.right.fit();
    sides.left.fit(); // the right drawing follows (synced viewports)
    el.dataset.compareShown = String((Number(el.dataset.compareShown) || 0) + 1);
  }

  // The list of differing edges: the strategies' (compare-diff-list.js) or greedy vs optimal's
  // (search-diff-list.js); returns the listed edges' ids.
  function renderList(c, labels, sel) {
    diff.el.hidden = !!c.search;
    searchDiff.el.hidden = !c.search;
    if (!c.search) return diff.render(c, labels, sel);
    const report = differenceRows(c.right, c.left);
    diff.title.textContent = `Edges decided differently (${report.total} of ${c.left.edges.length})`;
    return searchDiff.render(c.graph, report, sel);
  }

  // Two strategies: the pair's plans (compare-planner.js) → {c, labels, stale, err, note, overlay}.
  function pairView(state) {
    pair = state.compare;
    fillSelect(pickers.left, catalog(), 'strategies', pair[0]);
    fillSelect(pickers.right, catalog(), 'strategies', pair[1]);
    const stale = isCompareStale(state);
    const err = compareErrorNow(state);
    const hardware = labelOf(catalog(), 'hardware', state.options.hardware ?? DEFAULT_CHOICES.hardware);
    const c = state.compared;
    return {
      c,
      stale,
      err: err?.message ?? null,
      note: err ? `Not planned: ${err.message}` : stale ? 'Planning…' : `times estimated on ${hardware}`,
      overlay: err ? `Not planned: ${err.message}${c ? ' — showing the last pair that planned.' : ''}` : '',
      labels: c && {
        left: labelOf(catalog(), 'strategies', c.pair[0]),
        right: labelOf(catalog(), 'strategies', c.pair[1]),
      },
    };
  }

  // Greedy vs optimal: the search's two plans (watch-search.js), the certificate as the note.
  let searchShown = null; // {search, c}: the compared object kept while the search is the same
  function searchView(state) {
    const s = isSearchCurrent(state) ? state.search : null;
    const strategy = state.options.strategy ?? DEFAULT_CHOICES.strategy;
    const name = labelOf(catalog(), 'strategies', strategy);
    if (s?.status === 'done' && searchShown?.search !== s) {
      const cert = certificateText(s.result.search, s.ms);
      searchShown = {
        search: s,
        c: {
          search: true,
          graph: state.graph,
          left: s.greedy,
          right: s.result,
          pair: [strategy, strategy],
          // The greedy side: seed's order in words, else the strategy's own procedure (the catalog's blurb).
          blurbs: { left: strategy === 'seed' ? 'each edge decided once, in order' : undefined, right: cert },
        },
      };
    }
    const c = searchShown?.c ?? null;
    const bounded = c?.right.search?.status === 'bounded';
    const note = !state.optimal
      ? 'Optimal is off'
      : !s || s.status === 'running'
        ? 'Searching…'
        : s.status === 'cancelled'
          ? 'Search cancelled'
          : s.status === 'error'
            ? `Not searched: ${s.message}`
            : capitalise(certificateText(s.result.search, s.ms));
    return {
      c,
      stale: s?.status !== 'done',
      err: s?.status === 'error' ? s.message : null,
      note,
      overlay: s?.status === 'error' ? `Not searched: ${s.message} — the greedy plan is shown.` : '',
      labels: c && { left: `Greedy · ${name}`, right: `${bounded ? 'Best found' : 'Optimal'} · ${name}` },
    };
  }

  function render(state) {
    const open = !!state.compare;
    document.body.classList.toggle('comparing', open);
    el.hidden = !open;
    if (!open) {
      shown = null;
      return;
    }
    const searching = state.compare === 'search';
    strategyHead.hidden = searching;
    strategiesButton.hidden = !searching;
    title.textContent = searching ? 'Greedy vs optimal' : 'Compare strategies';
    const view = searching ? searchView(state) : pairView(state);
    el.classList.toggle('stale', view.stale);
    $.note.textContent = view.note;
    $.note.title = view.note;
    $.note.classList.toggle('error', !!view.err);
    $.overlay.hidden = !view.err;
    $.overlay.textContent = view.overlay;
    const { c, labels } = view;
    const prev = shown;
    shown = { ...state, compared: c };
    if (!c) return;
    if (prev?.compared !== c) renderPlans(c, labels);
    else if (prev.selection !== state.selection) {
      renderList(c, labels, state.selection);
      for (const side of Object.values(sides)) side.setSelection(state.selection);
      if (state.selection?.kind === 'edge') reveal(sides.left.view.cy, state.selection.id);
    }
  }

  return { el, render, cy: (which) => sides[which].view.cy };
}

const capitalise = (text) => text.charAt(0).toUpperCase() + text.slice(1);
