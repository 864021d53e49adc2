// decode.js — ONNX bytes → a decoded ModelProto, with the schema of the npm package onnx-buf (onnx.proto of
// ONNX 1.20, compiled for @bufbuild/protobuf).
//
// Contract: decodeModel(bytes: Uint8Array) → ModelProto (int64 fields are bigint, oneofs are {case, value}).
// Bytes that are not a ModelProto with a graph — empty, truncated, another format (a PyTorch .pt zip, a
// TensorFlow .pb), or messages nested deeper than MAX_MESSAGE_DEPTH — throw OnnxImportError with code
// 'invalid_model' and path 'model'. Unknown fields are skipped (not kept). The protobuf reader bounds its own
// recursion, so no input can exhaust the stack. Tested by tests/onnx/onnx-import.test.mjs.

import { fromBinary } from '@bufbuild/protobuf';
import { ModelProtoSchema, TensorProtoSchema } from 'onnx-buf';

import { OnnxImportError } from './errors.js';

// Messages nest 3 deep per subgraph level (graph → node → attribute → graph); 100 allows about 30 levels,
// more than the converter's MAX_NESTING.
export const MAX_MESSAGE_DEPTH = 100;

const invalid = (what) => new OnnxImportError(`model: ${what}`, { code: 'invalid_model' });

function checkBytes(bytes) {
  if (!(bytes instanceof Uint8Array)) throw invalid('expected the file contents as a Uint8Array');
  if (bytes.length === 0) throw invalid('the file is empty');
  // A zip archive (PyTorch .pt/.pth, Keras) starts with "PK".
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    throw invalid(
      'this is a zip archive (a PyTorch or Keras checkpoint?), not an ONNX model; export it with torch.onnx.export',
    );
  }
}

export function decodeModel(bytes) {
  checkBytes(bytes);
  let model;
  try {
    model = fromBinary(ModelProtoSchema, bytes, { readUnknownFields: false, recursionLimit: MAX_MESSAGE_DEPTH });
  } catch (error) {
    throw invalid(`not a valid ONNX file (protobuf: ${error.message})`);
  }
  if (!model.graph) throw invalid('the file decodes but holds no graph (is it an ONNX model?)');
  return model;
}

// A TensorProto file (the test data sets' input_N.pb / output_N.pb).
export function decodeTensor(bytes) {
  return fromBinary(TensorProtoSchema, bytes, { readUnknownFields: false, recursionLimit: MAX_MESSAGE_DEPTH });
}
