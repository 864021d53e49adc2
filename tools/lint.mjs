// lint.mjs — `eslint .` and `prettier --check .` in one run, with one verdict per file.
//
// Usage: node tools/lint.mjs   (from any folder; what is checked: eslint.config.js, .prettierignore)
//
// Prints ESLint's problems (its stylish report), then each file whose layout is not Prettier's ("[warn] file",
// as `prettier --check` does), then "lint: N passed, M failed", where each file either tool checks is one check
// (passed when ESLint reports nothing in it and Prettier would leave it unchanged). Exit status 1 when anything
// failed. Prettier sees the files git knows (tracked, and new ones that are not ignored), as `prettier .` would.
// Fix with `npm run format` (layout) and by hand (ESLint). Run by `npm run lint` and tools/run-tests.mjs (suite
// `lint`).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';

process.chdir(fileURLToPath(new URL('..', import.meta.url)));

const checked = new Set();
const failed = new Set();

// ESLint: every file the flat config matches.
const eslint = new ESLint();
const results = await eslint.lintFiles(['.']);
process.stdout.write((await eslint.loadFormatter('stylish')).format(results));
for (const result of results) {
  const file = relative('.', result.filePath);
  checked.add(file);
  if (result.messages.length) failed.add(file);
}

// Prettier: every file it has a parser for and .gitignore / .prettierignore do not exclude.
const IGNORE = { ignorePath: ['.gitignore', '.prettierignore'] };
const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
  encoding: 'utf8',
});
for (const file of listed.split('\0').filter(Boolean)) {
  const info = await prettier.getFileInfo(file, IGNORE).catch(() => null); // null: deleted from the work tree
  if (!info || info.ignored || !info.inferredParser) continue;
  checked.add(file);
  try {
    const options = { ...(await prettier.resolveConfig(file)), filepath: file };
    if (await prettier.check(readFileSync(file, 'utf8'), options)) continue;
    console.log(`[warn] ${file}`);
  } catch (error) {
    console.log(`[error] ${file}: ${error.message}`);
  }
  failed.add(file);
}

if (failed.size) console.log('Fix the layout with `npm run format`; ESLint problems by hand (see above).');
console.log(`lint: ${checked.size - failed.size} passed, ${failed.size} failed`);
process.exitCode = failed.size ? 1 : 0;
