// examples-data.js — the gallery's graph texts, bundled by Vite from examples/*.json.
//
// Contract: EXAMPLES maps example id (file name without .json) → the file's text, exactly as written, for
// examples/*.json and the PyTorch models examples/models/*.json. Only the bundler reads the files; gallery.js
// says which ids are shown and how they are titled.

const files = import.meta.glob(['../../../examples/*.json', '../../../examples/models/*.json'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

export const EXAMPLES = Object.fromEntries(
  Object.entries(files).map(([path, text]) => [path.replace(/^.*\/(.+)\.json$/, '$1'), text]),
);
