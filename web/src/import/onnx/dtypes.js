// dtypes.js — ONNX element types (TensorProto.DataType numbers) and what they become in graph JSON.
//
// Contract: elementType(code) → {onnx, dtype, bytes} for a tensor element type the graph can carry, or null
// for one it cannot (STRING: no fixed size; UNDEFINED; unknown numbers). `dtype` is the graph JSON name when
// schema/graph.schema.json has one, else null and the op is written with `dtype_bytes`. Sub-byte types (INT4,
// UINT4, FLOAT4E2M1, INT2, UINT2) count as 1 byte per element (`subByte: true`; the converter warns), as the
// graph has no fractional byte sizes. dtypeFields(code) → {dtype} or {dtype_bytes} for an op.

const T = (onnx, dtype, bytes, subByte = false) => ({ onnx, dtype, bytes, subByte });

// Indexed by TensorProto.DataType (onnx.proto, ONNX 1.20).
const TYPES = new Map([
  [1, T('FLOAT', 'f32', 4)],
  [2, T('UINT8', 'u8', 1)],
  [3, T('INT8', 'i8', 1)],
  [4, T('UINT16', 'u16', 2)],
  [5, T('INT16', 'i16', 2)],
  [6, T('INT32', 'i32', 4)],
  [7, T('INT64', 'i64', 8)],
  [9, T('BOOL', 'bool', 1)],
  [10, T('FLOAT16', 'f16', 2)],
  [11, T('DOUBLE', 'f64', 8)],
  [12, T('UINT32', 'u32', 4)],
  [13, T('UINT64', 'u64', 8)],
  [14, T('COMPLEX64', null, 8)],
  [15, T('COMPLEX128', null, 16)],
  [16, T('BFLOAT16', 'bf16', 2)],
  [17, T('FLOAT8E4M3FN', null, 1)],
  [18, T('FLOAT8E4M3FNUZ', null, 1)],
  [19, T('FLOAT8E5M2', null, 1)],
  [20, T('FLOAT8E5M2FNUZ', null, 1)],
  [21, T('UINT4', null, 1, true)],
  [22, T('INT4', null, 1, true)],
  [23, T('FLOAT4E2M1', null, 1, true)],
  [24, T('FLOAT8E8M0', null, 1)],
  [25, T('UINT2', null, 1, true)],
  [26, T('INT2', null, 1, true)],
]);

const NAMES = new Map([
  [0, 'UNDEFINED'],
  [8, 'STRING'],
]);

export const INT64 = 7;
export const BOOL = 9;
export const FLOAT = 1;

export const elementType = (code) => TYPES.get(code) ?? null;

// The ONNX name of an element type number, for messages.
export const elementTypeName = (code) => TYPES.get(code)?.onnx ?? NAMES.get(code) ?? `type ${code}`;

// The dtype fields of a graph op with this element type (the caller has checked elementType(code)).
export function dtypeFields(code) {
  const t = TYPES.get(code);
  return t.dtype ? { dtype: t.dtype } : { dtype_bytes: t.bytes };
}

// True for the integer and bool types whose values shape arithmetic may read.
export const isIntegral = (code) => [2, 3, 4, 5, 6, 7, 9, 12, 13].includes(code);
