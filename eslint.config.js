// eslint.config.js — lints every JavaScript file of the repository (web/, wasm/, tests/, bench/, tools/ and the
// configs at the top); `npm run lint` and the lint suite of `npm test` (tools/lint.mjs) run it with Prettier.
//
// Rules: ESLint's recommended set plus a few that catch real bugs; layout is Prettier's alone
// (eslint-config-prettier, last, turns off anything that would fight it). Globals follow where the code runs:
// the page in the browser, workers in a worker, tests and scripts in Node; Playwright tests and scripts pass
// callbacks to page.evaluate that run in the page, so those files may name browser globals too.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier/flat';
import globals from 'globals';

// Code that runs in Node and in the browser may name only what both have (no window, document, Worker,
// process): the WASM API, the ONNX importer (also tools/onnx2fusion.mjs) and the page's pure folders, which
// tests/web runs in Node and which import nothing from the DOM...
const PORTABLE = ['wasm/**', 'web/src/import/onnx/**', 'web/src/{graph,present,state,share,layout,gallery}/**'];
// ...except the promise clients among them, which start a Web Worker.
const WORKER_CLIENTS = ['web/src/share/link-encoder.js', 'web/src/layout/layout.js'];
const WORKERS = 'web/src/**/*-worker.js';

export default [
  { ignores: ['build/', 'dist/', 'wasm/generated/', 'fuzz/'] },
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // a name never read is dead code or a typo; `_name` says "unused on purpose" (a callback's parameter), and
      // `const { dropped, ...kept } = x` is how a key is left out of a copy
      'no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      eqeqeq: ['error', 'smart'], // == only in `x == null`
      'prefer-const': 'error', // a `let` never reassigned reads as state that changes
      'no-var': 'error',
      'no-template-curly-in-string': 'error', // '${x}' in quotes: a template literal that lost its backticks
      'array-callback-return': 'error', // a map/filter/find callback that forgets to return
    },
  },
  { files: ['web/**'], ignores: [...PORTABLE, WORKERS], languageOptions: { globals: globals.browser } },
  { files: PORTABLE, languageOptions: { globals: globals['shared-node-browser'] } },
  { files: WORKER_CLIENTS, languageOptions: { globals: globals.browser } },
  { files: [WORKERS], languageOptions: { globals: globals.worker } },
  { files: ['tests/**', 'bench/**', 'tools/**', '*.js', '*.mjs'], languageOptions: { globals: globals.node } },
  {
    files: ['tests/browser/**', 'bench/page-*.mjs', 'tools/doc-screenshots.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  prettier,
];
