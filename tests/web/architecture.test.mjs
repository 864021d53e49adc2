// architecture.test.mjs — web/src keeps the shape its folder READMEs promise: data flows one way (state →
// planner → present → views, wired by page/), each folder imports only the folders it may, and the pure
// folders touch no DOM, so they run in Node and in workers.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../web/src/', import.meta.url));

// What the entries (the page, the element and the light embed) may import: every folder but page/ (and the page
// element/ and embed/, the light embed element/ but not import/).
const UI = [
  'state',
  'graph',
  'gallery',
  'worker-rpc',
  'present',
  'share',
  'layout',
  'planner',
  'views',
  'import',
  'svg',
  'theme',
];
// What each folder may import from the other folders of web/src (its own files always). A name with '.js' is
// one file. Outside web/src only the core's JS (wasm/), the graph schema (schema/) and npm packages are imported.
const MAY_IMPORT = {
  state: ['graph'],
  graph: [],
  gallery: [],
  theme: [],
  svg: ['layout', 'present', 'theme'],
  'worker-rpc': [],
  present: ['graph', 'state'],
  share: ['state', 'worker-rpc'],
  layout: ['present', 'worker-rpc'],
  planner: ['state', 'worker-rpc'],
  views: ['state', 'graph', 'present', 'layout', 'planner/strategy-catalog.js', 'gallery', 'theme'],
  import: ['graph', 'present', 'state', 'worker-rpc', 'views/dom.js'],
  'import/onnx': ['graph/op-kinds.js'],
  element: UI,
  embed: [...UI.filter((folder) => folder !== 'import'), 'element'],
  page: [...UI, 'element', 'embed'],
};

// Modules that must run without a DOM: whole pure folders, and the pure files of mixed ones.
const PURE = [
  'state',
  'graph',
  'gallery',
  'worker-rpc',
  'present',
  'share/url-state.js',
  'share/embed-params.js',
  'share/example-link.js',
  'layout/layout-input.js',
  'layout/layered-layout.js',
  'layout/run-layout.js',
  'import/onnx',
  'import/import-file.js',
  'import/import-source.js',
  'element/element-config.js',
  'theme/palette.js',
];
const DOM =
  /\b(?:(?:document|window|localStorage|sessionStorage|customElements)\s*\.|HTMLElement\b|getComputedStyle\b)/;
// npm packages that draw or edit on a page.
const DOM_PACKAGES = /^(cytoscape|cytoscape-edgehandles|codemirror|@codemirror\/)/;

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.js') ? [path] : [];
  });
}

const rel = (path) => relative(SRC, path).split('\\').join('/');
// The folder rules apply to: the longest MAY_IMPORT key that contains the file.
const folderOf = (file) =>
  Object.keys(MAY_IMPORT)
    .filter((f) => file.startsWith(`${f}/`))
    .sort((a, b) => b.length - a.length)[0];
const code = (text) =>
  text
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\*)/.test(line))
    .join('\n');
const specifiers = (text) =>
  [...code(text).matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|new URL\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]);

const FILES = filesUnder(SRC).map((path) => ({ path, file: rel(path), text: readFileSync(path, 'utf8') }));

test('every module of web/src belongs to a folder with rules', () => {
  assert.ok(FILES.length > 60);
  assert.deepEqual(
    FILES.filter(({ file }) => !folderOf(file)).map(({ file }) => file),
    [],
  );
});

test('each folder imports only the folders its README allows', () => {
  const problems = [];
  for (const { path, file, text } of FILES) {
    const folder = folderOf(file);
    for (const spec of specifiers(text)) {
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(path), spec);
      if (!target.startsWith(SRC)) {
        const outside = rel(target);
        if (!outside.startsWith('../../wasm/') && !outside.startsWith('../../schema/')) {
          problems.push(`${file} imports ${spec}, outside web/src, wasm/ and schema/`);
        }
        continue;
      }
      const to = rel(target);
      if (to.startsWith(`${folder}/`)) continue;
      const allowed = MAY_IMPORT[folder].some((a) => (a.endsWith('.js') ? to === a : to.startsWith(`${a}/`)));
      if (!allowed) problems.push(`${file} (${folder}/) imports ${to}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('nothing imports from page/, and only page/, element/ and embed/ import element/', () => {
  const into = (prefix) =>
    FILES.filter(
      ({ path, file, text }) =>
        !file.startsWith(prefix) &&
        specifiers(text).some((s) => s.startsWith('.') && rel(resolve(dirname(path), s)).startsWith(prefix)),
    );
  assert.deepEqual(
    into('page/').map((f) => f.file),
    [],
  );
  assert.deepEqual(
    into('element/')
      .filter(({ file }) => !file.startsWith('page/') && !file.startsWith('embed/'))
      .map((f) => f.file),
    [],
  );
});

test('pure modules touch no DOM and load no drawing library', () => {
  const pure = FILES.filter(({ file }) =>
    PURE.some((p) => (p.endsWith('.js') ? file === p : file.startsWith(`${p}/`))),
  );
  assert.ok(pure.length > 30, `${pure.length} pure modules`);
  const problems = pure.flatMap(({ file, text }) => [
    ...(DOM.test(code(text)) ? [`${file} uses ${code(text).match(DOM)[0]}`] : []),
    ...specifiers(text)
      .filter((s) => DOM_PACKAGES.test(s))
      .map((s) => `${file} imports ${s}`),
  ]);
  assert.deepEqual(problems, []);
});

test('the rules can fail: a view imported by a pure folder is caught', () => {
  const folder = folderOf('state/events.js');
  assert.equal(folder, 'state');
  assert.ok(!MAY_IMPORT[folder].some((a) => 'views/dom.js'.startsWith(`${a}/`) || a === 'views/dom.js'));
  assert.ok(DOM.test(code('const x = document.body;')));
  assert.ok(!DOM.test(code('// document.body in a comment')));
  assert.ok(!DOM.test(code('export function windowLength(size) {}')));
});

test('every folder has a README saying what lives there', () => {
  const folders = [...new Set(FILES.map(({ file }) => dirname(file)))];
  assert.deepEqual(
    folders.filter((f) => !statSync(join(SRC, f)).isDirectory() || !readdirSync(join(SRC, f)).includes('README.md')),
    [],
  );
  for (const f of folders) assert.ok(readdirSync(join(SRC, f)).filter((n) => n.endsWith('.js')).length <= 20, f);
});
