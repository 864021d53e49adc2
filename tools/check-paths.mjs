// check-paths.mjs — fails when a source or doc file names a repository path that does not exist.
//
// Usage: node tools/check-paths.mjs [ROOT]   (ROOT defaults to this repository; it must be a git work tree)
//
// Scans the files git knows (tracked, plus new files that are not ignored; example graphs and test data are
// skipped) for strings that start with a top-level folder (core/, tests/, docs/, .ci/, ... and any other tracked
// top-level folder) or name an upper-case Markdown file (README.md, ...), and checks that each one exists.
// Understood: globs (`tests/web/*.test.mjs`, `{a,b}`, and `<name>` or `{name}` for any one name); a `…` or `...`
// (the part before it must begin some path); `:line` suffixes and trailing punctuation; `#anchor` or ` §N` right
// after a Markdown path (the heading or `<a id>` must exist). An upper-case Markdown name passes when it exists at
// the top or beside the file. Not checked: relative paths (`../x`, `./x`, `src/x` inside core/); outputs of the
// build (build/, dist/, wasm/generated/, node_modules/); lines that say `check-paths: ignore` or name another
// repository (`"repo": "owner/name"`, as the peer test cases do); files with a comment line of their own saying
// `check-paths: ignore-file` (the checker's test, whose fixtures name paths that do not exist here).
//
// Prints one line per problem, "file:line: missing path 'p'", then "paths: N passed, M failed", where each scanned
// file is one check (passed when every path it names exists). Exit status 1 when anything is missing.
// Run by tools/run-tests.mjs (suite `paths`); shown by tests/tools/check-paths.test.mjs.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TOP_FOLDERS = 'core cli wasm web tests docs tools bench schema examples fuzz .ci'.split(' ');
const GENERATED = ['build/', 'dist/', 'wasm/generated/', 'node_modules/'];
const SCANNED =
  /\.(c|cc|cpp|h|hpp|mjs|js|cjs|ts|mts|md|json|cmake|py|sh|html|css|ya?ml|txt)$|(^|\/)(CMakeLists\.txt|\.ci\/run)$/;
const DATA = /(^|\/)(data|regressions)\/|^examples\/|^web\/public\/|package-lock\.json$/;
const SKIP_LINE = /check-paths: ignore|"repo": *"[\w.-]+\/[\w.-]+"/;
const SKIP_FILE = /^\s*(?:\/\/|#|<!--) *check-paths: ignore-file\b/m; // a comment line of its own

const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
const listed = git(['ls-files', '-z', '--cached', '--others', '--exclude-standard']).filter(exists);
const paths = new Set(listed);
for (const file of listed) {
  for (let at = file.indexOf('/'); at >= 0; at = file.indexOf('/', at + 1)) paths.add(file.slice(0, at + 1));
}
const folders = [...new Set([...TOP_FOLDERS, ...listed.filter((f) => f.includes('/')).map((f) => f.split('/')[0])])];
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A repository path: a top-level folder, then path characters, globs, `{a,b}` and `<placeholder>`s.
const PATH = new RegExp(
  `(?<![\\w./@$-])(?:${folders.map(escape).join('|')})/(?:[\\w.\\-/*…]|\\{[\\w.,*-]+\\}|<[\\w-]+>)*` +
    '|(?<![\\w./@$-])[A-Z][A-Z0-9_]*\\.md\\b',
  'g',
);

let passed = 0;
let failed = 0;
let named = 0;
const missing = [];
for (const file of listed.filter((f) => SCANNED.test(f) && !DATA.test(f)).sort()) {
  const content = readFileSync(resolve(root, file), 'utf8');
  if (SKIP_FILE.test(content)) continue;
  const before = missing.length;
  content.split('\n').forEach((text, index) => {
    if (SKIP_LINE.test(text)) return;
    for (const match of text.matchAll(PATH)) {
      const problem = check(match[0], text.slice(match.index + match[0].length), file);
      if (problem === undefined) continue;
      named += 1;
      if (problem) missing.push(`${file}:${index + 1}: ${problem}`);
    }
  });
  if (missing.length > before) failed += 1;
  else passed += 1;
}
for (const line of missing) console.log(line);
console.log(`check-paths: ${named} path mentions in ${passed + failed} files, ${missing.length} missing`);
console.log(`paths: ${passed} passed, ${failed} failed`);
process.exitCode = missing.length ? 1 : 0;

// What is wrong with one mention ('' when nothing, undefined when it is not a path to check).
function check(raw, after, file) {
  const ellipsis = raw.search(/…|\.\.\./);
  const mention = ellipsis >= 0 ? raw.slice(0, ellipsis) : raw.replace(/[.,]+$/, '');
  if (GENERATED.some((prefix) => mention.startsWith(prefix) || prefix === `${mention}/`)) return undefined;
  if (/^[A-Z]/.test(mention)) {
    // an upper-case Markdown name: at the top, or beside the file
    const beside = file.includes('/') ? `${file.slice(0, file.lastIndexOf('/') + 1)}${mention}` : mention;
    return paths.has(mention) || paths.has(beside) ? '' : `missing path '${mention}'`;
  }
  if (ellipsis >= 0) {
    return [...paths].some((p) => p.startsWith(mention)) ? '' : `no path starts with '${mention}'`;
  }
  if (/[*{<]/.test(mention)) {
    const pattern = globRegex(mention);
    return [...paths].some((p) => pattern.test(p)) ? '' : `nothing matches '${mention}'`;
  }
  if (!paths.has(mention) && !paths.has(`${mention}/`)) return `missing path '${mention}'`;
  return mention.endsWith('.md') ? anchorProblem(mention, after) : '';
}

// `#anchor` or ` §N` right after a Markdown path must name a heading (or an <a id>) of that file.
function anchorProblem(file, after) {
  const anchor = after.match(/^#([\w-]+)/)?.[1];
  const section = after.match(/^ §(\d+)/)?.[1];
  if (!anchor && !section) return '';
  const text = readFileSync(resolve(root, file), 'utf8');
  if (anchor && !text.includes(`id="${anchor}"`) && !headings(text).some((h) => slug(h) === anchor)) {
    return `${file} has no anchor '#${anchor}'`;
  }
  if (section && !headings(text).some((h) => new RegExp(`^§?${section}[.\\s]`).test(h))) {
    return `${file} has no section §${section}`;
  }
  return '';
}

function headings(markdown) {
  return [...markdown.matchAll(/^#{1,6} +(.*)$/gm)].map((m) => m[1].trim());
}

// GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes.
function slug(heading) {
  return heading
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');
}

// `*` within a folder, `**` across folders, `{a,b}` alternatives, `<name>` and `{name}` any text within a folder.
function globRegex(glob) {
  const body = glob
    .split(/(\*\*|\*|\{[^}]*\}|<[\w-]+>)/)
    .map((part) => {
      if (part === '**') return '.*';
      if (part === '*') return '[^/]*';
      if (part.startsWith('{') && part.includes(','))
        return `(?:${part.slice(1, -1).split(',').map(escape).join('|')})`;
      if (part.startsWith('{') || part.startsWith('<')) return '[^/]+';
      return escape(part);
    })
    .join('');
  return new RegExp(`^${body}/?$`);
}

function git(args) {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\0')
    .filter(Boolean);
}

function exists(file) {
  try {
    return statSync(resolve(root, file)).isFile();
  } catch {
    return false;
  }
}
