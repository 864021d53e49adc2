// main.js — the playground page: wires the state owner, the planner and the views, one way:
// events → store (events.js) → planner (WASM, in a Web Worker) → plan-result event → views.
//
// Stages, in order: read the page mode and the link; build the views; subscribe the effects (plan after a
// debounce, keep the URL and the draft current, render); open the first state. Views only dispatch events.
// Shown by tests/browser/page-*.test.mjs.

import schema from '../../schema/graph.schema.json';
import { createStore } from './store.js';
import { isStale } from './events.js';
import { EXAMPLES } from './examples-data.js';
import { GALLERY, DEFAULT_EXAMPLE, findExample } from './gallery.js';
import { decodeState, parseMode, MAX_LINK_TEXT } from './url-state.js';
import { loadDraft, saveDraft } from './drafts.js';
import { createPlanner } from './planner-client.js';
import { drawnViewModel } from './collapse.js';
import { installFileOpen } from './file-open.js';
import { installLargeGraph } from './large-graph.js';
import { createSavingsPanel } from './savings-panel.js';
import { createLinkEncoder } from './link-encoder.js';
import { layoutGraph } from './layout.js';
import { createGraphView } from './graph-view.js';
import { createJsonEditor } from './json-editor.js';
import { createPlanPanel } from './plan-panel.js';
import { createSelectionPanel } from './selection-panel.js';
import { toDiagnostics, summarize } from './diagnostics.js';
import { explainReason } from './reasons.js';
import { opLabel } from './graph-text.js';
import { ALL_KINDS } from './op-kinds.js';
import { installControls } from './controls.js';
import { renderHeatLegend } from './heat-legend.js';
import { createStrategyPicker } from './strategy-picker.js';
import { catalogFrom, labelOf } from './strategy-catalog.js';
import { createCompareView } from './compare-view.js';
import { watchCompare } from './compare-planner.js';
import { defaultPair } from './compare-model.js';

const $ = (id) => document.getElementById(id);
const mode = parseMode(location.search);
const editable = !mode.embed || mode.editable;
const timings = { start: performance.now(), firstNumbersMs: null, firstPlanShownMs: null, lastEditToPlanMs: null, lastPlanMs: null, lastLayoutMs: null, lastElkMs: null };

// ---- stage 1: page mode ----
document.body.classList.toggle('embed', mode.embed);
document.body.classList.toggle('show-json', mode.showJson);
document.body.classList.toggle('read-only', !editable);

// ---- stage 2: state owner, planner, views ----
const store = createStore({ examples: EXAMPLES });
const dispatch = (event) => store.dispatch(event);
const planner = createPlanner();
const dtypes = schema.definitions.dtype.enum;

const editor = createJsonEditor($('editor'), { schema, onChange: (text) => dispatch({ type: 'set-text', text }) });
editor.setReadOnly(!editable);
const graphView = createGraphView($('graph'), {
  onSelect: (target) => dispatch({ type: 'select', target }),
  onConnect: (producer, consumer) => connectOps(producer, consumer),
  onHoverEdge: showEdgeTip,
  onToggleGroup: (group) => largeGraph.toggle(group),
});
graphView.setEditable(editable);
const picker = createStrategyPicker({ strategy: $('opt-strategy'), hardware: $('opt-hardware'), dispatch });
const planPanel = createPlanPanel({ onSelect: (target) => dispatch({ type: 'select', target }),
  hardwareLabel: (name) => labelOf(picker.catalog(), 'hardware', name) });
// The compare view (not in embed mode): two strategies' plans side by side, planned by compare-planner.js.
const compareView = mode.embed ? null : createCompareView(document.querySelector('main.layout'), { dispatch, catalog: picker.catalog, layoutGraph });
if (compareView) watchCompare(store, planner);
const selectionPanel = createSelectionPanel($('selection-body'), { dispatch, dtypes, kinds: ALL_KINDS });
const savingsPanel = createSavingsPanel({ onSelect: (target) => { dispatch({ type: 'select', target }); graphView.centerGroup(target.id); } });

