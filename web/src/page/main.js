// main.js — the playground page: wires the state owner, the planner and the views, one way:
// events → store (state/) → planner (WASM, in a Web Worker; planner/) → plan-result event → views (views/).
//
// Stages, in order: read the page mode; build the state owner, the planner and the views; subscribe the
// effects (plan on change, keep the URL and the draft current, render); install the controls; open the first
// state. Nothing is rendered or decided here: views draw, controls dispatch events. Shown by
// tests/browser/page*.test.mjs.

import schema from '../../../schema/graph.schema.json';
import { EXAMPLES } from '../gallery/examples-data.js';
import { GALLERY } from '../gallery/gallery.js';
import { installFileOpen } from '../import/file-open.js';
import { layoutGraph } from '../layout/layout.js';
import { watchCompare } from '../planner/compare-planner.js';
import { createPlanner } from '../planner/planner-client.js';
import { createSearcher } from '../planner/search-client.js';
import { catalogFrom, labelOf } from '../planner/strategy-catalog.js';
import { watchPlan } from '../planner/watch-plan.js';
import { watchSearch } from '../planner/watch-search.js';
import { watchSweep } from '../planner/watch-sweep.js';
import { scaleMax } from '../present/size-scale.js';
import { parseMode } from '../share/url-state.js';
import { createStore } from '../state/store.js';
import { createLazyCompareView } from '../views/compare/lazy-compare-view.js';
import { $ } from '../views/dom.js';
import { createEditorStatus } from '../views/editor-status.js';
import { createGraphPane } from '../views/graph-pane.js';
import { createGraphView } from '../views/graph-view.js';
import { createLazyJsonEditor } from '../views/lazy-json-editor.js';
import { createPageChrome, showPageMode } from '../views/page-chrome.js';
import { createPlanPanel } from '../views/plan-panel.js';
import { createNumericsPanel } from '../views/numerics-panel.js';
import { createSavingsPanel } from '../views/savings-panel.js';
import { createSearchPanel } from '../views/search/search-panel.js';
import { createSelectionPanel } from '../views/selection-panel.js';
import { createSizesPanel } from '../views/sizes-panel.js';
import { createSweepPanel } from '../views/sweep-panel.js';
import { createStatusLine } from '../views/status-line.js';
import { createStrategyPicker } from '../views/strategy-picker.js';
import { installAddOp } from './controls/add-op.js';
import { installExport } from './controls/export.js';
import { installFind } from './controls/find.js';
import { installGraphTools } from './controls/graph-tools.js';
import { installKeyboard } from './controls/keyboard.js';
import { installLargeGraph } from './controls/large-graph.js';
import { installMenus } from './controls/menus.js';
import { installOptions } from './controls/options.js';
import { installPhoneTabs } from './controls/phone-tabs.js';
import { installShare } from './controls/share.js';
import { installThemeControl } from './controls/theme-control.js';
import { createLinkSync } from './link-sync.js';
import { createTimings } from './timings.js';

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- stage 1: page mode ----
const mode = parseMode(location.search);
const editable = !mode.embed || mode.editable;
const timings = createTimings();
showPageMode(mode, editable);
installThemeControl({ mode }); // before anything is drawn: the graph view reads the theme when created

// ---- stage 2: state owner, planner, views ----
const store = createStore({ examples: EXAMPLES });
const dispatch = (event) => store.dispatch(event);
const notice = (message, level = 'info') => dispatch({ type: 'notice', level, message });
const select = (target) => dispatch({ type: 'select', target });
const planner = createPlanner();
const dtypes = schema.definitions.dtype.enum;

// The JSON box's editor (CodeMirror) loads after the first plan is drawn, or at once when the text does not
// plan (it is needed to fix it), or when the box is used; an embed without the JSON box never loads it.
let firstDrawn;
const drawnOnce = new Promise((resolve) => (firstDrawn = resolve));
store.subscribe((state) => state.error && firstDrawn());
const editor = createLazyJsonEditor($('editor'), {
  schema,
  onChange: (text) => dispatch({ type: 'set-text', text }),
  when: mode.embed && !mode.showJson ? new Promise(() => {}) : Promise.race([drawnOnce, delay(3000)]),
});
editor.setReadOnly(!editable);
const graphView = createGraphView($('graph'), {
  onSelect: select,
  onConnect: (producer, consumer) => tools.connect(producer, consumer),
  onHoverEdge: (edge) => statusLine.showEdge(store.getState(), edge),
  onHoverGroup: (group) => statusLine.showGroup(store.getState(), group),
  onToggleGroup: (group) => largeGraph.toggle(group),
});
graphView.setEditable(editable);
const picker = createStrategyPicker({ strategy: $('opt-strategy'), hardware: $('opt-hardware'), dispatch });
// The Optimal switch beside the strategy picker and the plan search's panel above the plan's numbers; the
// search runs on a worker of its own (search-client.js), started on first use.
const searchPanel = createSearchPanel({
  dispatch,
  strategy: $('opt-strategy'),
  pane: $('plan-title').closest('.pane'),
});
const searcher = createSearcher();
const planPanel = createPlanPanel({
  onSelect: select,
  hardwareLabel: (name) => labelOf(picker.catalog(), 'hardware', name),
});
const numericsPanel = createNumericsPanel({ onSelect: select });
// The compare view (in embed mode only with &compare=A,B; loaded when first opened): two strategies' plans side
// by side, planned by compare-planner.js.
const compareView =
  mode.embed && !Array.isArray(mode.compare)
    ? null
    : createLazyCompareView(document.querySelector('main.layout'), { dispatch, catalog: picker.catalog, layoutGraph });
