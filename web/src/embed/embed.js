// embed.js — the light ?embed: a graph's plan in an iframe, without the page's code. index.html's script
// (page/boot.js) imports it for ?embed (with no &editable, &json, &compare or &onnx) and hands it the page's
// main.js as a fallback.
//
// Contract: startEmbed(mode, page) (mode: share/embed-params.js parseMode) shows the graph the URL hash names
// (share/url-state.js's links; no hash: the default example) in index.html's embed layout: the totals cards
// (views/totals.js), the graph drawn as SVG up to 50 boxes (element/drawing.js; Cytoscape, and ELK in the
// layout worker, only for bigger graphs), the status line, "Open in playground ↗" (the same link without the
// query) and, once an op, a kernel or an edge is selected — by click, by Tab and Enter on the SVG drawing (on
// Cytoscape's: Tab to it, arrow keys, Enter; views/keyboard/graph-keys.js), or by &select= — its explanation
// (views/selection-panel.js: why an edge was not fused, in the planner's words).
// &code adds the selected kernel's generated code (the largest kernel at first); the full WebAssembly module
// that writes it (planner/planner-client.js) loads only then. Plans come from the plan-only module in its
// worker (planner/plan-only-client.js); every number is the plan's, only formatted. A graph with named
// dimensions is planned at its own sizes; a link that sets sizes (the Sizes sliders, which sweep with the full
// module, are the page's) calls page() before anything is drawn. A bad link, example or
// &select= says so in the notice bar and the plan is still shown. A link with &optimal (plan search, the full
// module's) also calls page(). The colours are the theme's (theme/theme.js): ?theme=dark|light for this visit,
// else the reader's remembered choice, else the system's, followed live; the drawing is repainted when it
// changes. body[data-plan-shown] counts draws (tests).
// Browser-only; shown by tests/browser/page-embed.test.mjs and page-budget.test.mjs.

import { DEFAULT_EXAMPLE, GALLERY } from '../gallery/gallery.js';
import { loadExample } from '../gallery/example-loader.js';
import { drawingKind, loadDrawing } from '../element/drawing.js';
import { layoutGraph } from '../layout/layout.js';
import { createPlanOnlyPlanner } from '../planner/plan-only-client.js';
import { catalogFrom, labelOf } from '../planner/strategy-catalog.js';
import { buildViewModel } from '../present/view-model.js';
import { parseGraphText } from '../graph/graph-text.js';
import { summarize } from '../graph/error-summary.js';
import { resolveSelect } from '../share/embed-params.js';
import { decodeReadableLink } from '../share/example-link.js';
import { DEFAULT_OPTIONS } from '../state/options.js';
import { applyTheme, onThemeChange, savedTheme } from '../theme/theme.js';
import { $ } from '../views/dom.js';
import { renderHeatLegend } from '../views/heat-legend.js';
import { showPageMode } from '../views/page-chrome.js';
import { showTotals } from '../views/totals.js';

const catalog = catalogFrom({}); // labels only (strategy-catalog.js's words); the planner judges the names

// The graph and options the URL hash asks for, with a message when it cannot be honoured.
async function requested(hash) {
  // An example link is read here; a 'state=' link needs the link codec (with its compressor), loaded for it.
  const link = decodeReadableLink(hash) ?? (await import('../share/url-state.js')).decodeState(hash);
  const fallback = { example: DEFAULT_EXAMPLE, options: { ...DEFAULT_OPTIONS } };
  const state = link.kind === 'state' ? link.state : fallback;
  const notice = link.kind === 'error' ? link.message : null;
  if (state.text !== undefined) return { ...state, notice };
  const text = await loadExample(state.example);
  if (text !== null) return { ...state, text, notice };
  const title = GALLERY.find((e) => e.id === DEFAULT_EXAMPLE).title;
  return {
    ...fallback,
    text: await loadExample(DEFAULT_EXAMPLE),
    notice: `There is no example called “${state.example}”; showing ${title} instead.`,
  };
}

// The full module's planner, for &code's generated code: loaded on the first request.
function codePlanner() {
  let full = null;
  return {
    code: async (...args) => {
      full ??= import('../planner/planner-client.js').then((m) => m.createPlanner());
      return (await full).code(...args);
    },
  };
}

const once = (f) => {
  let done = false;
  return () => done || ((done = true), f());
};

