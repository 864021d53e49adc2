// scope.js — the values a graph can read: tensor name → {op, shape, dtype, value}, in nested scopes.
//
// Contract: a scope is {values: Map, parent, region}; a body's scope has the enclosing graph's scope as parent
// (ONNX subgraphs read outer tensors by name). resolve(scope, name) walks up (at most LIMITS.maxNesting steps)
// and throws ShapeError (code 'invalid_model') for a name nothing produced. A lazy value (initializer, body
// input) has op null until opOf(value) makes its op, so sources nobody reads never become ops; its `kind` is
// that of the op it would make ('constant' or 'input'). `value` holds the elements of small constant tensors
// (null when unknown). Tested through tests/onnx/onnx-import.test.mjs.

import { emit } from './emit.js';
import { ShapeError } from './errors.js';

export const childScope = (parent, region) => ({ values: new Map(), parent, region });

// A value whose op is made only when something reads it; `readValue` (optional) gives its elements, read only
// when a rule asks for them (weights are never read); `record` collects the op for its node's provenance.
class LazySource {
  constructor(cx, spec, where, { onMake, readValue, record = null }) {
    Object.assign(this, { op: null, kind: spec.kind, shape: spec.shape, dtype: spec.dtype });
    this.make = () => {
      onMake?.();
      return emit(cx, { ...spec, inputs: [] }, where, record);
    };
    this.readValue = readValue;
  }

  get value() {
    if (this.known === undefined) this.known = this.readValue?.() ?? null;
    return this.known;
  }

  set value(v) {
    this.known = v;
  }
}

export const lazySource = (cx, spec, where, options = {}) => new LazySource(cx, spec, where, options);

export function opOf(value) {
  if (value.op === null) value.op = value.make();
  return value.op;
}

export function resolve(scope, name) {
  for (let s = scope; s; s = s.parent) {
    const v = s.values.get(name);
    if (v) return v;
  }
  throw new ShapeError(`input '${name}' is produced by no earlier node, initializer or graph input`, 'invalid_model');
}