// A producer → consumer connection from the graph; sources take no inputs, so say so instead.
function connectOps(producer, consumer) {
  const { graph } = store.getState();
  if (!graph) return;
  const kind = String(graph.ops[consumer]?.kind ?? '');
  if (['input', 'constant'].includes(kind.toLowerCase())) {
    dispatch({ type: 'notice', level: 'error', message: `${opLabel(graph, consumer)} is a source (${kind}) and takes no inputs; connect into an op that computes something.` });
    return;
  }
  dispatch({ type: 'edit-graph', edit: { type: 'connect', producer, consumer } });
}

// The graph's edge tooltip: the planner's reason in words, in the status line while hovered.
function showEdgeTip(edge) {
  const { graph, plan } = store.getState();
  if (!edge || !graph || !plan) return renderStatus(store.getState());
  const e = plan.edges.find((x) => x.producer === edge.producer && x.consumer === edge.consumer);
  if (e) $('status').textContent = explainReason(e, { producer: opLabel(graph, e.producer), consumer: opLabel(graph, e.consumer) });
}

// ---- stage 3: effects ----
let planTimer = null;
let requested = null;
let editAt = null;

// Plan the current text and options (after a short debounce while typing).
function schedulePlan(state, event) {
  const key = JSON.stringify([state.text, state.options]);
  if (key === requested) return;
  requested = key;
  if (event?.type === 'set-text' || event?.type === 'edit-graph' || event?.type === 'set-option') editAt = performance.now();
  clearTimeout(planTimer);
  const { text, options } = state;
  planTimer = setTimeout(async () => {
    await planner.ready.catch(() => {});
    const t0 = performance.now();
    const result = await planner.plan(text, options);
    timings.lastPlanMs = performance.now() - t0;
    dispatch({ type: 'plan-result', text, options, result });
    if (result.ok && timings.firstNumbersMs === null) timings.firstNumbersMs = performance.now() - timings.start;
  }, event?.type === 'set-text' ? 250 : 0);
}

let urlTimer = null;
let urlSeq = 0;
const linkEncoder = createLinkEncoder();
function scheduleUrl(state) {
  clearTimeout(urlTimer);
  const seq = ++urlSeq;
  urlTimer = setTimeout(async () => {
    // A graph too large for a link is neither encoded (compressing tens of MB would freeze the tab) nor
    // saved as a draft (local storage holds a few MB); the person is told once.
    if (state.text.length > MAX_LINK_TEXT) {
      if (!state.notice) {
        dispatch({ type: 'notice', level: 'info', message: `This graph (${(state.text.length / 2 ** 20).toFixed(1)} MiB of JSON) ` +
          `is too large for a share link or a saved draft (limit ${MAX_LINK_TEXT / 2 ** 20} MiB); save the JSON to a file to keep it.` });
      }
      return;
    }
    const hash = await linkEncoder.encode(state, EXAMPLES[state.example]); // a big graph's off the main thread
    if (seq !== urlSeq) return; // changed meanwhile: a newer call writes the link
    if (location.hash.slice(1) !== hash) history.replaceState(null, '', `#${hash}`);
    if (!mode.embed) saveDraft(localStorage, state);
  }, 300);
}

