// settle.js — the rule that settles each output's shape and element type from what shape inference says and
// what the model declares, and how declared dimensions become numbers or names.
//
// Contract:
//   declareTypes(cx, graph) — records a graph's declared types {kind, elemType, dims} by tensor name (dims as
//     shape-util.js declaredDims: numbers, raw dim_param strings, null for unknown)
//   nameDims(cx, tensor, dims) → declared dims as dimensions: numbers stay, a dim_param becomes its name
//     (DimTable fromModel: sanitised, distinct per ONNX name; a dim_param such as "2*s0" or "s0*s1" the product of
//     its names), an unknown dim a fresh name (DimTable unknown, "unk_<k>"); never a number nobody gave. The warnings come when an op first uses a name (emit.js).
//   settle(cx, where, name, inferred, failure) → {shape, dtype}: the inferred shape where there is one, checked
//     against a declared shape: a declared number that differs from an inferred number wins, with a warning; a
//     declared number refines an inferred name; an inferred number or name stays against a declared dim_param,
//     except a fresh unknown name, which takes the declared one. Else the declared shape (nameDims); else an
//     OnnxImportError naming the node. A declared non-tensor type (sequence, map, optional) is an error.
//   typeWord(kind) — what a declared non-tensor type is called in messages
// Tested by tests/onnx/onnx-import.test.mjs and tests/onnx/onnx-dims.test.mjs.

import { isName } from './dim-names.js';
import { elementTypeName } from './dtypes.js';
import { fail, warn, whereLabel } from './emit.js';
import { declaredDims } from './shape-util.js';

export function nameDims(cx, tensor, dims) {
  return dims.map((d, i) => {
    if (typeof d === 'number') return d;
    if (typeof d === 'string') return cx.dims.fromModel(d);
    return cx.dims.unknown(`${tensor}[${i}]`, `unknown dimension ${i} of '${tensor}'`);
  });
}

// One inferred dim against one declared dim (already known not to contradict it).
function merge(cx, inferred, declared) {
  if (typeof declared === 'number') return declared;
  if (typeof declared === 'string' && isName(inferred) && cx.dims.isUnknown(inferred))
    return cx.dims.fromModel(declared);
  return inferred;
}

// An inferred shape checked against the declared dims: declared numbers that differ win, with a warning.
function reconcile(cx, where, name, shape, dims) {
  const sameRank = dims.length === shape.length;
  const clash = (d, i) => typeof d === 'number' && !isName(shape[i]) && d !== shape[i];
  if (!sameRank || dims.some(clash)) {
    const declared = dims.map((d) => d ?? '?');
    warn(
      cx,
      `${whereLabel(where)}: shape of '${name}' inferred as [${shape}] but the model declares [${declared}]; using the declared shape`,
    );
  }
  return sameRank ? shape.map((d, i) => merge(cx, d, dims[i])) : nameDims(cx, name, dims);
}

// Records the types a graph declares (inputs, value_info, outputs) in cx.declared, by tensor name.
export function declareTypes(cx, graph) {
  for (const vi of [...graph.input, ...graph.valueInfo, ...graph.output]) {
    const type = vi.type?.value;
    if (!type?.case) continue;
    const tensor = type.case === 'tensorType' ? type.value : null;
    const dims = tensor ? declaredDims(tensor.shape) : null;
    cx.declared.set(vi.name, { kind: type.case, elemType: tensor?.elemType || undefined, dims });
  }
}

const NON_TENSOR = {
  sequenceType: 'sequence',
  mapType: 'map',
  optionalType: 'optional',
  sparseTensorType: 'sparse tensor',
};

export const typeWord = (kind) => NON_TENSOR[kind] ?? kind;

function settleShape(cx, where, name, inferred, failure, declared) {
  if (inferred?.shape)
    return declared?.dims ? reconcile(cx, where, name, inferred.shape, declared.dims) : inferred.shape;
  if (declared?.dims) {
    if (failure)
      warn(
        cx,
        `${whereLabel(where)}: could not infer the shape of '${name}' (${failure.message}); using the declared shape`,
      );
    return nameDims(cx, name, declared.dims);
  }
  const why = failure
    ? `${failure.message}, and the model declares no shape for '${name}'`
    : `the model declares no shape for output '${name}' and no shape rule applies`;
  throw fail(where, why, failure?.code ?? 'unknown_shape');
}

function settleType(cx, where, name, inferred, declared) {
  let dtype = inferred?.dtype;
  if (declared?.elemType) {
    if (dtype !== undefined && dtype !== declared.elemType) {
      const [inferredType, declaredType] = [elementTypeName(dtype), elementTypeName(declared.elemType)];
      warn(
        cx,
        `${whereLabel(where)}: element type of '${name}' inferred as ${inferredType} but the model declares ${declaredType}; using the declared type`,
      );
    }
    dtype = declared.elemType;
  }
  if (dtype === undefined)
    throw fail(where, `the element type of '${name}' is unknown (the model declares none)`, 'unknown_shape');
  return dtype;
}

export function settle(cx, where, name, inferred, failure) {
  const declared = cx.declared.get(name);
  if (declared && declared.kind !== 'tensorType' && declared.kind) {
    throw fail(where, `'${name}' is a ${typeWord(declared.kind)} value; only tensors can be imported`, 'non_tensor');
  }
  const shape = settleShape(cx, where, name, inferred, failure, declared);
  return { shape, dtype: settleType(cx, where, name, inferred, declared) };
}
