// onnx-sweep-worker.mjs — a worker thread for tests/onnx/onnx-testdata.test.mjs: imports one model per message,
// so the test can stop a model that hangs (by terminating the worker) without stopping itself.
//
// Message in: {id, dir} (a folder holding model.onnx and test_data_set_0/; null: answer {id, ready} once loaded).
// Message out: {id, ms, ok, ...}:
//   ok: true   ops, dims (default values of named dimensions), warnings, stats, outputs ([name, op index]),
//              provenance, expected (per graph output: the
//              declared dims and the dims of test_data_set_0/output_<k>.pb, null when absent or not a tensor),
//              inferred: the same model imported again with every declared shape but the graph inputs' removed
//              (value_info, graph and body outputs), so that each shape must come from shape inference:
//              {ok: true, shapes: {output name: shape}} or {ok: false, code, opType}
//   ok: false  error {name, message, node, opType, path, code, stack}
import { existsSync, readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

import { convertModel } from '../../web/src/import/onnx/convert.js';
import { decodeModel, decodeTensor } from '../../web/src/import/onnx/decode.js';
import { declaredDims } from '../../web/src/import/onnx/shape-util.js';

// The dims of a test data file, when it holds a tensor (sequence and optional outputs hold other messages).
function dataDims(file) {
  if (!existsSync(file)) return null;
  try {
    const t = decodeTensor(readFileSync(file));
    return t.dims.map(Number);
  } catch {
    return null;
  }
}

function expectations(model, dir) {
  return model.graph.output.map((o, k) => {
    const type = o.type?.value;
    const declared = type?.case === 'tensorType' ? declaredDims(type.value.shape) : null;
    return { name: o.name, declared, data: dataDims(`${dir}/test_data_set_0/output_${k}.pb`) };
  });
}

// Removes every declared shape except those of the graph inputs (iteratively, bodies included).
function forgetDeclaredShapes(model) {
  const stack = [model.graph];
  while (stack.length) {
    const g = stack.pop();
    g.valueInfo = [];
    for (const o of g.output) if (o.type?.value?.case === 'tensorType') o.type.value.value.shape = undefined;
    for (const node of g.node) for (const a of node.attribute) stack.push(...(a.g ? [a.g] : []), ...a.graphs);
  }
}

function importInferred(model) {
  forgetDeclaredShapes(model);
  try {
    const r = convertModel(model);
    return { ok: true, shapes: Object.fromEntries([...r.outputs].map(([name, op]) => [name, r.ops[op].shape])) };
  } catch (e) {
    return {
      ok: false,
      code: e?.code ?? e?.name,
      opType: e?.opType || e?.node,
      internal: e?.name !== 'OnnxImportError' || e?.code === 'internal',
      message: e?.message,
    };
  }
}

parentPort.on('message', ({ id, dir }) => {
  if (dir === null) return void parentPort.postMessage({ id, ready: true }); // loaded: the budget starts now
  const started = performance.now();
  try {
    const model = decodeModel(readFileSync(`${dir}/model.onnx`));
    const r = convertModel(model);
    parentPort.postMessage({
      id,
      ok: true,
      ms: performance.now() - started,
      ops: r.ops,
      dims: r.dims,
      warnings: r.warnings,
      stats: r.stats,
      outputs: [...r.outputs],
      provenance: r.provenance,
      expected: expectations(model, dir),
      inferred: importInferred(model),
    });
  } catch (e) {
    const error = {
      name: e?.name,
      message: e?.message,
      node: e?.node,
      opType: e?.opType,
      path: e?.path,
      code: e?.code,
      stack: e?.stack,
    };
    parentPort.postMessage({ id, ok: false, ms: performance.now() - started, error });
  }
});
