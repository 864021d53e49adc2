// eslint.config.js — lints every JavaScript file of the repository (web/, wasm/, tests/, bench/, tools/ and the
// configs at the top); `npm run lint` and the lint suite of `npm test` (tools/lint.mjs) run it with Prettier.
//
// Rules: ESLint's recommended set plus a few that catch real bugs; layout is Prettier's alone
// (eslint-config-prettier, last, turns off anything that would fight it). Globals follow where the code runs:
// the page in the browser, workers in a worker, the WASM API and the ONNX importer in Node and the browser (only
// what both have), tests and scripts in Node; Playwright tests and scripts pass callbacks to page.evaluate that
// run in the page, so those files may name browser globals too.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier/flat';
import globals from 'globals';

const BOTH = globals['shared-node-browser'];

export default [
  { ignores: ['build/', 'dist/', 'wasm/generated/', 'fuzz/'] },
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // a name never read is dead code or a typo; `_name` says "unused on purpose" (a callback's parameter)
      'no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      eqeqeq: ['error', 'smart'], // == only in `x == null`
      'prefer-const': 'error', // a `let` never reassigned reads as state that changes
      'no-var': 'error',
      'no-template-curly-in-string': 'error', // '${x}' in quotes: a template literal that lost its backticks
      'array-callback-return': 'error', // a map/filter/find callback that forgets to return
    },
  },
  {
    files: ['web/**'],
    ignores: ['web/src/**/*-worker.js', 'web/src/import/onnx/**'],
    languageOptions: { globals: globals.browser },
  },
  { files: ['web/src/**/*-worker.js'], languageOptions: { globals: globals.worker } },
  { files: ['wasm/**', 'web/src/import/onnx/**'], languageOptions: { globals: BOTH } },
  { files: ['tests/**', 'bench/**', 'tools/**', '*.js', '*.mjs'], languageOptions: { globals: globals.node } },
  {
    files: ['tests/browser/**', 'bench/page-timing.mjs', 'tools/doc-screenshots.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  prettier,
];
