// fusion-graph.mjs — FusionGraph: the append-only graph builder (docs/design.md §13), in JavaScript.
//
// addOp({kind, inputs, shape, dtype_bytes | dtype, name}) appends one op and returns its id (its insertion
// index). Inputs are ids or names of ops added before it, so id order is a topological order; any other input
// is refused at once with FusionError code "unknown_input" (and a reused name with "duplicate_name"), naming
// the op and the path /ops/<id>/inputs/<k>. Everything else (kinds, shapes, dtypes, byte limits) is checked
// by the C++ validator when the graph is planned or validated, so JS and native can never disagree on it.
// toJSON() gives the graph JSON of docs/design.md §2 with inputs as ids; JSON.stringify(graph) uses it.
// Shown by tests/wasm/builder.test.mjs.
import { FusionError } from './fusion-error.mjs';

export class FusionGraph {
  #ops = [];
  #idByName = new Map();

  addOp(spec) {
    const id = this.#ops.length;
    if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
      throw new FusionError({
        code: 'invalid_type',
        message: 'addOp takes an object like {kind: "relu", inputs: [0], shape: [4], dtype_bytes: 4}',
        op: id,
        path: `/ops/${id}`,
      });
    }
    const refs = spec.inputs ?? [];
    if (!Array.isArray(refs)) {
      throw new FusionError({
        code: 'invalid_type',
        op: id,
        path: `/ops/${id}/inputs`,
        message: `op ${id}: inputs must be a list of ids or names`,
      });
    }
    const inputs = refs.map((ref, k) => this.#producerOf(ref, id, k));
    const op = copyOf(spec.inputs === undefined ? spec : { ...spec, inputs }, id);
    if (op.name !== undefined) this.#claimName(op.name, id);
    this.#ops.push(op);
    return id;
  }

  get size() {
    return this.#ops.length;
  }

  // The id of the op with this name, or undefined.
  idOf(name) {
    return this.#idByName.get(name);
  }

  toJSON() {
    return { ops: structuredClone(this.#ops) };
  }

  // The id an input reference denotes: an earlier op's id or name; refuses anything else.
  #producerOf(ref, id, k) {
    if (Number.isInteger(ref) && ref >= 0 && ref < id) return ref;
    if (typeof ref === 'string' && this.#idByName.has(ref)) return this.#idByName.get(ref);
    throw new FusionError({
      code: 'unknown_input',
      message:
        `op ${id}: input ${k} is ${JSON.stringify(ref) ?? String(ref)}, which is no op added ` +
        'before it; add the producer first (inputs are ids or names of earlier ops)',
      op: id,
      path: `/ops/${id}/inputs/${k}`,
    });
  }

  #claimName(name, id) {
    if (this.#idByName.has(name)) {
      throw new FusionError({
        code: 'duplicate_name',
        message:
          `op ${id}: the name ${JSON.stringify(name)} is already op ${this.#idByName.get(name)}'s; ` +
          'names must be unique',
        op: id,
        path: `/ops/${id}/name`,
      });
    }
    this.#idByName.set(name, id);
  }
}

// A deep copy of an op spec, so later changes to the caller's object do not reach the graph.
function copyOf(spec, id) {
  try {
    return structuredClone(spec);
  } catch (cause) {
    throw new FusionError({
      code: 'invalid_type',
      message: `op ${id}: fields must be plain JSON values (${cause.message})`,
      op: id,
      path: `/ops/${id}`,
    });
  }
}
