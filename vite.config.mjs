// vite.config.mjs — serves and builds the page in web/ (npm start: dev server; npm run build: dist/).
//
// The page imports the planner as ../wasm/fusion.mjs, outside web/, so the dev server may read the whole
// repository. base './' makes every asset URL relative: dist/ works from any folder of any static host.
// The WASM is inlined in its loader (wasm/CMakeLists.txt), hence one large JS chunk by design.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('web'),
  base: './',
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2048,
  },
  server: {
    host: 'localhost',
    fs: { allow: [here('.')] },
  },
  preview: { host: 'localhost' },
});
