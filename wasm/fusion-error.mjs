// fusion-error.mjs — the one typed error of the JavaScript API, and error values in the facade's shape.
//
// FusionError carries what an error value carries: code (a stable lower_snake_case string, the same as the
// C++ error codes), message, and where known op, path, line, column; `errors` lists every problem found.
// errorValue() builds {ok: false, error, errors} for failures found on the JavaScript side, so they look
// exactly like the ones the C++ facade returns. Shown by tests/node/builder.test.mjs.

export class FusionError extends Error {
  constructor({ code, message, op, path, line, column }, errors = []) {
    super(message);
    this.name = 'FusionError';
    this.code = code;
    for (const [key, value] of Object.entries({ op, path, line, column })) {
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
