// error-summary.js — one planner error as one line of words, for status lines and the embed.
//
// Contract: summarize(error) → "Line 3, column 5: message" (no prefix when the message already names its
// line; '' for none). Apart from diagnostics.js (which re-exports it) so that the <fusion-playground> element
// gets it without diagnostics.js's JSON parser (jsonc-parser). Pure; no DOM.
// Shown by tests/web/diagnostics.test.mjs.

export function summarize(err) {
  if (!err) return '';
  const said = new RegExp(`line ${err.line}\\b`, 'i').test(err.message ?? '');
  const where =
    err.line != null && !said ? `Line ${err.line}${err.column != null ? `, column ${err.column}` : ''}: ` : '';
  return `${where}${err.message ?? err.code}`;
}
