// tensor.js — reading decoded ONNX messages: integers, tensor dims and (small) values, node attributes.
//
// Contract:
//   toNumber(v)                 a protobuf int64 (bigint) or number as a JS number; ±Infinity past 2^63
//   tensorDims(tensor)          the dims as numbers; throws ShapeError on a negative or unsafe dim
//   tensorValues(tensor, cap)   the elements as numbers when there are at most `cap` of a numeric type held in the
//                               file (not external data), else null; ShapeError when the data is too short
//   attributes(node)            Map name → value: number (INT, FLOAT), string (STRING, decoded as UTF-8),
//                               number[] (INTS, FLOATS), string[] (STRINGS), TensorProto (TENSOR),
//                               GraphProto (GRAPH), GraphProto[] (GRAPHS), SparseTensorProto (SPARSE_TENSOR),
//                               else the raw AttributeProto
// Nothing here allocates more than the model already holds plus `cap` numbers. Tested through
// tests/onnx/onnx-shapes.test.mjs and tests/onnx/onnx-import.test.mjs.

import { ShapeError } from './errors.js';

export const toNumber = (v) => (typeof v === 'bigint' ? Number(v) : v);

export function tensorDims(tensor) {
  return tensor.dims.map((d) => {
    const n = toNumber(d);
    if (!Number.isSafeInteger(n) || n < 0) throw new ShapeError(`tensor '${tensor.name}' has dimension ${d}`);
    return n;
  });
}

export const elementCount = (shape) => shape.reduce((a, b) => a * b, 1);

// Little-endian readers of raw_data per element type: [bytes, (view, offset) → number].
const RAW = {
  1: [4, (v, o) => v.getFloat32(o, true)],
  2: [1, (v, o) => v.getUint8(o)],
  3: [1, (v, o) => v.getInt8(o)],
  4: [2, (v, o) => v.getUint16(o, true)],
  5: [2, (v, o) => v.getInt16(o, true)],
  6: [4, (v, o) => v.getInt32(o, true)],
  7: [8, (v, o) => Number(v.getBigInt64(o, true))],
  9: [1, (v, o) => v.getUint8(o)],
  11: [8, (v, o) => v.getFloat64(o, true)],
  12: [4, (v, o) => v.getUint32(o, true)],
  13: [8, (v, o) => Number(v.getBigUint64(o, true))],
};

// Which typed field holds each element type when raw_data is empty (onnx.proto's comments).
const FIELD = {
  1: 'floatData',
  2: 'int32Data',
  3: 'int32Data',
  4: 'int32Data',
  5: 'int32Data',
  6: 'int32Data',
  7: 'int64Data',
  9: 'int32Data',
  11: 'doubleData',
  12: 'uint64Data',
  13: 'uint64Data',
};

const EXTERNAL = 1;

export function tensorValues(tensor, cap) {
  const reader = RAW[tensor.dataType];
  if (!reader || tensor.dataLocation === EXTERNAL) return null;
  const count = elementCount(tensorDims(tensor));
  if (count > cap) return null;
  const raw = tensor.rawData;
  if (raw && raw.length > 0) {
    const [size, read] = reader;
    if (raw.length < count * size) {
      throw new ShapeError(
        `tensor '${tensor.name}' holds ${raw.length} bytes of data but its dims need ${count * size}`,
      );
    }
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    return Array.from({ length: count }, (_, i) => read(view, i * size));
  }
  const field = tensor[FIELD[tensor.dataType]];
  if (field.length < count) {
    throw new ShapeError(`tensor '${tensor.name}' holds ${field.length} values but its dims need ${count}`);
  }
  return Array.from({ length: count }, (_, i) => toNumber(field[i]));
}

// AttributeProto.AttributeType numbers.
const A = { FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, GRAPH: 5, FLOATS: 6, INTS: 7, STRINGS: 8, GRAPHS: 10, SPARSE: 11 };

const utf8 = new TextDecoder();

// The type of an attribute whose `type` is unset (models from before IR version 2 may omit it).
function guessType(a) {
  if (a.ints.length) return A.INTS;
  if (a.floats.length) return A.FLOATS;
  if (a.strings.length) return A.STRINGS;
  if (a.graphs.length) return A.GRAPHS;
  if (a.t) return A.TENSOR;
  if (a.g) return A.GRAPH;
  if (a.s.length) return A.STRING;
  return a.f !== 0 ? A.FLOAT : A.INT;
}

function attributeValue(a) {
  switch (a.type || guessType(a)) {
    case A.FLOAT:
      return a.f;
    case A.INT:
      return toNumber(a.i);
    case A.STRING:
      return utf8.decode(a.s);
    case A.TENSOR:
      return a.t;
    case A.GRAPH:
      return a.g;
    case A.FLOATS:
      return [...a.floats];
    case A.INTS:
      return a.ints.map(toNumber);
    case A.STRINGS:
      return a.strings.map((s) => utf8.decode(s));
    case A.GRAPHS:
      return a.graphs;
    case A.SPARSE:
      return a.sparseTensor;
    default:
      return a;
  }
}

export function attributes(node) {
  const map = new Map();
  for (const a of node.attribute) map.set(a.name, attributeValue(a));
  return map;
}
