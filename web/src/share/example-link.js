// example-link.js — the readable share links, without the link codec's compressor (share/url-state.js), so
// the light ?embed reads an example link cheaply.
//
// Contract (pure, no DOM): decodeReadableLink(hash) → {kind:'empty'} for no hash, url-state.js's decodeState
// answer for an 'example=<id>&strategy=…&hardware=…&compare=A,B&dims=N=8,seq=128' link, or null for any
// other hash (a 'state=' link: url-state.js decodes it). damaged(why) is the damaged-link error both use.
// Shown by tests/web/url-state.test.mjs (through decodeState) and tests/web/embed-params.test.mjs.

import { DEFAULT_OPTIONS, isChoiceName, isChoicePair as isPair } from '../state/options.js';
import { parseDimsText } from '../state/dims.js';

export const damaged = (why) => ({
  kind: 'error',
  message:
    `This share link is damaged or incomplete (${why}), so the default example is shown instead. ` +
    'Ask for the link again, or copy it whole.',
});

// 'example=<id>&strategy=…&hardware=…&compare=A,B&dims=N=8,seq=128' → a state, or a damaged-link error.
function readExampleLink(h) {
  const [first, ...rest] = h.split('&');
  const id = decodeURIComponent(first.slice('example='.length));
  if (!/^[a-z0-9-]+$/.test(id)) return damaged('unknown example name');
  const state = { example: id, options: { ...DEFAULT_OPTIONS } };
  for (const part of rest) {
    const cut = part.includes('=') ? part.indexOf('=') : part.length;
    const key = part.slice(0, cut);
    const value = decodeURIComponent(part.slice(cut + 1));
    const known = ['strategy', 'hardware', 'compare', 'dims'].includes(key);
    if (!known) return damaged(`it has an unknown setting “${key.slice(0, 40)}”`);
    const dims = key === 'dims' ? parseDimsText(value).dims : null;
    const valid = key === 'dims' ? !!dims : key === 'compare' ? isPair(value.split(',')) : isChoiceName(value);
    if (!valid) return damaged(`“${value.slice(0, 40)}” is not a valid ${key} setting`);
    if (key === 'compare') state.compare = value.split(',');
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
