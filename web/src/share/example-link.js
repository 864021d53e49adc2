// example-link.js — the readable share links, without the link codec's compressor (share/url-state.js), so
// the light ?embed reads an example link cheaply.
//
// Contract (pure, no DOM): decodeReadableLink(hash) → {kind:'empty'} for no hash, url-state.js's decodeState
// answer for an 'example=<id>&strategy=…&hardware=…&compare=A,B|search&dims=N=8,seq=128&optimal[=N]' link, or
// null for any other hash (a 'state=' link: url-state.js decodes it). isPair(v): a compare pair (two strategy
// names, or 'search': greedy vs optimal). damaged(why) is the damaged-link error both use.
// Shown by tests/web/url-state.test.mjs (through decodeState) and tests/web/embed-params.test.mjs.

import {
  DEFAULT_OPTIONS,
  DEFAULT_SEARCH_BUDGET,
  isChoiceName,
  isChoicePair,
  isSearchBudget,
} from '../state/options.js';
import { parseDimsText } from '../state/dims.js';

export const damaged = (why) => ({
  kind: 'error',
  message:
    `This share link is damaged or incomplete (${why}), so the default example is shown instead. ` +
    'Ask for the link again, or copy it whole.',
});

export const isPair = (v) => v === 'search' || isChoicePair(v);

// '&compare=' text as a pair: 'search' or [A, B].
const readPair = (value) => (value === 'search' ? 'search' : value.split(','));

// '&optimal' or '&optimal=N' as a node budget, or null when N is not a budget.
const readBudget = (part, value) =>
  part === 'optimal'
    ? DEFAULT_SEARCH_BUDGET
    : /^\d{1,10}$/.test(value) && isSearchBudget(Number(value))
      ? Number(value)
      : null;

// 'example=<id>&strategy=…&hardware=…&compare=A,B&dims=N=8,seq=128&optimal' → a state, or a damaged-link error.
function readExampleLink(h) {
  const [first, ...rest] = h.split('&');
  const id = decodeURIComponent(first.slice('example='.length));
  if (!/^[a-z0-9-]+$/.test(id)) return damaged('unknown example name');
  const state = { example: id, options: { ...DEFAULT_OPTIONS } };
  for (const part of rest) {
    const cut = part.includes('=') ? part.indexOf('=') : part.length;
    const key = part.slice(0, cut);
    const value = decodeURIComponent(part.slice(cut + 1));
    const known = ['strategy', 'hardware', 'compare', 'dims', 'optimal'].includes(key);
    if (!known) return damaged(`it has an unknown setting “${key.slice(0, 40)}”`);
    const dims = key === 'dims' ? parseDimsText(value).dims : null;
    const budget = key === 'optimal' ? readBudget(part, value) : null;
    const valid =
      key === 'dims'
        ? !!dims
        : key === 'compare'
          ? isPair(readPair(value))
          : key === 'optimal'
            ? !!budget
            : isChoiceName(value);
    if (!valid) return damaged(`“${value.slice(0, 40)}” is not a valid ${key} setting`);
    if (key === 'compare') state.compare = readPair(value);
    else if (key === 'optimal') state.optimal = budget;
    else if (key === 'dims') Object.assign(state.options, Object.keys(dims).length ? { dims } : {});
    else state.options[key] = value;
  }
  return { kind: 'state', state };
}

export function decodeReadableLink(hash) {
  const h = String(hash ?? '').replace(/^#/, '');
  if (h === '') return { kind: 'empty' };
  if (!h.startsWith('example=')) return null;
  try {
    return readExampleLink(h);
  } catch {
    return damaged('its data cannot be read'); // a malformed %-escape
  }
}
