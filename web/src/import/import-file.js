// import-file.js — a dropped or opened file's bytes → graph JSON text for the JSON box, or an error as data.
//
// Contract: importBytes(name, bytes: Uint8Array) → never throws:
//   {ok:true, format:'onnx'|'json', name, bytes, text, ops, warnings, stats, ms}  (ms: time spent here)
//   {ok:false, format, name, error:{message, node, opType, path, code}}  (node/opType/path from the ONNX
//   importer's OnnxImportError; null when the failure is not about a node)
// ONNX (sniffed by import-source.js) goes through the importer (onnx/import.js) and is written with
// graph-text.js formatGraph (one op per line). A JSON file must parse and hold an `ops` list; its text is kept
// as written unless a line is longer than LONG_LINE characters (a minified file), which is reformatted so the
// editor stays quick. The planner validates the graph afterwards, as for typed text. Runs in the import worker
// (import-worker.js) or, without workers, on the main thread. Shown by tests/web/import-file.test.mjs.

import { importOnnx } from './onnx/import.js';
import { formatGraph } from '../graph/graph-text.js';
import { sniffFormat } from './import-source.js';

export const LONG_LINE = 4000;

function hasLongLine(text) {
  let start = 0;
  for (let nl = text.indexOf('\n'); ; nl = text.indexOf('\n', start)) {
    const end = nl < 0 ? text.length : nl;
    if (end - start > LONG_LINE) return true;
    if (nl < 0) return false;
    start = nl + 1;
  }
}

function fromJson(bytes) {
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new Error('it starts like JSON but is not UTF-8 text');
  }
  let graph;
  try {
    graph = JSON.parse(text);
  } catch (e) {
    throw new Error(`it is not valid JSON (${e.message})`, { cause: e });
  }
  if (!graph || typeof graph !== 'object' || !Array.isArray(graph.ops)) {
    throw new Error(
      'it is JSON but not an op graph: the top level needs an "ops" list (see the JSON format in the README)',
    );
  }
  return { text: hasLongLine(text) ? formatGraph(graph) : text, ops: graph.ops.length, warnings: [], stats: null };
}

function fromOnnx(name, bytes) {
  const { graph, warnings = [], stats = null } = importOnnx(bytes, { fileName: name });
  return { text: formatGraph(graph), ops: graph.ops.length, warnings, stats };
}

const errorData = (e) => ({
  message: e?.message ?? String(e),
  node: e?.node ?? null,
  opType: e?.opType ?? null,
  path: e?.path ?? null,
  code: e?.code ?? null,
});

export function importBytes(name, bytes) {
  const t0 = performance.now();
  const format = sniffFormat(bytes);
  try {
    const r = format === 'json' ? fromJson(bytes) : fromOnnx(name, bytes);
    return { ok: true, format, name, bytes: bytes.length, ...r, ms: performance.now() - t0 };
  } catch (e) {
    return { ok: false, format, name, error: errorData(e) };
  }
}