export function startEmbed(mode, page) {
  // The theme before anything is drawn (the SVG drawing reads it), as the page's theme-control.js does.
  applyTheme(document.documentElement, mode.theme ?? savedTheme());
  const planner = createPlanOnlyPlanner();
  let state = { text: '', options: {}, graph: null, plan: null, selection: null, colorBy: 'group' };
  let view = null;
  let shown = null; // the drawn view model and layout, for a change of colouring
  let seq = 0;
  let selectSpec = mode.select; // &select= applies to the first plan only
  const explain = $('selection-panel');

  // The embed's own chrome, once it knows it draws (not the page): the explanation over the graph's foot, with
  // a close button, hidden while nothing is selected; the colouring and fit buttons; the notice's close button.
  const chrome = once(() => {
    showPageMode(mode, false);
    document.body.classList.add('light-embed');
    if (!mode.showCode) {
      explain.classList.add('explain');
      explain.hidden = true;
      const close = Object.assign(document.createElement('button'), {
        className: 'btn small explain-close',
        textContent: '✕',
        onclick: () => select(null),
      });
      close.setAttribute('aria-label', 'Close the explanation');
      explain.prepend(close);
      document.querySelector('.graph-wrap').append(explain);
    }
    $('notice-close').addEventListener('click', () => notice(null));
    $('fit').addEventListener('click', () => view?.fit());
    $('color-bytes').addEventListener('click', () => {
      state = { ...state, colorBy: state.colorBy === 'bytes' ? 'group' : 'bytes' };
      const heat = state.colorBy === 'bytes';
      $('color-bytes').setAttribute('aria-pressed', String(heat));
      $('heat-legend').hidden = !heat;
      $('legend').hidden = heat;
      if (shown && view) view.draw(shown.vm, shown.layout, state.colorBy);
      view?.select(state.selection);
    });
    window.addEventListener('hashchange', show);
    onThemeChange(document.documentElement, () => view?.repaint());
  });

  // The selection panel loads with the first selection (none is needed to draw the plan).
  let panel = null;
  const selectionPanel = async () =>
    (panel ??= import('../views/selection-panel.js').then(({ createSelectionPanel }) =>
      createSelectionPanel($('selection-body'), {
        dispatch: (e) => e.type === 'select' && select(e.target),
        planner: mode.showCode ? codePlanner() : null,
      }),
    ));
  const notice = (message) => {
    $('notice').hidden = !message;
    $('notice').classList.add('error');
    $('notice-text').textContent = message ?? '';
  };

  // reveal: pan the drawing to the selection (for &select=, which the reader did not click on screen).
  async function select(target, { reveal = false } = {}) {
    state = { ...state, selection: target ?? null };
    view?.select(state.selection, { reveal });
    explain.hidden = !mode.showCode && !state.selection;
    if (state.selection || panel) (await selectionPanel()).render(state, false);
  }

  function showStatus(text, error = false) {
    $('status').textContent = text;
    $('status').classList.toggle('error', error);
  }

  async function drawing(kind) {
    if (view?.kind === kind) return view;
    const make = await loadDrawing(kind);
    view?.destroy();
    view = make($('graph'), { onSelect: select, minZoom: 1 });
    return view;
  }

  async function show() {
    const mine = ++seq;
    const want = await requested(location.hash);
    if (mine !== seq) return;
    // A link that sets sizes of named dimensions gets the page's Sizes sliders; one with &optimal, its search.
    if ((Object.keys(want.options.dims ?? {}).length || want.optimal) && seq === 1) return page();
    chrome();
    const { graph } = parseGraphText(want.text);
    notice(want.notice);
    const ex = GALLERY.find((e) => e.id === want.example);
    const strategy = want.options.strategy ? ` · ${labelOf(catalog, 'strategies', want.options.strategy)}` : '';
    $('embed-example').textContent = `${ex ? ex.title : 'custom graph'}${strategy}`;
    $('open-full').href = `${location.origin}${location.pathname}${location.hash}`;
    const plan = await planner.plan(want.text, want.options);
    if (mine !== seq) return;
    if (!plan.ok) {
      showTotals(null, false);
      view?.clear();
      $('graph-overlay').hidden = false;
      $('graph-overlay').textContent = `Not planned: ${summarize(plan.errors?.[0] ?? plan.error)}`;
      showStatus($('graph-overlay').textContent, true);
      document.body.dataset.planShown = String((Number(document.body.dataset.planShown) || 0) + 1);
      return;
    }
    $('graph-overlay').hidden = true;
    state = { ...state, text: want.text, options: want.options, graph, plan, selection: null };
    showTotals(plan, false, (name) => labelOf(catalog, 'hardware', name));
    const vm = buildViewModel(graph, plan);
    const box = $('graph').getBoundingClientRect();
    const layout = await layoutGraph(vm, { direction: box.width > box.height * 1.6 ? 'RIGHT' : 'DOWN' });
    const v = await drawing(drawingKind(vm));
    if (mine !== seq) return;
    shown = { vm, layout };
    v.draw(vm, layout, state.colorBy);
    renderHeatLegend($('heat-legend'), vm.heat);
    $('legend-recomputed').hidden = !vm.nodes.some((n) => n.copies?.length); // the halo's entry only when drawn
    const fused = plan.groups.filter((g) => g.ops.length > 1).length;
    showStatus(
      `Planned ${graph.ops.length} ops into ${plan.kernels_fused} kernel${plan.kernels_fused === 1 ? '' : 's'} ` +
        `(${fused} fused) · click an op, a kernel or an edge${v.kind === 'svg' ? ' (or Tab to it, then Enter)' : ' (or Tab to it, arrow keys, Enter)'} to see why`,
    );
    await select(firstSelection(plan, graph), { reveal: true });
    document.body.dataset.planShown = String((Number(document.body.dataset.planShown) || 0) + 1);
  }

  // What starts selected: &select= (a bad value says so in the notice), else with &code the largest kernel.
  function firstSelection(plan, graph) {
    const spec = selectSpec;
    selectSpec = null;
    if (spec) {
      const found = resolveSelect(spec, graph, plan);
      if (found.target) return found.target;
      notice(`${found.error} The plan is shown without a selection.`);
    }
    if (!mode.showCode) return null;
    const kernels = plan.groups.filter((g) => g.kernel);
    return kernels.length
      ? { kind: 'group', id: kernels.reduce((a, b) => (b.ops.length > a.ops.length ? b : a)).id }
      : null;
  }

  window.fusionPlayground = { light: true, state: () => state, planner, drawing: () => view };
  show();
}