const selectionPanel = createSelectionPanel($('selection-body'), { dispatch, dtypes, planner });
const sizesPanel = createSizesPanel({ dispatch });
const sweepPanel = mode.embed ? null : createSweepPanel({ dispatch });
const savingsPanel = createSavingsPanel({
  onSelect: (target) => {
    select(target);
    graphView.centerGroup(target.id);
  },
});
const statusLine = createStatusLine($('status'), { planMs: () => timings.values.lastPlanMs });
const editorStatus = createEditorStatus({ line: $('editor-status'), overlay: $('graph-overlay'), editor });
const chrome = createPageChrome({ editable, graphView, catalog: picker.catalog, dispatch });
const graphPane = createGraphPane({
  graphView,
  container: $('graph'),
  overlay: $('graph-overlay'),
  legend: $('heat-legend'),
  layoutGraph,
  getState: store.getState,
  restoreOverlay: () => editorStatus.render(store.getState()),
  onLaidOut: timings.laidOut,
  onDrawn: (ms) => {
    timings.drawn(ms);
    firstDrawn();
  },
});

// ---- stage 3: effects ----
if (compareView) watchCompare(store, planner);
watchSearch(store, searcher);
watchPlan(store, planner, { onEdit: timings.edited, onPlanned: timings.planned, onShown: timings.numbersShown });
// The size chart's sweep runs over the range of that name's slider (size-scale.js), from 1, once the first plan
// is drawn (it loads the full module).
const sweepRange = (state, dim) => ({
  from: 1,
  to: scaleMax(state.graph?.dims?.[dim], state.plan?.dims?.[dim], state.options.dims?.[dim]),
});
if (sweepPanel) watchSweep(store, planner, { range: sweepRange, after: drawnOnce });
const links = createLinkSync({ store, dispatch, examples: EXAMPLES, mode });
store.subscribe((state) => {
  editor.setText(state.text);
  picker.render(state);
  searchPanel.render(state);
  compareView?.render(state);
  graphPane.render(state);
  planPanel.render(state);
  numericsPanel.render(state);
  savingsPanel.render(state);
  sizesPanel.render(state);
  sweepPanel?.render(state);
  selectionPanel.render(state, editable);
  statusLine.render(state);
  editorStatus.render(state);
  chrome.render(state);
});

// An embed with &code opens on the largest kernel's code (the selection panel shows it).
if (mode.embed && mode.showCode) {
  const stop = store.subscribe((state) => {
    if (!state.plan || state.selection) return;
    const kernels = state.plan.groups.filter((g) => g.kernel);
    if (!kernels.length) return;
    stop();
    const largest = kernels.reduce((a, b) => (b.ops.length > a.ops.length ? b : a));
    select({ kind: 'group', id: largest.id });
  });
}

// ---- stage 4: controls ----
const addOp = installAddOp({ store, dispatch, editable, dtypes, notice });
const tools = installGraphTools({ store, dispatch, graphView, editable, notice, addOp: addOp.open });
const find = installFind({ store, dispatch, graphView });
installKeyboard({ editor, editable, dispatch, actions: { ...tools, addOp: addOp.open, find: find.focus } });
installMenus();
installOptions({ store, dispatch });
installShare({ store, examples: EXAMPLES, mode, notice });
installExport({ store, graphView, graphPane, notice });
installPhoneTabs({ graphView });
planner.ready.then(chrome.setVersion, () => {});
planner.catalog.then((names) => {
  picker.setCatalog(catalogFrom(names));
  picker.render(store.getState());
});

// ---- stage 5: the first state, then opening models (button, Ctrl+O, drop, ?onnx=) and the big-graph controls ----
links.openFirst();
// ?embed&compare=A,B opens on the compare view of A and B; a bad pair says so and the plan is shown.
if (mode.embed && mode.compare?.error) notice(mode.compare.error, 'error');
else if (mode.embed && mode.compare) dispatch({ type: 'set-compare', pair: mode.compare });
const fileOpen = installFileOpen({ store, dispatch, editable });
const largeGraph = installLargeGraph({ store, dispatch, graphView });

// For tests, the timing note and bench/: the store, the timings, the plan the graph draws (read-only use).
window.fusionPlayground = {
  store,
  timings: timings.values,
  gallery: GALLERY,
  graphView,
  planner,
  searcher,
  screenPosition: (op) => graphView.screenPosition(op),
  graphPlan: () => graphPane.shownPlan(),
  imports: fileOpen.timings,
  compare: compareView,
  layoutGraph,
};
