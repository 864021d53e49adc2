// fusion-error.mjs — the one typed error of the JavaScript API, and error values in the facade's shape.
//
// FusionError carries what an error value carries: code (a stable lower_snake_case string, the same as the
// C++ error codes), message, and where known op, path, line, column; `errors` lists every problem found.
// `internal` is true for failures that are not the caller's mistake (a bug, or out of memory: the error value
// says "internal": true, and an internal_error names the broken "invariant" and "where"); false for user errors.
// errorValue() builds {ok: false, error, errors} for failures found on the JavaScript side, so they look
// exactly like the ones the C++ facade returns; internalValue() the same for an internal failure. Shown by tests/wasm/builder.test.mjs.

export class FusionError extends Error {
  constructor({ code, message, op, path, line, column, internal, invariant, where }, errors = []) {
    super(message);
    this.name = 'FusionError';
    this.code = code;
    this.internal = internal === true;
    for (const [key, value] of Object.entries({ op, path, line, column, invariant, where })) {
      if (value !== undefined) this[key] = value;
    }
    this.errors = errors;
  }

  // The error of a failed result ({ok: false, error, errors}).
  static fromResult(result) {
    return new FusionError(result.error, result.errors ?? [result.error]);
  }
}

// A failed result with one error, shaped like the C++ facade's.
export function errorValue(code, message) {
  const error = { code, message };
  return { ok: false, error, errors: [error] };
}

// A failed result for a failure that is not the caller's mistake (code internal_error or out_of_memory).
export function internalValue(code, message) {
  const error = { code, message, internal: true };
  return { ok: false, error, errors: [error] };
}
