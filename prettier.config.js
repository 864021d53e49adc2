// prettier.config.js — the layout of every JavaScript and TypeScript file (scope: .prettierignore), checked by
// `npm run format:check` and the lint suite of `npm test`, applied by `npm run format`. The options keep the
// code's own habits: 120 columns, single quotes, parentheses around every arrow parameter, a trailing comma
// after the last item of a multi-line list. Prettier's defaults for everything else (semicolons, two spaces).
export default {
  printWidth: 120,
  singleQuote: true,
  trailingComma: 'all',
  arrowParens: 'always',
};