let layoutSeq = 0;
let lastLayoutKey = null;
// Lay out and draw the last valid plan; a new layout only when the plan or the open groups changed (the
// view is fitted only for a new plan).
async function renderGraph(state) {
  if (!state.graph || !state.plan) return;
  if (state.plan === lastLayoutKey?.plan && state.expanded === lastLayoutKey?.expanded) return;
  const fit = state.plan !== lastLayoutKey?.plan;
  lastLayoutKey = { plan: state.plan, expanded: state.expanded };
  const seq = ++layoutSeq;
  const vm = drawnViewModel(state.graph, state.plan, state.expanded);
  const overlay = $('graph-overlay');
  const slow = setTimeout(() => {
    overlay.hidden = false;
    overlay.classList.add('info');
    overlay.textContent = `Laying out ${vm.nodes.length} node${vm.nodes.length === 1 ? '' : 's'}… (the numbers are ready)`;
  }, 400);
  const t0 = performance.now();
  const box = $('graph').getBoundingClientRect();
  const layout = await layoutGraph(vm, { direction: box.width > box.height * 1.6 ? 'RIGHT' : 'DOWN', aspect: box.width / Math.max(1, box.height) });
  timings.lastElkMs = performance.now() - t0;
  timings.lastLayout = { engine: layout.engine, reason: layout.reason, nodes: vm.nodes.length };
  clearTimeout(slow);
  if (seq !== layoutSeq) return;
  overlay.classList.remove('info');
  renderEditorStatus(store.getState());
  if (!(await graphView.render(vm, layout, { fit })) || seq !== layoutSeq) return; // a big graph draws over several frames
  renderHeatLegend($('heat-legend'), vm.heat);
  graphView.setSelection(store.getState().selection);
  timings.lastLayoutMs = performance.now() - t0;
  const now = performance.now();
  if (timings.firstPlanShownMs === null) timings.firstPlanShownMs = now - timings.start;
  if (editAt !== null) { timings.lastEditToPlanMs = now - editAt; editAt = null; }
  document.body.dataset.planShown = String((Number(document.body.dataset.planShown) || 0) + 1);
}

function renderStatus(state) {
  const el = $('status');
  el.classList.toggle('error', !!state.error);
  if (state.error) {
    const err = state.error.error;
    el.textContent = `${err?.code === 'load_failed' ? 'The planner could not be loaded' : 'Not planned'}: ${summarize(err)}` +
      (state.plan ? ' — showing the last valid plan.' : '');
  } else if (state.plan) {
    const p = state.plan;
    const ms = timings.lastPlanMs !== null ? ` in ${timings.lastPlanMs.toFixed(1)} ms` : '';
    el.textContent = `Planned ${state.graph.ops.length} ops into ${p.kernels_fused} kernel${p.kernels_fused === 1 ? '' : 's'}${ms}` +
      ` (${p.groups.filter((g) => g.ops.length > 1).length} fused) · hover an edge to see why it was not fused`;
  } else el.textContent = 'Loading the planner…';
}

function renderEditorStatus(state) {
  const el = $('editor-status');
  const stale = isStale(state);
  el.classList.toggle('error', !!state.error && !stale);
  el.classList.toggle('ok', !state.error && !stale && !!state.plan);
  if (stale) el.textContent = 'Planning…';
  else if (state.error) {
    const errs = state.error.errors?.length ? state.error.errors : [state.error.error];
    el.textContent = `${summarize(errs[0])}${errs.length > 1 ? ` (+${errs.length - 1} more)` : ''}`;
  } else if (state.plan) el.textContent = `✓ Valid graph: ${state.graph.ops.length} ops, ${state.plan.edges.length} edges.`;
  editor.setDiagnostics(!stale && state.error ? toDiagnostics(state.text, state.error) : []);
  $('graph-overlay').hidden = !(state.error && state.plan && !stale);
  $('graph-overlay').textContent = 'The JSON has an error — the graph shows the last valid plan.';
}

function renderChrome(state) {
  $('undo').disabled = !editable || state.past.length === 0;
  $('redo').disabled = !editable || state.future.length === 0;
  $('delete-selected').disabled = !editable || !(state.selection?.kind === 'op' || state.selection?.kind === 'edge');
  $('opt-broadcast').checked = state.options.broadcast;
  $('opt-resident').checked = state.options.resident_sources;
  const heat = state.colorBy === 'bytes';
  $('color-bytes').setAttribute('aria-pressed', String(heat));
  $('heat-legend').hidden = !heat;
  $('legend').hidden = heat;
  if (state.colorBy !== shown.colorBy) graphView.setColorBy(state.colorBy);
  for (const a of document.querySelectorAll('#gallery a')) a.setAttribute('aria-current', String(a.dataset.example === state.example));
  const ex = findExample(state.example);
  const strategy = state.options.strategy ? ` · ${labelOf(picker.catalog(), 'strategies', state.options.strategy)}` : '';
  $('embed-example').textContent = `${ex ? ex.title : 'custom graph'}${strategy}`;
  $('compare-toggle').setAttribute('aria-pressed', String(!!state.compare));
  const n = $('notice');
  n.hidden = !state.notice;
  n.classList.toggle('error', state.notice?.level === 'error');
  $('notice-text').textContent = state.notice?.message ?? '';
}

