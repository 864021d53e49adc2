#!/usr/bin/env node
// onnx2fusion.mjs — an ONNX model → planner graph JSON, from the command line (the page's importer in Node).
//
//   node tools/onnx2fusion.mjs model.onnx > graph.json     graph JSON on stdout, one op per line
//   node tools/onnx2fusion.mjs --dim batch=8 --dim seq=128 model.onnx   default values of named dimensions
//   node tools/onnx2fusion.mjs --op-table                   the op-type table of docs/onnx.md, as Markdown
//
// Symbolic ONNX dimensions stay names in the graph (docs/onnx.md, "Named dimensions"), and the graph's "dims"
// gives each a default: --dim NAME=N (repeatable; NAME as the model spells it or as sanitised, N a whole number
// ≥ 0) sets one, the others get 1 with a warning. Warnings and a one-line summary (nodes, ops, opaque ops,
// initializers) go to stderr; --quiet leaves them out. Exit status: 0 imported, 1 the model cannot be imported
// (the OnnxImportError message names the node and the construct), 2 bad usage (a malformed --dim too) or an
// unreadable file. Uses web/src/import/onnx/import.js; tested by tests/onnx/onnx-cli.test.mjs.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

import { formatGraph } from '../web/src/graph/graph-text.js';
import { importOnnx, OnnxImportError } from '../web/src/import/onnx/import.js';
import { opTableMarkdown } from '../web/src/import/onnx/op-table.js';

const USAGE =
  'usage: node tools/onnx2fusion.mjs [--quiet] [--dim NAME=N ...] MODEL.onnx > graph.json\n' +
  '       node tools/onnx2fusion.mjs --op-table\n';

// The command line as {quiet, dims, files}, or an error message.
function parseArgs(args) {
  const parsed = { quiet: false, dims: {}, files: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--quiet') parsed.quiet = true;
    else if (a === '--dim' || a.startsWith('--dim=')) {
      const spec = a === '--dim' ? args[++i] : a.slice('--dim='.length);
      const m = /^([^=]+)=(\d+)$/.exec(spec ?? '');
      if (!m || !Number.isSafeInteger(Number(m[2])))
        return { error: `--dim ${spec ?? ''}: write NAME=N, e.g. --dim batch=8` };
      parsed.dims[m[1]] = Number(m[2]);
    } else parsed.files.push(a);
  }
  if (parsed.files.length !== 1 || parsed.files[0].startsWith('-')) return { error: null };
  return parsed;
}

function main(args) {
  if (args.includes('--op-table')) return void process.stdout.write(opTableMarkdown());
  const parsed = parseArgs(args);
  if (parsed.error !== undefined) {
    process.stderr.write(`${parsed.error ? `onnx2fusion: ${parsed.error}\n` : ''}${USAGE}`);
    return 2;
  }
  const { quiet, dims, files } = parsed;
  let bytes;
  try {
    bytes = readFileSync(files[0]);
  } catch (error) {
    process.stderr.write(`onnx2fusion: cannot read ${files[0]}: ${error.message}\n`);
    return 2;
  }
  try {
    const { graph, warnings, stats } = importOnnx(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), {
      fileName: basename(files[0]),
      dims,
    });
    process.stdout.write(formatGraph(graph));
    if (!quiet) {
      for (const w of warnings) process.stderr.write(`warning: ${w}\n`);
      process.stderr.write(
        `onnx2fusion: ${stats.nodes} nodes → ${stats.ops} ops (${stats.opaque} opaque, ${stats.initializers} initializers)\n`,
      );
    }
    return 0;
  } catch (error) {
    if (!(error instanceof OnnxImportError)) throw error;
    process.stderr.write(`onnx2fusion: ${error.message}\n`);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2)) ?? 0;
