// vite.config.mjs — serves and builds the page in web/ (npm start: dev server; npm run build: dist/).
//
// Two entries, one static folder: the page (web/index.html → dist/index.html) and the <fusion-playground>
// custom element (web/src/element/element.js → dist/fusion-playground.js, a stable name for one script tag; its
// chunks sit in dist/assets/ and are found relative to it). Files in web/public/ (the element demo page)
// are copied as they are. Workers (layout, planner, import, share links) are ES-module workers.
// The page imports the planner as ../wasm/fusion.mjs, outside web/, so the dev server may read the whole
// repository. base './' makes every asset URL relative: dist/ works from any folder of any static host.
// Every other file name carries a content hash, so a host may cache it for ever. There are two WebAssembly
// binaries, each found by a new URL(…, import.meta.url): fusion_core-*.wasm (wasm/fusion-loader.mjs, the full
// module), which the page and its workers load, and fusion_plan-*.wasm (wasm/fusion-plan.mjs, the smaller
// plan-only module), which the element and its worker load; the page never loads the element's. Libraries get
// chunks named for what they hold (CHUNKS): cytoscape (the drawing), edgehandles (its Connect tool, on first
// use), codemirror (the JSON editor, loaded after the first plan), elk (loaded by the layout worker for graphs of
// more than 50 nodes), onnx-protobuf (the ONNX importer, on first use), planner-loader and plan-loader (the full
// and the plan-only module's JavaScript half); and the app's own (APP_CHUNKS). What each page and embed loads, and its budget: tools/size-report.mjs,
// run by tools/build.sh after this build.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const ELEMENT = 'fusion-playground';

const lib = (names) => new RegExp(`[\\\\/]node_modules[\\\\/](${names})[\\\\/]`);
const CHUNKS = [
  { name: 'cytoscape', test: lib('cytoscape|heap') },
  { name: 'edgehandles', test: lib('cytoscape-edgehandles|lodash\\.[a-z]+') },
  { name: 'codemirror', test: lib('@codemirror|@lezer|codemirror|style-mod|w3c-keyname|crelt|@marijn') },
  { name: 'elk', test: lib('elkjs') },
  { name: 'onnx-protobuf', test: lib('@bufbuild|onnx-buf') },
  { name: 'planner-loader', test: /[\\/]wasm[\\/]generated[\\/]fusion_core\.mjs$/ },
  { name: 'plan-loader', test: /[\\/]wasm[\\/]generated[\\/]fusion_plan\.mjs$/ },
];
// The page's and the element's own code that both draw a plan with (planner client, view model, layout
// client, graph view, formatting). Other chunks are named after their first module: main (the page),
// fusion (wasm/fusion.mjs, the page's planner on the main thread when its worker cannot start), fusion-plan
// (wasm/fusion-plan.mjs, the same for the element, e.g. its script on another origin, which workers refuse), json-editor, compare-view, import-file, run-layout, plan-markdown, each example.
// Two modules stay out of it, as chunks of their own, because the element imports them only on use:
// graph-view.js (the Cytoscape drawing; the element draws graphs of up to 50 boxes as SVG, svg-graph-view.js)
// with graph-keys.js (choosing on it by keyboard), and url-state.js (the link codec, for "Open in playground"
// once the plan is drawn).
const ON_USE_IN_ELEMENT = /[\\/](graph-view|graph-keys|url-state)\.js$/;
// What the page and the light ?embed (embed/embed.js) share and the element never uses: the selection panel
// (with the code view), the totals cards, the page mode, the gallery's titles, the strategy labels and the
// embed's query string. A chunk of its own (embed-view), so that the element does not download it. The page's
// planner client (the full module's worker) stays out of both, since the light embed imports it only for &code.
const PAGE_AND_EMBED =
  /[\\/]web[\\/]src[\\/](views[\\/](totals|page-chrome)|gallery[\\/]gallery|planner[\\/]strategy-catalog|share[\\/](embed-params|example-link))\.js$/;
const NOT_SHARED = /[\\/](planner-client|selection-panel|code-view|box-labels)\.js$/;
// What the element and the light ?embed draw with and the page does not load before its first plan: the SVG
// drawing (svg-graph-view.js and svg/plan-svg.js, which the page's SVG export loads on use) and the plan-only
// planner's client. A chunk of its own (svg-view), so that the page does not download it.
const ELEMENT_AND_EMBED =
  /[\\/]web[\\/]src[\\/](element[\\/](drawing|svg-graph-view)|svg[\\/]plan-svg|planner[\\/]plan-only-client)\.js$/;
const APP_CHUNKS = [
  {
    name: 'plan-view',
    test: (id) =>
      /[\\/]web[\\/]src[\\/]/.test(id) &&
      !ON_USE_IN_ELEMENT.test(id) &&
      !PAGE_AND_EMBED.test(id) &&
      !ELEMENT_AND_EMBED.test(id) &&
      !NOT_SHARED.test(id),
    minShareCount: 2,
  },
  { name: 'embed-view', test: PAGE_AND_EMBED, minShareCount: 2 },
  { name: 'svg-view', test: ELEMENT_AND_EMBED, minShareCount: 2 },
];
const output = { codeSplitting: { groups: CHUNKS } };

export default defineConfig({
  root: here('web'),
  base: './',
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2048,
    reportCompressedSize: false, // tools/size-report.mjs prints raw and gzip sizes, with the budgets
    rolldownOptions: {
      input: { index: here('web/index.html'), [ELEMENT]: here('web/src/element/element.js') },
      output: {
        codeSplitting: { groups: [...CHUNKS, ...APP_CHUNKS] },
        entryFileNames: (chunk) => (chunk.name === ELEMENT ? `${ELEMENT}.js` : 'assets/[name]-[hash].js'),
      },
    },
  },
  worker: { format: 'es', rolldownOptions: { output } },
  server: {
    host: 'localhost',
    fs: { allow: [here('.')] },
  },
  preview: { host: 'localhost' },
});
