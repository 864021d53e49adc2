// boot.js — index.html's script: the page (main.js), or with ?embed the light embed (embed/embed.js), each
// imported only when it is the one asked for, so an embed never downloads the page's code, Cytoscape or the
// full WebAssembly module, and the page never downloads the embed's entry. An embed that needs the page's
// own parts (the edit tools, the JSON box, the compare view, an ONNX import: embed-params.js usesPage) runs
// main.js in embed mode, as does a light embed that finds its graph needs them (named dimensions' sliders):
// it calls the page back before it draws. Shown by tests/browser/page-embed.test.mjs and page-budget.test.mjs.
import { parseMode, usesPage } from '../share/embed-params.js';

const page = () => import('./main.js');
const mode = parseMode(location.search);
if (usesPage(mode)) page();
else import('../embed/embed.js').then(({ startEmbed }) => startEmbed(mode, page));
