// onnx-model-builder.mjs — small ONNX models written inline in tests, encoded with the importer's own protobuf
// library (@bufbuild/protobuf with onnx-buf's schema). Not a test file itself.
//
//   const bytes = modelBytes(graph({
//     inputs: [info('x', F32, [1, 3, 8, 8])], outputs: [info('y', F32)],
//     initializers: [tensor('w', F32, [4, 3, 3, 3])],
//     nodes: [node('Conv', ['x', 'w'], ['y'], { pads: [1, 1, 1, 1] })],
//   }), { opset: 17 });
// Attributes: an integer is INT, a non-integer number FLOAT (float(1) forces FLOAT), a string STRING, an array
// INTS / FLOATS (floats(...)) / STRINGS, a TensorProto TENSOR, a GraphProto GRAPH. Dims may be numbers, symbol
// names (strings) or null (unknown); `info(name, type)` without dims declares no shape.
import { create, toBinary } from '@bufbuild/protobuf';
import {
  AttributeProtoSchema,
  GraphProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  TensorProtoSchema,
  ValueInfoProtoSchema,
} from 'onnx-buf';

export const F32 = 1;
export const U8 = 2;
export const I32 = 6;
export const I64 = 7;
export const STRING = 8;
export const BOOL = 9;
export const F16 = 10;

const FLOAT_MARK = Symbol('float');
export const float = (v) => ({ [FLOAT_MARK]: [v], scalar: true });
export const floats = (...v) => ({ [FLOAT_MARK]: v, scalar: false });

const dim = (d) =>
  d === null
    ? {}
    : typeof d === 'string'
      ? { value: { case: 'dimParam', value: d } }
      : { value: { case: 'dimValue', value: BigInt(d) } };

export function typeOf(elemType, dims) {
  const shape = dims === undefined ? undefined : { dim: dims.map(dim) };
  return { value: { case: 'tensorType', value: { elemType, shape } } };
}

export const info = (name, elemType, dims) => create(ValueInfoProtoSchema, { name, type: typeOf(elemType, dims) });
export const sequenceInfo = (name, elemType) =>
  create(ValueInfoProtoSchema, {
    name,
    type: { value: { case: 'sequenceType', value: { elemType: typeOf(elemType, []) } } },
  });

// A tensor with values (int64 as int64_data, others as float_data / int32_data), or, without values, zeros
// as raw_data (as exporters write weights).
export function tensor(name, dataType, dims, values) {
  const init = { name, dataType, dims: dims.map(BigInt) };
  if (!values)
    init.rawData = new Uint8Array(dims.reduce((a, b) => a * b, 1) * ({ [F32]: 4, [I64]: 8, [F16]: 2 }[dataType] ?? 4));
  else if (dataType === I64) init.int64Data = values.map(BigInt);
  else if (dataType === F32) init.floatData = values;
  else init.int32Data = values;
  return create(TensorProtoSchema, init);
}

function attribute(name, v) {
  const a = { name };
  if (v?.[FLOAT_MARK])
    Object.assign(a, v.scalar ? { type: 1, f: v[FLOAT_MARK][0] } : { type: 6, floats: v[FLOAT_MARK] });
  else if (typeof v === 'number') Object.assign(a, Number.isInteger(v) ? { type: 2, i: BigInt(v) } : { type: 1, f: v });
  else if (typeof v === 'string') Object.assign(a, { type: 3, s: new TextEncoder().encode(v) });
  else if (Array.isArray(v) && v.every((x) => typeof x === 'string'))
    Object.assign(a, { type: 8, strings: v.map((s) => new TextEncoder().encode(s)) });
  else if (Array.isArray(v)) Object.assign(a, { type: 7, ints: v.map(BigInt) });
  else if (v?.$typeName === 'onnx.TensorProto') Object.assign(a, { type: 4, t: v });
  else if (v?.$typeName === 'onnx.GraphProto') Object.assign(a, { type: 5, g: v });
  else throw new Error(`attribute ${name}: cannot encode ${v}`);
  return create(AttributeProtoSchema, a);
}

export const node = (opType, input, output, attrs = {}, name = '', domain = '') =>
  create(NodeProtoSchema, {
    opType,
    input,
    output,
    name,
    domain,
    attribute: Object.entries(attrs).map(([k, v]) => attribute(k, v)),
  });

export const graph = ({ nodes = [], inputs = [], outputs = [], initializers = [], valueInfo = [], name = 'g' }) =>
  create(GraphProtoSchema, { name, node: nodes, input: inputs, output: outputs, initializer: initializers, valueInfo });

export const modelBytes = (g, { opset = 17 } = {}) =>
  toBinary(
    ModelProtoSchema,
    create(ModelProtoSchema, {
      irVersion: 8n,
      producerName: 'fusion-playground tests',
      graph: g,
      opsetImport: [{ domain: '', version: BigInt(opset) }],
    }),
  );

// A chain of `blocks` MatMul → Add → Relu → Reshape blocks with 64×64 weights: 4 nodes and 3 initializers
// (about 17 KB of weights) a block; 2,500 blocks make the 10,000-node, 42 MB model of the import tests and bench.
export function mlpChainModel(blocks) {
  const nodes = [];
  const initializers = [];
  let x = 'x';
  for (let i = 0; i < blocks; i++) {
    initializers.push(tensor(`w${i}`, F32, [64, 64]), tensor(`b${i}`, F32, [64]), tensor(`s${i}`, I64, [2], [-1, 64]));
    nodes.push(
      node('MatMul', [x, `w${i}`], [`m${i}`]),
      node('Add', [`m${i}`, `b${i}`], [`a${i}`]),
      node('Relu', [`a${i}`], [`r${i}`]),
      node('Reshape', [`r${i}`, `s${i}`], [`h${i}`]),
    );
    x = `h${i}`;
  }
  return modelBytes(graph({ nodes, initializers, inputs: [info('x', F32, [8, 64])], outputs: [info(x, F32)] }));
}
