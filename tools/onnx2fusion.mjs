#!/usr/bin/env node
// onnx2fusion.mjs — an ONNX model → planner graph JSON, from the command line (the page's importer in Node).
//
//   node tools/onnx2fusion.mjs model.onnx > graph.json     graph JSON on stdout, one op per line
//   node tools/onnx2fusion.mjs --op-table                   the op-type table of docs/onnx.md, as Markdown
//
// Warnings and a one-line summary (nodes, ops, opaque ops, initializers) go to stderr; --quiet leaves them out.
// Exit status: 0 imported, 1 the model cannot be imported (the OnnxImportError message names the node and the
// construct), 2 bad usage or an unreadable file. Uses web/src/import/onnx/import.js; tested by
// tests/onnx/onnx-cli.test.mjs.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

import { formatGraph } from '../web/src/graph/graph-text.js';
import { importOnnx, OnnxImportError } from '../web/src/import/onnx/import.js';
import { opTableMarkdown } from '../web/src/import/onnx/op-table.js';

const USAGE =
  'usage: node tools/onnx2fusion.mjs [--quiet] MODEL.onnx > graph.json\n       node tools/onnx2fusion.mjs --op-table\n';

function main(args) {
  if (args.includes('--op-table')) return void process.stdout.write(opTableMarkdown());
  const quiet = args.includes('--quiet');
  const files = args.filter((a) => a !== '--quiet');
  if (files.length !== 1 || files[0].startsWith('-')) {
    process.stderr.write(USAGE);
    return 2;
  }
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
