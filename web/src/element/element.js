// element.js — the <fusion-playground> custom element: one script tag, a graph, its plan on the graph.
//
//   <script type="module" src="…/fusion-playground.js"></script>
//   <fusion-playground src="graphs/mlp.json"></fusion-playground>        (same-origin URL)
//   <fusion-playground><script type="application/json">{"ops": […]}</script></fusion-playground>
//   <fusion-playground example="attention-scores" color-by="bytes" dims="batch=8,seq=2048"></fusion-playground>
// Attributes (element-config.js): src, example, broadcast="false", resident-sources, strategy="xla|tvm|…",
// hardware="a100|h100|…", dims="N=8,seq=128" (values of named dimensions, docs/design.md §16), color-by="bytes",
// playground (the URL of the full page for "Open in playground"; default: the folder of this script),
// editable (a JSON box under the graph, element-editor.js, loaded only then: the reader's text is planned as
// they type, an error is said under the box with the last good drawing kept, and Reset restores the graph),
// theme="dark" (element.css's dark colours; the drawing reads them when drawn, and a later change of theme
// repaints it without planning again).
// Read-only: totals (bytes unfused/fused, speedup, kernels, estimated time; the bytes cards add the planner's
// formula when the graph has named dimensions), the graph with fusion groups and their pattern
// labels, a status line naming the strategy, the hardware and the sizes planned at.
// Every number is the WASM planner's (plan-only-client.js: the plan-only module, in a worker), only formatted. Errors (bad JSON,
// validation, a src that fails) are shown in words inside the element, never thrown. After each draw the
// element's data-plan-shown counts up (for tests). Built by Vite as dist/fusion-playground.js.
// Shown by tests/browser/element.test.mjs.

import css from './element.css?inline';
import { loadExample } from '../gallery/example-loader.js';
import { readElementConfig } from './element-config.js';
import { createPlanOnlyPlanner } from '../planner/plan-only-client.js';
import { buildViewModel } from '../present/view-model.js';
import { layoutGraph } from '../layout/layout.js';
import { drawingKind, loadDrawing } from './drawing.js';
import { renderHeatLegend } from '../views/heat-legend.js';
import { parseGraphText } from '../graph/graph-text.js';
import { summarize } from '../graph/error-summary.js';
import { formatBytes, exactBytes, formatSpeedup, formatTime } from '../present/format.js';
import { bytesFormula, dimsText, hasNames } from '../present/formula.js';
import { h } from '../views/dom.js';

let planner = null; // one planner (one worker) for every element on the page
let busy = 0; // refreshes under way, over every element on the page
const idle = []; // what waits for busy to come back to 0
const ATTRS = [
  'src',
  'example',
  'broadcast',
  'resident-sources',
  'strategy',
  'hardware',
  'dims',
  'color-by',
  'playground',
  'editable',
];
const CARDS = [
  ['bytes_unfused', 'Bytes unfused'],
  ['bytes_fused', 'Bytes fused', 'accent'],
  ['speedup', 'Speedup'],
  ['kernels', 'Kernels'],
  ['time', 'Est. time'],
];

class FusionPlaygroundElement extends HTMLElement {
  static observedAttributes = [...ATTRS, 'theme'];

  connectedCallback() {
    if (!this.shadowRoot) this.#build();
    this.#refresh();
  }

  // theme only changes colours: the CSS follows by itself, the drawing is painted again (not planned again).
  attributeChangedCallback(name, before, after) {
    if (!this.shadowRoot || !this.isConnected) return;
    if (name !== 'theme') this.#refresh();
    else if (before !== after) this.view?.repaint();
  }

