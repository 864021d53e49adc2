// example-loader.js — one gallery graph's text, loaded when asked for (each example is its own small chunk),
// for the <fusion-playground> element, which must not download every example to show one.
//
// Contract: loadExample(id) → Promise<the text of examples/<id>.json or examples/models/<id>.json, exactly
// as written | null when there is no such example>. The same files as examples-data.js (which the page
// bundles all at once). Browser-only (Vite resolves the files); shown by tests/browser/element.test.mjs.

const files = import.meta.glob(['../../../examples/*.json', '../../../examples/models/*.json'], {
  query: '?raw',
  import: 'default',
});

const byId = new Map(Object.entries(files).map(([path, load]) => [path.replace(/^.*\/(.+)\.json$/, '$1'), load]));

export async function loadExample(id) {
  const load = byId.get(id);
  return load ? load() : null;
}
