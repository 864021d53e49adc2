// import-source.js — where an imported model comes from and what it is: the ?onnx= page parameter, the
// file format sniffed from its first bytes, size caps, and the words shown for import results.
//
// Contract (pure, no DOM):
//   modelUrlFromSearch(search, pageHref) → null when the query has no `onnx` parameter, else
//     {ok:true, url, name} (url resolved against the page; name its last path segment) or {ok:false, message}:
//     only a relative URL on the page's own origin is accepted — an absolute URL, a protocol-relative one
//     (//host/…) or one that resolves to another origin is refused with a message saying why.
//   sniffFormat(bytes) → 'json' when the first byte after an optional UTF-8 BOM and white space is '{',
//     else 'onnx' (an ONNX model is a protobuf message, never text starting with '{').
//   MAX_FILE_BYTES: the largest file the page reads (bigger ones are refused before reading).
//   importFailure(name, error), importSummary(name, result), tooLarge(name, size) → the sentences the page shows.
// Shown by tests/web/import-source.test.mjs.

import { formatBytes } from '../present/format.js';

export const MODEL_PARAM = 'onnx';
export const MAX_FILE_BYTES = 1024 * 2 ** 20;

const SCHEME = /^[a-z][a-z\d+.-]*:/i;

export function modelUrlFromSearch(search, pageHref) {
  const raw = new URLSearchParams(search).get(MODEL_PARAM);
  if (raw === null) return null;
  const value = raw.trim();
  const refuse = (why) => ({
    ok: false,
    message: `The model address “${value}” in ?${MODEL_PARAM}= was not loaded: ${why}`,
  });
  if (value === '')
    return refuse('it is empty; give a path to a .onnx or .json file on this site, e.g. ?onnx=models/resnet18.onnx.');
  if (SCHEME.test(value) || /^[\\/]{2}/.test(value)) {
    return refuse(
      'only a relative path to a file on this site is allowed (no http://, https://, data: or //host addresses).',
    );
  }
  let url;
  try {
    url = new URL(value, pageHref);
  } catch {
    return refuse('it is not a valid address.');
  }
  if (url.origin !== new URL(pageHref).origin)
    return refuse('it points to another site; only files on this site can be loaded.');
  const segment = url.pathname.split('/').filter(Boolean).pop() ?? 'model';
  let name = segment;
  try {
    name = decodeURIComponent(segment);
  } catch {
    /* keep it encoded */
  }
  return { ok: true, url: url.href, name };
}

export function sniffFormat(bytes) {
  let k = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (k < bytes.length && (bytes[k] === 0x20 || bytes[k] === 0x09 || bytes[k] === 0x0a || bytes[k] === 0x0d)) k++;
  return bytes[k] === 0x7b ? 'json' : 'onnx';
}

// Why a file was not opened; the page keeps the graph it had.
export function importFailure(name, error) {
  const said = error?.message ?? String(error);
  const what = said.startsWith(`${name}: `) ? said.slice(name.length + 2) : said; // the importer may name the file too
  return `Could not open ${name}: ${what}${/[.!?]$/.test(what) ? '' : '.'} Your graph is unchanged.`;
}

// One line about an import that worked: ops, where they came from, warnings.
export function importSummary(name, { ops, warnings = [], format, bytes }) {
  const from = format === 'onnx' ? `ONNX model ${name}` : name;
  const w = warnings.length ? ` · ${warnings.length} warning${warnings.length === 1 ? '' : 's'}` : '';
  return `Opened ${from} (${formatBytes(bytes)}): ${ops} op${ops === 1 ? '' : 's'}${w}`;
}

export function tooLarge(name, size) {
  return `${name} is ${formatBytes(size)}; the page opens files up to ${formatBytes(MAX_FILE_BYTES)}.`;
}