let shown = {};
store.subscribe((state, prev, event) => {
  editor.setText(state.text);
  schedulePlan(state, event);
  if (state.text !== prev.text || state.options !== prev.options || state.example !== prev.example || state.compare !== prev.compare) scheduleUrl(state);
  picker.render(state);
  compareView?.render(state);
  if (!state.compare && prev.compare) { graphView.cy.resize(); graphView.fit(); }
  renderGraph(state);
  if (state.selection !== shown.selection) graphView.setSelection(state.selection);
  planPanel.render(state);
  savingsPanel.render(state);
  if (state.plan !== shown.plan || state.selection !== shown.selection || state.graph !== shown.graph) selectionPanel.render(state, editable);
  renderStatus(state);
  renderEditorStatus(state);
  renderChrome(state);
  shown = { plan: state.plan, selection: state.selection, graph: state.graph, colorBy: state.colorBy };
});

// ---- stage 4: controls, then the first state ----
installControls({ store, dispatch, editor, graphView, editable, mode, dtypes, examples: EXAMPLES, connectOps });
planner.ready.then((v) => { $('planner-version').textContent = `planner ${v}`; }, () => {});
planner.catalog.then((names) => { picker.setCatalog(catalogFrom(names)); picker.render(store.getState()); });
$('compare-toggle').addEventListener('click', () => {
  const s = store.getState();
  dispatch({ type: 'set-compare', pair: s.compare ? null : defaultPair(s.options.strategy) });
});

// The state a link, a draft or nothing asks for; a bad link says so and opens the default example.
function firstState() {
  const link = decodeState(location.hash);
  if (link.kind === 'state') {
    const { example, text } = link.state;
    if (text !== undefined || example in EXAMPLES) return { state: link.state };
    return { state: { example: DEFAULT_EXAMPLE }, notice: `There is no example called “${example}”; showing ${findExample(DEFAULT_EXAMPLE).title} instead.` };
  }
  if (link.kind === 'error') return { state: { example: DEFAULT_EXAMPLE }, notice: link.message };
  const draft = mode.embed ? null : loadDraft(localStorage);
  return { state: draft ?? { example: DEFAULT_EXAMPLE } };
}

const first = firstState();
dispatch({ type: 'restore', state: first.state });
if (first.notice) dispatch({ type: 'notice', level: 'error', message: first.notice });
// Opening models (button, Ctrl+O, drop, ?onnx=) and the big-graph controls (expand, reveal).
const fileOpen = installFileOpen({ store, dispatch, editable });
const largeGraph = installLargeGraph({ store, dispatch, graphView });

window.addEventListener('hashchange', () => {
  const link = decodeState(location.hash);
  if (link.kind === 'error') {
    dispatch({ type: 'notice', level: 'error', message: link.message });
    dispatch({ type: 'load-example', id: DEFAULT_EXAMPLE });
  } else if (link.kind === 'state') {
    const s = link.state;
    if (s.text !== undefined) return dispatch({ type: 'restore', state: s });
    dispatch({ type: 'load-example', id: s.example });
    // A readable link may also name a strategy, hardware or a compare pair (url-state.js).
    for (const key of ['strategy', 'hardware']) if (s.options[key]) dispatch({ type: 'set-option', key, value: s.options[key] });
    if (s.compare) dispatch({ type: 'set-compare', pair: s.compare });
  }
});

// For tests and the timing note: the store and the timings (read-only use).
window.fusionPlayground = { store, timings, gallery: GALLERY, graphView, planner, screenPosition: (op) => graphView.screenPosition(op),
  imports: fileOpen.timings, compare: compareView, layoutGraph };