  #build() {
    const root = this.attachShadow({ mode: 'open' });
    const card = ([key, label, cls]) =>
      h(
        'div',
        { class: `card ${cls ?? ''}` },
        h('div', { class: 'label' }, label),
        h('div', { class: 'value', part: key, 'data-value': key }, '–'),
        key.startsWith('bytes') ? h('div', { class: 'formula', 'data-formula': key, hidden: true }) : null,
      );
    this.$ = {
      cards: h('div', { class: 'cards', role: 'group', 'aria-label': 'Plan totals' }, CARDS.map(card)),
      graph: h('div', {
        class: 'graph',
        role: 'img',
        'aria-label': 'Op graph; fusion groups are drawn as coloured clusters',
      }),
      message: h('div', { class: 'message', role: 'alert', hidden: true }),
      legend: h('div', { class: 'legend', 'aria-label': 'Legend: bytes moved per op', hidden: true }),
      status: h('span', { class: 'status', role: 'status' }, 'Loading the planner…'),
      open: h('a', { target: '_blank', rel: 'noopener' }, 'Open in playground ↗'),
    };
    this.$.foot = h('div', { class: 'foot' }, this.$.status, this.$.open);
    root.append(
      h('style', {}, css),
      h(
        'div',
        { class: 'fp' },
        this.$.cards,
        h('div', { class: 'graph-wrap' }, this.$.graph, this.$.message),
        this.$.legend,
        this.$.foot,
      ),
    );
    this.view = null; // the graph view ({kind, clear, draw}) starts once the graph area has a size
    this.seq = 0;
    this.editor = null; // the JSON box of an editable element
    this.edited = null; // the reader's text in it, while it differs from the original
  }

  // Reads the request, fetches the graph if needed, plans it, and draws it; a newer refresh wins. Then the
  // "Open in playground" link, once every element on the page has drawn.
  async #refresh() {
    busy += 1;
    let link;
    try {
      link = await this.#update();
    } finally {
      busy -= 1;
      if (!busy) for (const go of idle.splice(0)) go();
    }
    if (link) await this.#link(...link);
  }

  // One refresh's planning and drawing; → the arguments of #link, or null (a config error, or a newer refresh).
  async #update() {
    const seq = ++this.seq;
    const attrs = Object.fromEntries(ATTRS.map((a) => [a, this.getAttribute(a)]));
    const inline = this.querySelector(':scope > script[type="application/json"]')?.textContent ?? '';
    const config = readElementConfig({
      attrs,
      inlineText: inline,
      baseUrl: document.baseURI,
      pageOrigin: location.origin,
    });
    const original = config.error ? null : await this.#graphText(config.graph);
    if (seq !== this.seq) return null;
    if (typeof original !== 'string') return (this.#fail(config.error ?? original.error), null);
    const editor = this.hasAttribute('editable') ? await this.#editor(original) : this.#dropEditor();
    if (seq !== this.seq) return null;
    const text = editor && this.edited !== null ? this.edited : original;
    planner ??= createPlanOnlyPlanner();
    const result = await planner.plan(text, config.options);
    if (seq !== this.seq) return null;
    const error = result.ok ? null : (result.errors?.[0] ?? result.error);
    editor?.showResult(error);
    // The reader's own text that does not plan: said under their box, the last good drawing kept.
    if (error && text !== original) this.#say(`Not planned: ${summarize(error)}`);
    else if (error) this.#fail(`Not planned: ${summarize(error)}`);
    else await this.#draw(parseGraphText(text).graph, result, config.colorBy, seq);
    return seq === this.seq ? [config, text, seq] : null;
  }

  // The JSON box of an editable element for this original text (element-editor.js, loaded on first use); a new
  // original (another src or example) replaces the box and drops the reader's edits.
  async #editor(original) {
    if (this.editor && this.original === original) return this.editor;
    const { createElementEditor } = await import('./element-editor.js');
    this.#dropEditor();
    this.original = original;
    this.edited = null;
    this.editor = createElementEditor({
      text: original,
      onEdit: (text) => {
        this.edited = text;
        this.#refresh();
      },
      onReset: () => {
        this.edited = null;
        this.#refresh();
      },
    });
    this.$.foot.before(this.editor.element);
    return this.editor;
  }

  #dropEditor() {
    this.editor?.element.remove();
    this.editor = null;
    this.edited = null;
    this.original = null;
    return null;
  }

  // A message on the status line only (the drawing stays).
  #say(message) {
    this.$.status.textContent = message;
    this.$.status.classList.add('error');
    this.dataset.planShown = String((Number(this.dataset.planShown) || 0) + 1);
  }

  // The graph text a request names, or {error} in words.
  async #graphText(graph) {
    if (graph.kind === 'inline') return graph.text;
    if (graph.kind === 'example')
      return (await loadExample(graph.id)) ?? { error: `There is no example called “${graph.id}”.` };
    try {
      const response = await fetch(graph.url);
      if (!response.ok) return { error: `Could not load ${graph.url} (HTTP ${response.status}).` };
      return await response.text();
    } catch (e) {
      return { error: `Could not load ${graph.url} (${e.message}).` };
    }
  }

  #fail(message) {
    this.$.message.hidden = false;
    this.$.message.textContent = message;
    this.$.status.textContent = message;
    this.$.status.classList.add('error');
    for (const el of this.$.cards.querySelectorAll('[data-value]')) el.textContent = '–';
    for (const el of this.$.cards.querySelectorAll('[data-formula]')) el.hidden = true;
    this.view?.clear();
    this.dataset.planShown = String((Number(this.dataset.planShown) || 0) + 1);
  }

  // A bytes card's formula line (docs/design.md §16), shown only when it depends on a name.
  #formula(key, f) {
    const line = this.$.cards.querySelector(`[data-formula="${key}"]`);
    line.hidden = !hasNames(f);
    line.textContent = hasNames(f) ? `= ${bytesFormula(f)}` : '';
    line.title = line.textContent;
  }

  // The element's drawing of the given kind ('svg' or 'cytoscape'), replacing the other; null when a newer
  // refresh took over while Cytoscape loaded.
  async #view(kind, seq) {
    if (this.view?.kind === kind) return this.view;
    const make = await loadDrawing(kind);
    if (seq !== this.seq) return null;
    this.view?.destroy();
    this.view = make(this.$.graph, { minZoom: 1 }); // labels stay at 11 px on screen; a wider drawing pans
    return this.view;
  }

  // "Open in playground": the page's link. Its codec (url-state.js, with its compressor) loads once no element
  // on the page is still planning or drawing, so that it is not on the way to any first drawing.
  async #link(config, text, seq) {
    if (busy) await new Promise((go) => idle.push(go));
    const { encodeState } = await import('../share/url-state.js');
    if (seq !== this.seq) return;
    const base = this.getAttribute('playground') ?? new URL(/* @vite-ignore */ './', import.meta.url).href;
    const example = config.graph.kind === 'example' ? config.graph.id : null;
    // An example's text is the example's own (loaded by #graphText), so the link names only the example.
    this.$.open.href = `${base}#${encodeState({ example, text, options: config.options }, example && text)}`;
  }

  async #draw(graph, plan, colorBy, seq) {
    const set = (key, value, title = '') =>
      Object.assign(this.$.cards.querySelector(`[data-value="${key}"]`), { textContent: value, title });
    set('bytes_unfused', formatBytes(plan.bytes_unfused), exactBytes(plan.bytes_unfused));
    set('bytes_fused', formatBytes(plan.bytes_fused), exactBytes(plan.bytes_fused));
    for (const key of ['bytes_unfused', 'bytes_fused']) this.#formula(key, plan[`${key}_formula`]);
    set('speedup', formatSpeedup(plan.speedup_estimate), 'bytes unfused ÷ bytes fused');
    set('kernels', `${plan.kernels_unfused} → ${plan.kernels_fused}`, 'before → after');
    set(
      'time',
      formatTime(plan.time_fused_us),
      `${plan.time_fused_us} µs estimated on ${plan.options?.hardware ?? '?'} ` +
        `(${formatTime(plan.time_unfused_us)} unfused, ${formatSpeedup(plan.time_speedup)} faster fused)`,
    );
    this.$.message.hidden = true;
    this.$.status.classList.remove('error');
    const fused = plan.groups.filter((g) => g.ops.length > 1).length;
    this.$.status.textContent =
      `${graph.ops.length} ops → ${plan.kernels_fused} kernel${plan.kernels_fused === 1 ? '' : 's'} (${fused} fused)` +
      ` · ${plan.options?.strategy ?? 'seed'} strategy on ${plan.options?.hardware ?? '?'}` +
      (plan.dims ? ` · ${dimsText(plan.dims)}` : '');
    const vm = buildViewModel(graph, plan);
    const box = this.$.graph.getBoundingClientRect();
    const layout = await layoutGraph(vm, { direction: box.width > box.height * 1.6 ? 'RIGHT' : 'DOWN' });
    if (seq !== this.seq) return;
    const view = await this.#view(drawingKind(vm), seq);
    if (!view) return;
    view.draw(vm, layout, colorBy);
    this.$.legend.hidden = colorBy !== 'bytes';
    renderHeatLegend(this.$.legend, vm.heat);
    this.dataset.planShown = String((Number(this.dataset.planShown) || 0) + 1);
  }
}

if (!customElements.get('fusion-playground')) customElements.define('fusion-playground', FusionPlaygroundElement);
