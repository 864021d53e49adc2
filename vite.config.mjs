// vite.config.mjs — serves and builds the page in web/ (npm start: dev server; npm run build: dist/).
//
// Two entries, one static folder: the page (web/index.html → dist/index.html) and the <fusion-playground>
// custom element (web/src/element/element.js → dist/fusion-playground.js, a stable name for one script tag; its
// chunks sit in dist/assets/ and are found relative to it). Files in web/public/ (the element demo page)
// are copied as they are. Workers (ELK layout, the planner) are ES-module workers.
// The page imports the planner as ../wasm/fusion.mjs, outside web/, so the dev server may read the whole
// repository. base './' makes every asset URL relative: dist/ works from any folder of any static host.
// The WASM is inlined in its loader (wasm/CMakeLists.txt), hence one large JS chunk by design.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const ELEMENT = 'fusion-playground';

export default defineConfig({
  root: here('web'),
  base: './',
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2048,
    rollupOptions: {
      input: { main: here('web/index.html'), [ELEMENT]: here('web/src/element/element.js') },
      output: { entryFileNames: (chunk) => (chunk.name === ELEMENT ? `${ELEMENT}.js` : 'assets/[name]-[hash].js') },
    },
  },
  worker: { format: 'es' },
  server: {
    host: 'localhost',
    fs: { allow: [here('.')] },
  },
  preview: { host: 'localhost' },
});
